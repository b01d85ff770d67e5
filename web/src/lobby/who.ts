/**
 * The lobby's "who you are" line: the page's identity (identity.ts) once it
 * has settled: a guest of Roost with its player id, a user of the frontend's
 * identity provider, or nobody (a deployment that issues no guests).
 */
import { h, replace } from "../dom.js";
import { type Identity, onIdentity } from "../identity.js";

/** The sentence for an identity. */
export function whoText(who: Identity | undefined): string {
  if (!who) return "Playing without an identity (this server issues no guest identities).";
  return who.guest ? `Playing as guest ${who.playerId}` : `Signed in as ${who.playerId}`;
}

/** A line showing the identity `settled` resolves to, and any later change while it is in the document. */
export function whoLine(settled: Promise<Identity | undefined>): HTMLElement {
  const line = h("p", { class: "who", id: "who", role: "status" }, "Getting a guest identity…");
  void settled.then((first) => {
    replace(line, whoText(first));
    let stop: (() => void) | undefined;
    stop = onIdentity((who) => {
      if (!line.isConnected) stop?.();
      else replace(line, whoText(who));
    });
  });
  return line;
}

/**
 * How to play, per game: the rules for players written once, in
 * src/howto/rules/<game>.md, and shown here in a panel a player can open at
 * any time (the game page's "How to play" button). docs/games/<game>-how-to-play.md
 * are copies written by `npm run howto` (scripts/howto-docs.mjs); a unit
 * test fails when a copy differs from its source. The panel is a `<dialog>` kept outside the re-rendered page: it
 * stays open while the game goes on.
 */
import { h } from "../dom.js";
import type { GameName } from "../registry.js";
import { markdown } from "./markdown.js";

/** Every rules file, by path (found by presence: a new game adds its own). */
const RULES = import.meta.glob<string>("./rules/*.md", { query: "?raw", import: "default", eager: true });

/** The rules text of each game that has one (markdown), by game name. */
export const HOW_TO_PLAY: Partial<Record<GameName, string>> = Object.fromEntries(
  Object.entries(RULES).map(([path, text]) => [path.replace(/^.*\/(.+)\.md$/, "$1"), text]),
);

/** The rules of a game as elements. */
export function renderHowToPlay(game: GameName): HTMLElement {
  const rules = HOW_TO_PLAY[game] ?? "No rules for players have been written for this game yet.";
  return h("article", { class: "how-to-play" }, markdown(rules));
}

function dialogFor(game: GameName): HTMLDialogElement {
  const id = `how-to-play-${game}`;
  let dialog = document.getElementById(id) as HTMLDialogElement | null;
  if (!dialog) {
    dialog = h(
      "dialog",
      { id, class: "how-to-play-dialog", "aria-label": "How to play" },
      h("form", { method: "dialog", class: "close-row" }, h("button", { type: "submit", class: "close" }, "Close")),
      renderHowToPlay(game),
    ) as HTMLDialogElement;
    document.body.append(dialog);
  }
  return dialog;
}

/** The button that opens the game's rules (and closes them again). */
export function howToPlayButton(game: GameName): HTMLElement {
  return h(
    "button",
    {
      type: "button",
      class: "how-to-play-button",
      "aria-haspopup": "dialog",
      onclick: () => {
        const dialog = dialogFor(game);
        if (dialog.open) dialog.close();
        else if (typeof dialog.show === "function") dialog.show();
        else dialog.setAttribute("open", "");
      },
    },
    "How to play",
  );
}

/**
 * The download button: fetch a game's record (GetRecord; the public part
 * while the game runs, the whole record once it has ended) and save its
 * canonical JSON as `<game>-<game id>.json`, the file `roost export GAME_ID`
 * writes.
 */
import { gameClient, type GameClient } from "../api/clients.js";
import { explain } from "../api/errors.js";
import { h } from "../dom.js";
import type { GameRecord } from "../gen/roost/common/v1/record_pb.js";
import { recordFileName } from "./address.js";
import { canonicalRecordJson } from "./canonical.js";

/** Read a game's record from its service. */
export async function fetchRecord(game: string, gameId: string, client: GameClient = gameClient(game)): Promise<GameRecord> {
  const reply = await client.getRecord({ gameId });
  if (!reply.record) throw new Error("The service sent no record.");
  return reply.record;
}

/** Save `text` as a file named `name` through the browser's download. */
export function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true }) as HTMLAnchorElement;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A button that downloads the game's record; failures are said next to it. */
export function downloadButton(game: string, gameId: string, client?: GameClient): HTMLElement {
  const status = h("span", { class: "download-status", role: "status" });
  const button = h(
    "button",
    {
      type: "button",
      class: "download-record",
      onclick: async () => {
        status.textContent = "fetching the record…";
        try {
          const record = await fetchRecord(game, gameId, client);
          saveFile(recordFileName(game, gameId), canonicalRecordJson(record));
          status.textContent = record.complete ? "record saved" : "saved the public part (the game is still on)";
        } catch (err) {
          status.textContent = `No record: ${explain(err)}`;
        }
      },
    },
    "Download record",
  );
  return h("span", { class: "download" }, button, " ", status);
}

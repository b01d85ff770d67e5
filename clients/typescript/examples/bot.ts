/**
 * An example bot over the Connect endpoint: the policy "cautious" (never give
 * points away; among equal scores, prefer the kinds of action it likes) plays
 * one seat of a game to its end.
 *
 *   npx tsx examples/bot.ts --game undertheleaves --url http://127.0.0.1:52054 \
 *     --game-id GAME_ID --seat 1 --token SEAT_TOKEN
 *
 * `--url` is the game service's Connect / gRPC-Web endpoint; the seat's token
 * is the one NewGame (or the matchmaker) handed out for that seat.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type Policy, SeatBot } from "../src/bot.js";
import { type LegalChoice, GameClient, connectGame } from "../src/client.js";
import { gameNamed } from "../src/registry.js";
import { createTransport } from "../src/transport.js";

/** Action kinds to prefer when scores tie (the kind is the Action oneof's field name). */
const PREFERRED = new Set(["play_card", "place_tile", "play_bird", "take_tile"]);

/** Takes the best score preview; among equals, a preferred kind; then the first. */
export class Cautious implements Policy {
  readonly wantsPreview = true; // fill scoreAfter: the seat's total right after each action
  readonly wantsView = false; // it does not read the View: Apply leaves it out

  choose(actions: LegalChoice[]): number {
    const rank = (a: LegalChoice) => [a.scoreAfter ?? 0, PREFERRED.has(a.ref?.kind ?? "") ? 1 : 0];
    let best = 0;
    for (let i = 1; i < actions.length; i++) {
      const [score, liked] = rank(actions[i]);
      const [bestScore, bestLiked] = rank(actions[best]);
      if (score > bestScore || (score === bestScore && liked > bestLiked)) best = i;
    }
    return best;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      game: { type: "string", default: "undertheleaves" },
      url: { type: "string" },
      "game-id": { type: "string" },
      seat: { type: "string" },
      token: { type: "string" },
    },
  });
  if (!values.url || !values["game-id"] || values.seat === undefined || !values.token) {
    throw new Error("usage: bot.ts --game NAME --url CONNECT_URL --game-id ID --seat N --token T");
  }
  const rpc = connectGame(gameNamed(values.game!), createTransport("connect", values.url));
  const client = new GameClient(rpc);
  const seat = Number(values.seat);
  const bot = new SeatBot(client, values["game-id"], seat, values.token, new Cautious());
  const result = await bot.run();
  console.log(`seat ${result.seat}: ${result.decisions} decisions, finished ${result.finished}`);
}

// Run as a program (not when a test imports the policy).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

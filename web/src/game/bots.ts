/**
 * Bots played by this page for the seats it was asked to (lobby: "bot in this
 * browser"). When a bot seat is to act, it reads its legal actions with its
 * own token and applies one: "random" picks uniformly, "greedy" the action
 * with the best one-ply score preview. The same policies as the `roost` bots.
 * They play while the page is open; the matchmaker's bots play server-side.
 */
import type { AnyLegalAction, GameClient } from "../api/clients.js";
import { asSeat, requestId } from "../api/clients.js";
import { decodeError } from "../api/errors.js";
import type { HeldSeat } from "../api/seats.js";

/** Pick an action by a bot policy; `random` is injectable for tests. */
export function pickAction(actions: AnyLegalAction[], policy: HeldSeat["player"], random = Math.random): AnyLegalAction {
  if (policy === "greedy") {
    const best = Math.max(...actions.map((a) => a.scoreAfter));
    const top = actions.filter((a) => a.scoreAfter === best);
    return top[Math.floor(random() * top.length)]!;
  }
  return actions[Math.floor(random() * actions.length)]!;
}

/** Play one decision for each bot seat that is to act; returns whether any moved. */
export async function playBots(
  client: GameClient,
  gameId: string,
  bots: HeldSeat[],
  toAct: number[],
  signal: AbortSignal,
): Promise<boolean> {
  let moved = false;
  for (const bot of bots.filter((b) => toAct.includes(b.seat))) {
    const opts = asSeat(bot.token, signal);
    try {
      const legal = await client.legal({ gameId, withScorePreview: bot.player === "greedy" }, opts);
      if (!legal.actions.length) continue;
      const choice = pickAction(legal.actions, bot.player);
      await client.apply(
        { gameId, expectedVersion: legal.version, requestId: requestId(), choice: { case: "actionId", value: choice.ref?.id ?? 0 } },
        opts,
      );
      moved = true;
    } catch (err) {
      // A stale version or a move by someone else first: the next event retries.
      const reason = decodeError(err).reason;
      if (reason !== "ERROR_REASON_STALE_VERSION" && reason !== "ERROR_REASON_NOT_YOUR_TURN") throw err;
    }
  }
  return moved;
}

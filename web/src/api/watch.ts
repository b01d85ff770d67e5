/**
 * Watch that never gives up: it streams a game's events from a version and,
 * when the stream ends before the game does (the server's connection age, a
 * restart, a dropped network) or fails with a retryable error, resumes from
 * the last version seen after a backoff (0.25 s doubling to 8 s, reset by
 * every event received). It stops when the game is finished, when the caller
 * aborts, or on an error that retrying cannot fix (game not found, bad token).
 */
import { GameStatus } from "../gen/roost/common/v1/common_pb.js";
import type { AnyView, GameClient } from "./clients.js";
import { asSeat } from "./clients.js";
import { retryable } from "./errors.js";
import type { Event } from "../gen/roost/common/v1/common_pb.js";

export interface WatchItem {
  event: Event;
  view?: AnyView;
}

export interface WatchHooks {
  /** Called with each (re)connection attempt's state: "live" or "reconnecting". */
  onStatus?: (status: "live" | "reconnecting") => void;
  /** Sleep used between attempts (tests pass a fast one). */
  sleep?: (ms: number) => Promise<void>;
}

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stream events after `fromVersion`, resuming as described above. */
export async function* watchGame(
  client: GameClient,
  gameId: string,
  token: string | undefined,
  fromVersion: bigint,
  signal: AbortSignal,
  hooks: WatchHooks = {},
): AsyncGenerator<WatchItem> {
  let next = fromVersion;
  let delay = 250;
  const sleep = hooks.sleep ?? sleeper;
  while (!signal.aborted) {
    try {
      hooks.onStatus?.("live");
      for await (const item of client.watch(
        { gameId, fromVersion: next, includeView: true },
        asSeat(token, signal),
      )) {
        if (!item.event) continue;
        delay = 250;
        next = item.event.version;
        yield { event: item.event, view: item.view };
        if (item.event.status === GameStatus.FINISHED) return;
      }
    } catch (err) {
      if (signal.aborted) return;
      if (!retryable(err)) throw err;
    }
    if (signal.aborted) return;
    hooks.onStatus?.("reconnecting");
    await sleep(delay);
    delay = Math.min(delay * 2, 8000);
  }
}

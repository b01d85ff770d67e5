/**
 * Watch that never gives up: it streams a game's events from a version and,
 * when the stream ends before the game does (the server's connection age, a
 * restart, a dropped network) or fails with a retryable error, resumes after a
 * backoff (0.25 s doubling to 8 s, reset by every event received). A resumed
 * stream starts one version before the last one seen, so its first event (that
 * one again) comes at once and shows the stream is live even when nobody moves;
 * the repeat is not passed on. It stops when the game is finished, when the
 * caller aborts, or on an error that retrying cannot fix (game not found, bad
 * token).
 *
 * Every event comes with the caller's view when it is the latest of a batch
 * (include_view), and, for a seat, with the seat's legal actions when the
 * event asks it to decide (include_legal): one stream is all a live page
 * needs, with no GetState or Legal call per event.
 */
import { GameStatus } from "../gen/roost/common/v1/common_pb.js";
import type { AnyLegalAction, AnyView, GameClient } from "./clients.js";
import { asSeat } from "./clients.js";
import { retryable } from "./errors.js";
import type { Event } from "../gen/roost/common/v1/common_pb.js";

export interface WatchItem {
  event: Event;
  /** The caller's view after this event, when it was the latest one read. */
  view?: AnyView;
  /**
   * The seat's legal actions at event.version (send that version as
   * expected_version); empty when the seat is not asked to decide after this
   * event, or when its decision changed later (a later event carries it).
   */
  legal: AnyLegalAction[];
}

export interface WatchHooks {
  /** "live" when a (re)connected stream brings its first event, "reconnecting" when it is lost. */
  onStatus?: (status: "live" | "reconnecting") => void;
  /** Sleep used between attempts (tests pass a fast one). */
  sleep?: (ms: number) => Promise<void>;
}

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stream events after `fromVersion`, resuming as described above; legal actions only with a token. */
export async function* watchGame(
  client: GameClient,
  gameId: string,
  token: string | undefined,
  fromVersion: bigint,
  signal: AbortSignal,
  hooks: WatchHooks = {},
): AsyncGenerator<WatchItem> {
  let next = fromVersion;
  /** The last version passed on (none yet: nothing to repeat). */
  let seen: bigint | undefined;
  let delay = 250;
  const sleep = hooks.sleep ?? sleeper;
  while (!signal.aborted) {
    try {
      const from = seen !== undefined && seen > 0n ? seen - 1n : next;
      let first = true;
      for await (const item of client.watch(
        { gameId, fromVersion: from, includeView: true, includeLegal: token !== undefined },
        asSeat(token, signal),
      )) {
        if (!item.event) continue;
        delay = 250;
        if (first) hooks.onStatus?.("live");
        first = false;
        if (seen !== undefined && item.event.version <= seen) continue; // the repeat of a resumed stream
        next = item.event.version;
        seen = next;
        yield { event: item.event, view: item.view, legal: item.legal ?? [] };
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

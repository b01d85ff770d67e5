/**
 * A small client of any Roost game service, written once for every game.
 *
 * Every game service has the same RPCs with the same request and response
 * field names; only View, Action and Options differ. `GameRpc` is the part of
 * a generated client this library uses, and each game's generated client fits
 * it (the compiler checks that in `connectGame`). The rules it implements:
 *
 * - a seat's calls carry its token as metadata `x-seat-token`;
 * - Apply sends the version its decision was made on (`expected_version`) and
 *   a request id; a retryable failure (UNAVAILABLE, RESOURCE_EXHAUSTED) is
 *   sent again with the same request id, so it is applied at most once;
 * - every unary call has a deadline;
 * - Watch resumes from the last version it delivered when its stream breaks
 *   (a server closes connections after their maximum age, a draining server
 *   ends its streams with UNAVAILABLE), so no event is lost or repeated.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { randomUUID } from "node:crypto";
import { type CallOptions, type Transport, Code } from "@connectrpc/connect";
import {
  type ActionRef,
  type Event,
  GameStatus,
  type ScoreBoard,
  type SeatCredential,
} from "./gen/roost/common/v1/common_pb.js";
import { errorCode, isRetryable } from "./errors.js";
import type { GameEntry } from "./registry.js";
import { generatedClient } from "./services.js";

/** The metadata key of a seat's token. */
export const TOKEN_HEADER = "x-seat-token";

/** A legal decision as a generic client sees it: its id, label and kind, and
 * (when previews were asked for) the seat's total score right after it. */
export interface LegalChoice {
  ref?: ActionRef;
  scoreAfter?: number;
}

/** The id to send as `action_id` for a legal choice (an unset id is 0: the first). */
export function actionId(choice: LegalChoice): number {
  return choice.ref?.id ?? 0;
}

/** The fields of Apply's response every game shares. */
export interface ApplyResult {
  version: bigint;
  status: GameStatus;
  toAct: number[];
  nextActions: LegalChoice[];
  event?: Event;
  /** The seat's View after the decision (the game's own message; unset with omitView). */
  view?: unknown;
}

/** What Apply may leave out or add, for a client that does not need all of it. */
export interface ApplyExtras {
  /** Leave the seat's View out of the reply (a bot that does not read it). */
  omitView?: boolean;
  /** Fill `scoreAfter` of the reply's `nextActions`. */
  withScorePreview?: boolean;
}

/** The generated client's methods this library calls, with the fields it uses. */
export interface GameRpc {
  newGame(
    request: { common: { players: number; seed?: bigint; seatNames?: string[] } },
    options?: CallOptions,
  ): Promise<{ gameId: string; version: bigint; credentials: SeatCredential[]; toAct: number[] }>;
  getState(
    request: { gameId: string },
    options?: CallOptions,
  ): Promise<{ version: bigint; status: GameStatus; toAct: number[]; view?: unknown }>;
  legal(
    request: { gameId: string; withScorePreview?: boolean },
    options?: CallOptions,
  ): Promise<{ version: bigint; actions: LegalChoice[] }>;
  apply(
    request: {
      gameId: string;
      expectedVersion: bigint;
      requestId: string;
      choice: { case: "actionId"; value: number };
      omitView?: boolean;
      withScorePreview?: boolean;
    },
    options?: CallOptions,
  ): Promise<ApplyResult>;
  score(
    request: { gameId: string },
    options?: CallOptions,
  ): Promise<{ version: bigint; scoreboard?: ScoreBoard }>;
  watch(
    request: {
      gameId: string;
      fromVersion: bigint;
      includeView?: boolean;
      includeLegal?: boolean;
      withScorePreview?: boolean;
      skipOwnEvents?: boolean;
    },
    options?: CallOptions,
  ): AsyncIterable<{ event?: Event; legal: LegalChoice[] }>;
}

/**
 * The generated client of the game named in `entry`, on `transport` (the
 * table in services.ts is generated from the registry: every game has one).
 */
export function connectGame(entry: GameEntry, transport: Transport): GameRpc {
  const client = generatedClient(entry.typeName, transport);
  if (client === undefined) throw new Error(`this client has no generated code for ${entry.typeName}`);
  return client;
}

/** Timing of calls: deadlines and retries. */
export interface CallPolicy {
  /** Deadline of each unary call, in milliseconds. */
  deadlineMs: number;
  /** How many times a retryable failure is retried before it is thrown. */
  retries: number;
  /** The first pause before a retry; it doubles up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_POLICY: CallPolicy = {
  deadlineMs: 10_000,
  retries: 6,
  backoffMs: 50,
  maxBackoffMs: 2_000,
};

/** Options of `GameClient.watch`. */
export interface WatchOptions {
  /** Deliver events after this version (0 = from the game's creation). */
  fromVersion?: bigint;
  /** Watch as this seat (redacted for it); a spectator when absent. */
  token?: string;
  /** Stops the watch. */
  signal?: AbortSignal;
  /**
   * End each stream after this many milliseconds and resume it, as happens
   * when a server closes a connection at its maximum age (tests use it to
   * exercise resuming; a client has no need to).
   */
  reconnectAfterMs?: number;
  /** Called with the version a broken stream is resumed from. */
  onResume?: (fromVersion: bigint) => void;
}

/** A game service client: one game kind, one transport. */
export class GameClient {
  constructor(
    readonly rpc: GameRpc,
    readonly policy: CallPolicy = DEFAULT_POLICY,
  ) {}

  /**
   * Creates a game of `players` seats; the response holds one token per seat.
   * Not retried: NewGame has no request id, and a retry whose first attempt did
   * land would create a second game (an unused game expires by itself).
   */
  newGame(players: number, seed = 0n) {
    const create = (opts: CallOptions) => this.rpc.newGame({ common: { players, seed } }, opts);
    return this.call(create, undefined, 0);
  }

  /** Version, status and the seats asked to decide (a spectator's read without a token). */
  getState(gameId: string, token?: string) {
    return this.call((opts) => this.rpc.getState({ gameId }, opts), token);
  }

  /** The seat's legal decisions now, and the version they belong to (with each
   * decision's score preview when `withScorePreview`). */
  legal(gameId: string, token: string, withScorePreview = false) {
    return this.call((opts) => this.rpc.legal({ gameId, withScorePreview }, opts), token);
  }

  /**
   * Applies the decision `actionId` of the legal list of `expectedVersion`.
   * A retryable failure is retried with the same request id, so the decision
   * is applied once even when a reply was lost.
   */
  apply(
    gameId: string,
    token: string,
    expectedVersion: bigint,
    actionId: number,
    requestId: string = randomUUID(),
    extras: ApplyExtras = {},
  ): Promise<ApplyResult> {
    const request = {
      gameId,
      expectedVersion,
      requestId,
      choice: { case: "actionId" as const, value: actionId },
      ...extras,
    };
    return this.call((opts) => this.rpc.apply(request, opts), token);
  }

  /** Scores with their breakdown (final once the game has ended). */
  score(gameId: string, token?: string) {
    return this.call((opts) => this.rpc.score({ gameId }, opts), token);
  }

  /**
   * The game's events, oldest first, each version once, until the game's final
   * event. A stream that breaks (UNAVAILABLE: a connection closed at its
   * maximum age, a draining server; RESOURCE_EXHAUSTED: a server at its cap of
   * streams) is resumed from the last version delivered, after a pause.
   */
  async *watch(gameId: string, options: WatchOptions = {}): AsyncGenerator<Event> {
    let last = options.fromVersion ?? 0n;
    let failures = 0;
    for (;;) {
      const attempt = new AbortController();
      const cut = options.reconnectAfterMs;
      const timer = cut === undefined ? undefined : setTimeout(() => attempt.abort(), cut);
      const signals = [attempt.signal, ...(options.signal ? [options.signal] : [])];
      try {
        const stream = this.rpc.watch(
          { gameId, fromVersion: last },
          { headers: headers(options.token), signal: AbortSignal.any(signals) },
        );
        let delivered = 0;
        let final = false;
        for await (const response of stream) {
          const event = response.event;
          if (event === undefined || event.version <= last) continue;
          last = event.version;
          failures = 0;
          delivered += 1;
          final = isFinished(event.status);
          yield event;
        }
        // The service ends a stream after the final event of a finished game, and
        // at once when the game had finished by `last`. A stream that ended
        // otherwise (a proxy's idle timeout, say) is resumed like a broken one.
        if (final || delivered === 0) return;
      } catch (err) {
        const cutByUs = attempt.signal.aborted && !options.signal?.aborted;
        if (!cutByUs && !isRetryable(err)) throw err;
        if (!cutByUs) {
          failures += 1;
          if (failures > this.policy.retries) throw err;
          await sleep(this.backoff(failures));
        }
      } finally {
        clearTimeout(timer);
      }
      options.onResume?.(last);
    }
  }

  /** Runs `send` with the deadline and the token, retrying retryable failures. */
  private async call<T>(
    send: (opts: CallOptions) => Promise<T>,
    token?: string,
    retries = this.policy.retries,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send({ headers: headers(token), timeoutMs: this.policy.deadlineMs });
      } catch (err) {
        if (!isRetryable(err) || attempt >= retries) throw err;
        await sleep(this.backoff(attempt + 1));
      }
    }
  }

  /** The pause before retry number `n` (1-based): doubling, capped, with jitter. */
  backoff(n: number): number {
    const base = Math.min(this.policy.maxBackoffMs, this.policy.backoffMs * 2 ** (n - 1));
    return base / 2 + Math.random() * (base / 2);
  }
}

/** The call headers of a seat (none for a spectator). */
export function headers(token?: string): Record<string, string> {
  return token === undefined ? {} : { [TOKEN_HEADER]: token };
}

/** True when a game status means the game has ended (finished, or aborted
 * before every seat's first decision). */
export function isFinished(status: GameStatus): boolean {
  return status === GameStatus.FINISHED || status === GameStatus.ABORTED;
}

/** True for the failure of an Apply made on a version the game has left. */
export function isStale(err: unknown): boolean {
  return errorCode(err) === Code.Aborted;
}

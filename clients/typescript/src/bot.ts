/**
 * The bot SDK: a policy chooses, a seat bot plays one seat of one game with it.
 *
 * A policy is given what a person in the seat sees at a decision (the seat's
 * legal actions, in the server's order, and, when it asks, the seat's View)
 * and returns the index of its choice. It never sees another seat's hand or a
 * deck's order: the service redacts both for the seat's token.
 *
 * The seat bot's contract (the same as the Python bots' of clients/bots):
 *
 * - it follows Watch with `includeLegal` and `skipOwnEvents` (its own
 *   decisions' outcomes come in Apply's replies): an event after which its seat must
 *   decide carries the seat's legal actions, so it chooses and Applies at once,
 *   with the event's version as `expectedVersion`;
 * - one Apply per decision: while the Apply reply says the seat must decide
 *   again, it chains on the reply's `nextActions`, with no Legal call; Legal is
 *   only a recovery (an event that came without actions, a stale version);
 * - Apply's request id is derived from seat and version, so a retried call
 *   (after a lost reply) is applied once; a policy that does not read the View
 *   asks Apply to leave it out (`omitView`);
 * - a stream that breaks (UNAVAILABLE: a connection closed at its maximum age,
 *   a draining service; RESOURCE_EXHAUSTED) is resumed after the last event
 *   it handled, after a pause; the bot stops when the game is finished or gone.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Code } from "@connectrpc/connect";
import { type GameClient, type LegalChoice, actionId, headers, isFinished } from "./client.js";
import { errorCode, isRetryable } from "./errors.js";

/**
 * Chooses one of a seat's legal actions. `A` is the game's LegalAction message
 * (ref, typed action, scoreAfter) and `V` its View, for a policy written for one
 * game; a policy for every game uses the defaults.
 */
export interface Policy<A extends LegalChoice = LegalChoice, V = unknown> {
  /** Fill `scoreAfter` of every action: the seat's total right after it. */
  readonly wantsPreview?: boolean;
  /** Pass the seat's View (costs a GetState when a decision starts). */
  readonly wantsView?: boolean;
  /** The index in `actions` of the choice; `view` is set only with `wantsView`. */
  choose(actions: A[], view: V | undefined, seat: number): number | Promise<number>;
}

/** What a seat bot did. */
export interface SeatResult {
  seat: number;
  /** Decisions applied. */
  decisions: number;
  /** Apply calls sent (one per decision, plus one per stale decision made again). */
  applies: number;
  /** Legal calls (recovery only). */
  legalCalls: number;
  /** Watch streams resumed after a break. */
  resumes: number;
  /** The game reached its end. */
  finished: boolean;
  /** The game was gone (expired or abandoned) or its stream ended early. */
  gone: boolean;
}

/** Options of a seat bot. */
export interface SeatBotOptions {
  /** Stops the bot. */
  signal?: AbortSignal;
  /** End each Watch stream after this many milliseconds and resume it, as a
   * server does at a connection's maximum age (tests exercise resuming with it). */
  reconnectAfterMs?: number;
}

/** A decision refused because the game moved on is made again this many times. */
const MAX_STALE_RETRIES = 50;

/** Plays `seat` of `gameId` with `policy` until the game ends. */
export class SeatBot {
  readonly result: SeatResult;
  /** The newest version this bot has seen (events older than it are history). */
  private known = 0n;

  constructor(
    readonly client: GameClient,
    readonly gameId: string,
    readonly seat: number,
    readonly token: string,
    readonly policy: Policy,
    readonly options: SeatBotOptions = {},
  ) {
    this.result = {
      seat,
      decisions: 0,
      applies: 0,
      legalCalls: 0,
      resumes: 0,
      finished: false,
      gone: false,
    };
  }

  /** Follows the game and decides whenever asked; resolves when the game is over. */
  async run(): Promise<SeatResult> {
    let last = 0n;
    let failures = 0;
    for (;;) {
      const attempt = new AbortController();
      const cut = this.options.reconnectAfterMs;
      const timer = cut === undefined ? undefined : setTimeout(() => attempt.abort(), cut);
      const outer = this.options.signal;
      try {
        const stream = this.client.rpc.watch(
          {
            gameId: this.gameId,
            fromVersion: last,
            includeLegal: true,
            // Its own decisions' outcomes come in Apply's replies.
            skipOwnEvents: true,
            withScorePreview: this.policy.wantsPreview ?? false,
          },
          {
            headers: headers(this.token),
            signal: outer ? AbortSignal.any([attempt.signal, outer]) : attempt.signal,
          },
        );
        for await (const { event, legal } of stream) {
          if (event === undefined || event.version <= last) continue;
          failures = 0;
          if (isFinished(event.status)) return this.done({ finished: true });
          if (event.version >= this.known && event.toAct.includes(this.seat)) {
            const offer = legal.length > 0 ? { version: event.version, actions: legal } : undefined;
            if (!(await this.playTurns(offer))) return this.done({ finished: true });
          }
          // Handled: a resumed stream starts after it. (A decision that failed
          // retryably is made again from the same event, with the same request id.)
          last = event.version;
        }
        // A stream ends by itself after the final event; without it the game expired.
        return this.done({ gone: true });
      } catch (err) {
        if (outer?.aborted) throw err;
        if (errorCode(err) === Code.NotFound) return this.done({ gone: true });
        const cutByUs = attempt.signal.aborted && errorCode(err) === Code.Canceled;
        if (!cutByUs) {
          if (!isRetryable(err)) throw err;
          failures += 1;
          if (failures > this.client.policy.retries) throw err;
          await sleep(this.client.backoff(failures));
        }
        this.result.resumes += 1;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private done(outcome: { finished?: boolean; gone?: boolean }): SeatResult {
    Object.assign(this.result, outcome);
    return this.result;
  }

  /** Decides while asked, from `offered` when given; false once the game is over. */
  private async playTurns(offered?: Offer): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_STALE_RETRIES; attempt++) {
      const outcome = await this.playTurnsOnce(offered ?? (await this.legal()));
      if (outcome !== "stale") return outcome;
      offered = undefined; // the game moved on: look again
    }
    return true;
  }

  /** The seat's legal actions now, by a Legal call (recovery only). */
  private async legal(): Promise<Offer> {
    this.result.legalCalls += 1;
    const reply = await this.client.legal(this.gameId, this.token, this.policy.wantsPreview);
    return { version: reply.version, actions: reply.actions };
  }

  private async playTurnsOnce({ version, actions }: Offer): Promise<boolean | "stale"> {
    if (version > this.known) this.known = version;
    const wantsView = this.policy.wantsView ?? false;
    let view: unknown;
    if (actions.length > 0 && wantsView) {
      view = (await this.client.getState(this.gameId, this.token)).view;
    }
    while (actions.length > 0) {
      const index = await this.policy.choose(actions, view, this.seat);
      const chosen = actions[index];
      if (chosen === undefined) {
        throw new Error(`the policy chose ${index} of ${actions.length} actions`);
      }
      this.result.applies += 1;
      let reply;
      try {
        reply = await this.client.apply(
          this.gameId,
          this.token,
          version,
          actionId(chosen),
          `bot-${this.seat}-${version}`,
          { omitView: !wantsView, withScorePreview: this.policy.wantsPreview ?? false },
        );
      } catch (err) {
        const code = errorCode(err);
        if (code === Code.Aborted) return "stale"; // another seat decided first
        if (code === Code.FailedPrecondition) return true; // no longer asked
        throw err;
      }
      this.result.decisions += 1;
      if (reply.version > this.known) this.known = reply.version;
      if (isFinished(reply.status)) return false;
      version = reply.version;
      actions = reply.nextActions;
      view = reply.view;
    }
    return true;
  }
}

/** A version and the seat's legal actions there. */
interface Offer {
  version: bigint;
  actions: LegalChoice[];
}

/** Plays each of `seats` (seat, token, policy) at once; one result per seat. */
export function playSeats(
  client: GameClient,
  gameId: string,
  seats: { seat: number; token: string; policy: Policy }[],
  options: SeatBotOptions = {},
): Promise<SeatResult[]> {
  return Promise.all(
    seats.map((s) => new SeatBot(client, gameId, s.seat, s.token, s.policy, options).run()),
  );
}

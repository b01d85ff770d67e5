/**
 * A player that plays a whole game with uniformly random legal decisions,
 * through nothing but the generic RPCs: NewGame, Legal, Apply (by action id),
 * GetState and Score.
 *
 * The seats asked to decide (`to_act`) may be several at once (simultaneous
 * decisions); they decide concurrently, as independent clients would. A
 * decision refused as stale (ABORTED: another seat's decision moved the game
 * on) is made again from a fresh Legal, which is what every client must do.
 */
import { type ApplyResult, type GameClient, actionId, isFinished, isStale } from "./client.js";
import { errorReason } from "./errors.js";
import { ErrorReason, type ScoreBoard } from "./gen/roost/common/v1/common_pb.js";

/** How a random game went. */
export interface GameResult {
  gameId: string;
  players: number;
  /** Decisions applied. */
  decisions: number;
  /** Decisions refused as stale and made again. */
  staleRetries: number;
  /** The game's version at the end (1 + decisions). */
  finalVersion: bigint;
  /** The final score board. */
  scoreboard: ScoreBoard;
}

/** A seeded uniform generator in [0, 1) (mulberry32), so a failing game can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays a new game of `players` seats to its end with random decisions. */
export async function playRandomGame(
  client: GameClient,
  players: number,
  seed: number,
  maxDecisions = 50_000,
): Promise<GameResult> {
  const random = seededRandom(seed);
  const game = await client.newGame(players, BigInt(seed));
  const tokens = new Map(game.credentials.map((c) => [c.seat, c.token]));
  const result = { decisions: 0, staleRetries: 0 };
  let toAct = game.toAct;
  let finished = false;

  /** One seat decides until it is no longer asked; the last Apply's result. */
  async function decide(seat: number): Promise<ApplyResult | undefined> {
    const token = tokens.get(seat)!;
    let last: ApplyResult | undefined;
    let legal = await client.legal(game.gameId, token);
    for (;;) {
      if (legal.actions.length === 0) return last;
      const pick = legal.actions[Math.floor(random() * legal.actions.length)];
      try {
        last = await client.apply(game.gameId, token, legal.version, actionId(pick));
      } catch (err) {
        if (isStale(err)) {
          result.staleRetries += 1;
          legal = await client.legal(game.gameId, token);
          continue;
        }
        if (errorReason(err) === ErrorReason.NOT_YOUR_TURN) return last;
        throw err;
      }
      result.decisions += 1;
      if (result.decisions > maxDecisions) throw new Error(`no end after ${maxDecisions} decisions`);
      // Apply hands back the seat's next legal actions when it must act again.
      legal = { version: last.version, actions: last.nextActions };
    }
  }

  while (!finished) {
    const results = await Promise.all(toAct.map(decide));
    const state = await client.getState(game.gameId);
    finished = isFinished(state.status);
    if (!finished && results.every((r) => r === undefined) && sameSeats(state.toAct, toAct)) {
      throw new Error(`seats ${toAct} are asked to act but have no legal action`);
    }
    toAct = state.toAct;
  }
  const score = await client.score(game.gameId);
  return {
    gameId: game.gameId,
    players,
    ...result,
    finalVersion: score.version,
    scoreboard: score.scoreboard!,
  };
}

function sameSeats(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((seat, i) => seat === b[i]);
}

/**
 * Typed clients of the game services and the matchmaker. The four game
 * services share one shape (the same eight RPCs, request and response fields
 * named alike); `GameClient` is that shape with each game's View, Action and
 * Catalogue left open, so the lobby and the game page are written once. The boards narrow the view to their own generated type.
 */
import { type Client, createClient } from "@connectrpc/connect";
import type { Message } from "@bufbuild/protobuf";
import type {
  ActionRef,
  Clock,
  CommonOptions,
  Event,
  GameStatus,
  ScoreBoard,
  Seat,
  SeatCredential,
} from "../gen/roost/common/v1/common_pb.js";
import type { GameRecord } from "../gen/roost/common/v1/record_pb.js";
import { game, MATCHMAKER } from "../registry.js";
import { transportFor } from "./transport.js";

/** A legal action of any game. */
export interface AnyLegalAction {
  ref?: ActionRef;
  action?: AnyAction;
  scoreAfter: number;
}

/** A game's Action message: one case of its `kind` oneof. */
export interface AnyAction extends Message {
  kind: { case: string | undefined; value?: unknown };
}

/** A game's View message. */
export type AnyView = Message;

/** The calls every game service answers (see protos/roost/<game>/v1/service.proto). */
export interface GameClient {
  newGame(
    req: { common: Partial<CommonOptions>; options?: unknown },
    opts?: CallOpts,
  ): Promise<{
    gameId: string;
    version: bigint;
    credentials: SeatCredential[];
    seats: Seat[];
    toAct: number[];
  }>;
  getState(
    req: { gameId: string },
    opts?: CallOpts,
  ): Promise<{
    gameId: string;
    version: bigint;
    status: GameStatus;
    toAct: number[];
    /** The caller's seat; -1 (or absent) for a spectator. */
    viewerSeat?: number;
    view?: AnyView;
    seats: Seat[];
    /** The clock (timed games only). */
    clock?: Clock;
  }>;
  legal(
    req: { gameId: string; withScorePreview?: boolean },
    opts?: CallOpts,
  ): Promise<{ version: bigint; actions: AnyLegalAction[] }>;
  apply(
    req: {
      gameId: string;
      expectedVersion: bigint;
      requestId: string;
      choice: { case: "actionId"; value: number };
    },
    opts?: CallOpts,
  ): Promise<{ version: bigint; status: GameStatus; toAct: number[]; view?: AnyView; event?: Event }>;
  score(req: { gameId: string }, opts?: CallOpts): Promise<{ version: bigint; scoreboard?: ScoreBoard }>;
  watch(
    req: { gameId: string; fromVersion: bigint; includeView: boolean; includeLegal?: boolean },
    opts?: CallOpts,
  ): AsyncIterable<{ event?: Event; view?: AnyView; legal: AnyLegalAction[] }>;
  getLog(
    req: { gameId: string; fromVersion?: bigint; limit?: number },
    opts?: CallOpts,
  ): Promise<{ entries: { event?: Event }[]; version: bigint; optionsJson: string; players: number }>;
  /** The game's record (docs/RECORDS.md): the public part while it runs, the whole record once it has ended. */
  getRecord(req: { gameId: string }, opts?: CallOpts): Promise<{ record?: GameRecord }>;
  resign(req: { gameId: string }, opts?: CallOpts): Promise<{ version: bigint; status: GameStatus; event?: Event }>;
  offerRematch(req: { gameId: string }, opts?: CallOpts): Promise<{ rematch?: RematchMessage }>;
  acceptRematch(req: { gameId: string }, opts?: CallOpts): Promise<{ rematch?: RematchMessage }>;
  getCatalogue(
    req: { ifVersion: string },
    opts?: CallOpts,
  ): Promise<{ version: string; notModified: boolean; catalogue?: Message }>;
}

/** A game's Rematch message (the same fields in every game). */
export interface RematchMessage {
  gameId: string;
  started: boolean;
  acceptedSeats: number[];
  awaitedSeats: number[];
  credential?: SeatCredential;
}

export interface CallOpts {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The client of a game service, by registry name. */
export function gameClient(name: string): GameClient {
  const entry = game(name);
  return createClient(entry.descriptor, transportFor(entry.name)) as unknown as GameClient;
}

/** The matchmaker's client. */
export function matchmakerClient(): Client<typeof MATCHMAKER.descriptor> {
  return createClient(MATCHMAKER.descriptor, transportFor(MATCHMAKER.name));
}

/** Call options that authenticate as a seat (none for a spectator). */
export function asSeat(token: string | undefined, signal?: AbortSignal): CallOpts {
  return { headers: token ? { "x-seat-token": token } : {}, signal };
}

/** A fresh idempotency key for Apply. */
export function requestId(): string {
  return crypto.randomUUID().replace(/-/g, "");
}

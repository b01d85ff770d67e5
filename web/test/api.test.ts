/**
 * The API layer's own logic: ErrorInfo read from a Connect error and said in
 * words, seats kept per game in localStorage, the catalogue cache, and Watch
 * resuming from the last version after the stream ends or fails.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { beforeEach, describe, expect, it } from "vitest";
import type { GameClient } from "../src/api/clients.js";
import { decodeError, explain, retryable } from "../src/api/errors.js";
import { forget, heldGame, heldGames, ownSeat, remember, touch } from "../src/api/seats.js";
import { watchGame } from "../src/api/watch.js";
import { ErrorInfoSchema } from "../src/gen/google/rpc/error_info_pb.js";
import { EventSchema, GameStatus } from "../src/gen/roost/common/v1/common_pb.js";

function roostError(code: Code, reason: string, metadata: Record<string, string> = {}): ConnectError {
  const info = create(ErrorInfoSchema, { reason, domain: "roost", metadata });
  return new ConnectError("refused", code, undefined, [{ desc: ErrorInfoSchema, value: info }]);
}

describe("errors", () => {
  it("reads the ErrorInfo reason and metadata", () => {
    const e = decodeError(roostError(Code.FailedPrecondition, "ERROR_REASON_STALE_VERSION"));
    expect(e.reason).toBe("ERROR_REASON_STALE_VERSION");
    expect(e.code).toBe(Code.FailedPrecondition);
  });

  it("reads it from the raw bytes a server sends too", () => {
    const bytes = toBinary(ErrorInfoSchema, create(ErrorInfoSchema, { reason: "ERROR_REASON_ILLEGAL_ACTION", metadata: { rule: "not enough food" } }));
    const err = new ConnectError("no", Code.InvalidArgument, undefined, [{ type: "google.rpc.ErrorInfo", value: bytes, debug: undefined } as never]);
    expect(explain(err)).toBe("That move is not allowed now. (not enough food)");
  });

  it("says stale and unknown choices in words and knows what to retry", () => {
    expect(explain(roostError(Code.FailedPrecondition, "ERROR_REASON_STALE_VERSION"))).toMatch(/choose again/);
    expect(explain(roostError(Code.InvalidArgument, "ERROR_REASON_UNKNOWN_ACTION"))).toMatch(/no longer on offer/);
    expect(retryable(roostError(Code.Unavailable, "ERROR_REASON_DRAINING"))).toBe(true);
    expect(retryable(roostError(Code.ResourceExhausted, "ERROR_REASON_OVERLOADED"))).toBe(true);
    expect(retryable(roostError(Code.ResourceExhausted, "ERROR_REASON_STORE_FULL"))).toBe(false);
    expect(retryable(roostError(Code.NotFound, "ERROR_REASON_GAME_NOT_FOUND"))).toBe(false);
  });
});

describe("seats", () => {
  beforeEach(() => localStorage.clear());
  it("keeps each game's seats and lists the most recently opened first", async () => {
    remember({ game: "wingspan", gameId: "a", seats: [{ seat: 0, token: "t0", player: "you" }, { seat: 1, token: "t1", player: "you" }], players: 2, createdMs: 1, openedMs: 1 });
    remember({ game: "skygarden", gameId: "b", seats: [{ seat: 0, token: "u0", player: "you" }], players: 1, createdMs: 2, openedMs: 2 });
    expect(heldGames().map((g) => g.gameId)).toEqual(["b", "a"]);
    touch("a", true);
    expect(heldGames().map((g) => g.gameId)).toEqual(["a", "b"]);
    expect(heldGame("a")!.finished).toBe(true);
    expect(ownSeat("a")!.token).toBe("t0");
    expect(ownSeat("a", 1)!.token).toBe("t1");
    forget("a");
    expect(heldGame("a")).toBeUndefined();
  });
});

function event(version: number, status = GameStatus.IN_PROGRESS) {
  return create(EventSchema, { version: BigInt(version), status, label: `move ${version}` });
}

describe("watch", () => {
  it("resumes after the stream ends or fails, from the last version seen, until the game ends", async () => {
    const asked: bigint[] = [];
    const script: (() => AsyncIterable<{ event: ReturnType<typeof event> }>)[] = [
      async function* () { yield { event: event(2) }; yield { event: event(3) }; },
      async function* () { yield { event: event(4) }; throw new ConnectError("max connection age", Code.Unavailable); },
      async function* () { yield { event: event(5, GameStatus.FINISHED) }; },
    ];
    const client = {
      watch(req: { fromVersion: bigint }) {
        asked.push(req.fromVersion);
        return script.shift()!();
      },
    } as unknown as GameClient;
    const statuses: string[] = [];
    const seen: bigint[] = [];
    for await (const item of watchGame(client, "g", undefined, 1n, new AbortController().signal, { sleep: async () => {}, onStatus: (s) => statuses.push(s) })) {
      seen.push(item.event.version);
    }
    expect(seen).toEqual([2n, 3n, 4n, 5n]);
    expect(asked).toEqual([1n, 2n, 3n]);
    expect(statuses).toEqual(["live", "reconnecting", "live", "reconnecting", "live"]);
  });

  it("says live when a resumed stream brings the last event again (nobody moved), and does not pass the repeat on", async () => {
    const asked: bigint[] = [];
    const script: (() => AsyncIterable<{ event: ReturnType<typeof event> }>)[] = [
      async function* () { yield { event: event(7) }; throw new ConnectError("restart", Code.Unavailable); },
      async function* () { yield { event: event(7) }; yield { event: event(8, GameStatus.FINISHED) }; },
    ];
    const client = {
      watch(req: { fromVersion: bigint }) {
        asked.push(req.fromVersion);
        return script.shift()!();
      },
    } as unknown as GameClient;
    const statuses: string[] = [];
    const seen: bigint[] = [];
    for await (const item of watchGame(client, "g", undefined, 6n, new AbortController().signal, { sleep: async () => {}, onStatus: (s) => { statuses.push(s); if (s === "live") seen.push(-1n); } })) {
      seen.push(item.event.version);
    }
    expect(asked).toEqual([6n, 6n]);
    expect(seen).toEqual([-1n, 7n, -1n, 8n]);
    expect(statuses).toEqual(["live", "reconnecting", "live"]);
  });

  it("asks for the view always and the legal actions only with a seat token, and passes them on", async () => {
    const asked: { includeView: boolean; includeLegal?: boolean; token?: string }[] = [];
    const legal = [{ ref: { id: 0, label: "Pass", kind: "pass" }, scoreAfter: 0 }];
    const client = {
      watch(req: { includeView: boolean; includeLegal?: boolean }, o?: { headers?: Record<string, string> }) {
        asked.push({ includeView: req.includeView, includeLegal: req.includeLegal, token: o?.headers?.["x-seat-token"] });
        return (async function* () {
          yield { event: event(2, GameStatus.FINISHED), legal };
        })();
      },
    } as unknown as GameClient;
    const got = [];
    for await (const item of watchGame(client, "g", "tok", 1n, new AbortController().signal)) got.push(item);
    for await (const item of watchGame(client, "g", undefined, 1n, new AbortController().signal)) got.push(item);
    expect(asked).toEqual([
      { includeView: true, includeLegal: true, token: "tok" },
      { includeView: true, includeLegal: false, token: undefined },
    ]);
    expect(got[0]!.legal).toEqual(legal);
  });

  it("gives up on errors retrying cannot fix", async () => {
    const client = {
      watch() {
        return (async function* () { throw roostError(Code.NotFound, "ERROR_REASON_GAME_NOT_FOUND"); })();
      },
    } as unknown as GameClient;
    await expect(async () => {
      for await (const _ of watchGame(client, "g", undefined, 0n, new AbortController().signal, { sleep: async () => {} })) void _;
    }).rejects.toThrow();
  });
});

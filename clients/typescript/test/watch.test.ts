/**
 * Watch: every event once, in version order, ending by itself after the final
 * event; resumed from the last version seen when its stream breaks; resumed
 * from any version of a finished game.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { GameClient, actionId, connectGame } from "../src/client.js";
import { connectUrl, grpcUrl } from "../src/config.js";
import { type Event, GameStatus } from "../src/gen/roost/common/v1/common_pb.js";
import { playRandomGame, seededRandom } from "../src/player.js";
import { createTransport } from "../src/transport.js";
import { TRANSPORT, UTL, clientFor, unreachable } from "./support.js";

/** Every event of a watch, until it ends by itself. */
async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The versions from..to, inclusive. */
function versions(from: bigint, to: bigint): bigint[] {
  const out: bigint[] = [];
  for (let v = from; v <= to; v++) out.push(v);
  return out;
}

/**
 * Plays a random game of three seats, one decision at a time, while a
 * spectator watches it from its creation (cutting its stream every
 * `reconnectAfterMs` when given, as a server does at a connection's maximum age).
 */
async function playWhileWatching(client: GameClient, reconnectAfterMs?: number) {
  const game = await client.newGame(3, 11n);
  let resumes = 0;
  const watched = collect(
    client.watch(game.gameId, { reconnectAfterMs, onResume: () => (resumes += 1) }),
  );
  const tokens = new Map(game.credentials.map((c) => [c.seat, c.token]));
  // Play the game that is being watched: one seat at a time, random picks.
  const random = seededRandom(11);
  let toAct = game.toAct;
  let version = game.version;
  while (toAct.length > 0) {
    const seat = toAct[0];
    const legal = await client.legal(game.gameId, tokens.get(seat)!);
    const pick = legal.actions[Math.floor(random() * legal.actions.length)];
    const applied = await client.apply(game.gameId, tokens.get(seat)!, legal.version, actionId(pick));
    toAct = applied.status === GameStatus.FINISHED ? [] : applied.toAct;
    version = applied.version;
    // Give a cut stream time to be resumed while the game goes on.
    if (reconnectAfterMs !== undefined && Number(version) % 10 === 0) {
      await new Promise((resolve) => setTimeout(resolve, reconnectAfterMs / 2));
    }
  }
  return { gameId: game.gameId, events: await watched, finalVersion: version, resumes };
}

describe(`Watch over ${TRANSPORT}`, { skip: unreachable(UTL) }, () => {
  const client = clientFor(UTL);

  it("delivers every version once, in order, and ends after the final event", async () => {
    const { events, finalVersion } = await playWhileWatching(client);
    assert.deepEqual(
      events.map((e) => e.version),
      versions(1n, finalVersion),
    );
    assert.equal(events[0].kind, "new_game");
    assert.equal(events.at(-1)!.status, GameStatus.FINISHED);
  });

  it("resumes from the last version seen when its stream is cut", async () => {
    const { events, finalVersion, resumes } = await playWhileWatching(client, 150);
    assert.ok(resumes >= 2, `the stream was cut and resumed (${resumes} times)`);
    assert.deepEqual(
      events.map((e) => e.version),
      versions(1n, finalVersion),
      "no event lost or repeated across the resumes",
    );
  });

  it("resumes from any version of a finished game, and ends at once from its last", async () => {
    const result = await playRandomGame(client, 2, 5);
    const last = result.finalVersion;
    const tail = await collect(client.watch(result.gameId, { fromVersion: last - 3n }));
    assert.deepEqual(
      tail.map((e) => e.version),
      versions(last - 2n, last),
    );
    assert.deepEqual(await collect(client.watch(result.gameId, { fromVersion: last })), []);
  });

  it("resumes after its stream fails with UNAVAILABLE, as at a connection's maximum age", async () => {
    let cuts = 0;
    // The first Watch stream fails after three events, as a server's aged
    // connection does once its grace period is over.
    const cutFirstWatch: Interceptor = (next) => async (request) => {
      const response = await next(request);
      if (!response.stream || request.method.name !== "Watch" || cuts > 0) return response;
      cuts += 1;
      return { ...response, message: failAfter(3, response.message) };
    };
    const url = TRANSPORT === "grpc" ? grpcUrl(UTL) : connectUrl(UTL)!;
    const watcher = new GameClient(connectGame(UTL, createTransport(TRANSPORT, url, [cutFirstWatch])));
    const result = await playRandomGame(client, 2, 9);
    let resumedFrom: bigint | undefined;
    const events = await collect(
      watcher.watch(result.gameId, { onResume: (version) => (resumedFrom = version) }),
    );
    assert.equal(cuts, 1);
    assert.equal(resumedFrom, 3n, "resumed from the last version delivered");
    assert.deepEqual(
      events.map((e) => e.version),
      versions(1n, result.finalVersion),
    );
  });
});

/** Yields `count` messages of `messages`, then fails as a cut connection does. */
async function* failAfter<T>(count: number, messages: AsyncIterable<T>): AsyncIterable<T> {
  let yielded = 0;
  for await (const message of messages) {
    yield message;
    yielded += 1;
    if (yielded === count) throw new ConnectError("max connection age", Code.Unavailable);
  }
}

// The worked example of docs/CLIENTS.md: one game of Under the Leaves, played
// to its end by two seats picking random legal actions while a spectator
// watches, with nothing but the generated client. (The doc includes this file
// as it is; a test runs it against the service.)
import { randomUUID } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import { GameStatus } from "./gen/roost/common/v1/common_pb.js";
import { UnderTheLeaves } from "./gen/roost/undertheleaves/v1/service_pb.js";

export async function example(baseUrl = "http://127.0.0.1:50054"): Promise<number[]> {
  // gRPC over HTTP/2; createConnectTransport / createGrpcWebTransport reach
  // the same service over its Connect endpoint.
  const client = createClient(UnderTheLeaves, createGrpcTransport({ baseUrl }));
  const deadline = { timeoutMs: 5_000 }; // every unary call gets a deadline

  // 1. Create the game: one secret token per seat, sent as x-seat-token.
  const game = await client.newGame({ common: { players: 2 } }, deadline);
  const seat = (n: number) => ({
    ...deadline,
    headers: { "x-seat-token": game.credentials.find((c) => c.seat === n)!.token },
  });

  // 2. A spectator watches from version 0 (everything), resuming after a break.
  const watched = (async () => {
    let last = 0n;
    for (;;) {
      try {
        for await (const { event } of client.watch({ gameId: game.gameId, fromVersion: last })) {
          last = event!.version;
          if (event!.status === GameStatus.FINISHED) return last;
        }
        return last; // the stream ends by itself only once the game is over
      } catch (err) {
        // A connection closed at its maximum age, a draining server: resume.
        if (ConnectError.from(err).code !== Code.Unavailable) throw err;
      }
    }
  })();

  // 3. Play: the seats in to_act decide; each Legal list belongs to a version.
  let toAct = game.toAct;
  while (toAct.length > 0) {
    for (const n of toAct) {
      const legal = await client.legal({ gameId: game.gameId }, seat(n));
      if (legal.actions.length === 0) continue; // no longer asked
      const pick = legal.actions[Math.floor(Math.random() * legal.actions.length)];
      const request = {
        gameId: game.gameId,
        expectedVersion: legal.version, // the version the decision was made on
        requestId: randomUUID(), // the same id on a retry: applied at most once
        choice: { case: "actionId" as const, value: pick.ref?.id ?? 0 },
      };
      try {
        const applied = await client.apply(request, seat(n));
        toAct = applied.status === GameStatus.FINISHED ? [] : applied.toAct;
      } catch (err) {
        const error = ConnectError.from(err);
        const reason = error.findDetails(ErrorInfoSchema)[0]?.reason;
        // Another seat moved the game on first: read Legal again and decide.
        if (reason !== "ERROR_REASON_STALE_VERSION") throw error;
      }
      break; // re-read to_act after every decision
    }
  }

  // 4. The final score board.
  const { scoreboard } = await client.score({ gameId: game.gameId }, deadline);
  console.log(`game ${game.gameId} over at version ${await watched}; winners`, scoreboard!.winners);
  return scoreboard!.seats.map((s) => s.total);
}

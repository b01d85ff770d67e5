/**
 * Random full games of every game at every player count of the registry,
 * through the generic client only, each ended and scored.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { playRandomGame } from "../src/player.js";
import { GAMES, TRANSPORT, clientFor, unreachable } from "./support.js";

describe(`full random games over ${TRANSPORT}`, { concurrency: true }, () => {
  for (const game of GAMES) {
    for (let players = game.minPlayers; players <= game.maxPlayers; players++) {
      it(`${game.title}, ${players} player(s)`, { skip: unreachable(game) }, async (t) => {
        const seed = 1000 * players + game.defaultPort;
        const result = await playRandomGame(clientFor(game), players, seed);
        const board = result.scoreboard;
        t.diagnostic(
          `${result.decisions} decisions, ${result.staleRetries} stale retries, winners ${board.winners}`,
        );
        assert.equal(board.final, true, "the score board is final");
        assert.equal(result.finalVersion, BigInt(1 + result.decisions), "one version per decision");
        assert.deepEqual(
          board.seats.map((s) => s.seat),
          [...Array(players).keys()],
          "one score per seat, in seat order",
        );
        for (const seat of board.seats) {
          assert.ok(seat.rank >= 1 && seat.rank <= players, `rank of seat ${seat.seat}`);
        }
        for (const winner of board.winners) {
          assert.equal(board.seats[winner].rank, 1, `winner ${winner} is ranked first`);
        }
        if (players === 1) {
          assert.ok(board.solo !== undefined, "a solo game reports its solo result");
        } else {
          assert.ok(board.winners.length >= 1, "a game of several seats has a winner");
        }
      });
    }
  }
});

/**
 * The bot SDK over the transport of ROOST_TS_TRANSPORT (the pytest wrapper
 * runs it over the Connect endpoint): the example policy of examples/bot.ts
 * plays full games against a random TypeScript bot, one Apply per decision,
 * with no Legal call, and resumes its Watch when streams are cut.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Cautious } from "../examples/bot.js";
import { type Policy, playSeats } from "../src/bot.js";
import type { GameClient } from "../src/client.js";
import { seededRandom } from "../src/player.js";
import { gameNamed } from "../src/registry.js";
import { TRANSPORT, clientFor, unreachable } from "./support.js";

/** Uniformly random among the legal actions, seeded. */
function randomPolicy(seed: number): Policy {
  const random = seededRandom(seed);
  return { choose: (actions) => Math.floor(random() * actions.length) };
}

/** A new game of two seats: the example policy in seat 0, a random bot in seat 1. */
async function playOneGame(client: GameClient, seed: number, reconnectAfterMs?: number) {
  const game = await client.newGame(2, BigInt(seed));
  const token = (seat: number) => game.credentials.find((c) => c.seat === seat)!.token;
  const results = await playSeats(
    client,
    game.gameId,
    [
      { seat: 0, token: token(0), policy: new Cautious() },
      { seat: 1, token: token(1), policy: randomPolicy(seed) },
    ],
    { reconnectAfterMs },
  );
  const score = await client.score(game.gameId);
  return { results, score };
}

describe(`the bot SDK over ${TRANSPORT}`, { concurrency: true }, () => {
  for (const name of ["undertheleaves", "wingspan"]) {
    const entry = gameNamed(name);
    const title = `the example bot plays ${entry.title} to its end, one Apply per decision`;
    it(title, { skip: unreachable(entry) }, async (t) => {
      const { results, score } = await playOneGame(clientFor(entry), 7);
      const decisions = results.reduce((n, r) => n + r.decisions, 0);
      t.diagnostic(`${decisions} decisions; totals ${score.scoreboard!.seats.map((s) => s.total)}`);
      assert.ok(results.every((r) => r.finished && !r.gone), "both bots saw the game end");
      assert.equal(score.scoreboard!.final, true);
      assert.equal(score.version, BigInt(1 + decisions), "one version per decision");
      for (const r of results) {
        assert.ok(r.decisions > 0, `seat ${r.seat} decided`);
        assert.equal(r.applies, r.decisions, `seat ${r.seat}: one Apply per decision`);
        assert.equal(r.legalCalls, 0, `seat ${r.seat}: its actions came with Watch and Apply`);
      }
    });
  }

  const utl = gameNamed("undertheleaves");
  const resumeTitle = "the bots resume their Watch when its streams are cut";
  it(resumeTitle, { skip: unreachable(utl) }, async () => {
    const { results, score } = await playOneGame(clientFor(utl), 8, 150);
    assert.ok(results.every((r) => r.finished), "both bots saw the game end");
    assert.equal(score.scoreboard!.final, true);
    assert.ok(results.some((r) => r.resumes > 0), "a stream was cut and resumed");
    const decisions = results.reduce((n, r) => n + r.decisions, 0);
    assert.equal(score.version, BigInt(1 + decisions), "no decision lost or applied twice");
  });
});

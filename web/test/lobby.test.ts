/**
 * The lobby: every game offered with its player counts, an options form
 * built from each game's Options message, a seat plan per player, the games
 * this browser holds listed to resume or spectate, and every control labelled;
 * tables with bots as private tables of the matchmaker, in the seat order and
 * with the bot kinds chosen.
 */
import { create } from "@bufbuild/protobuf";
import { createRouterTransport } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { heldGame, remember } from "../src/api/seats.js";
import { useTransport } from "../src/api/transport.js";
import {
  BotKind,
  type EnqueueRequest,
  Matchmaker,
  TicketSchema,
  TicketStatus,
} from "../src/gen/roost/matchmaking/v1/matchmaking_pb.js";
import { UnderTheLeaves } from "../src/gen/roost/undertheleaves/v1/service_pb.js";
import { kitOf } from "../src/games/index.js";
import { renderLobby } from "../src/lobby/lobby.js";
import { optionsFields, readOptions } from "../src/lobby/options.js";
import { browserPlayerId } from "../src/lobby/queue.js";
import { h } from "../src/dom.js";
import { GAMES } from "../src/registry.js";

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = '<div id="app"></div>';
});

let went: string[] = [];

function lobby(): HTMLElement {
  const root = document.getElementById("app")!;
  went = [];
  renderLobby(root, (hash) => went.push(hash));
  return root;
}

const tick = () => new Promise((r) => setTimeout(r, 0));
async function settle(): Promise<void> {
  for (let i = 0; i < 30; i++) await tick();
}

/**
 * A matchmaker and an Under the Leaves service in memory (Connect's router
 * transport: real request and response messages, no network). A private
 * table is seated by Enqueue itself, everyone where the table says; a queued
 * ticket is assigned through WatchTicket, the party in reverse order (the
 * matchmaker draws the seat order) and bots in the rest. NewGame hands out a
 * token per seat.
 */
function fakeServices(): { enqueued: EnqueueRequest[]; newGames: number; watched: number } {
  const seen = { enqueued: [] as EnqueueRequest[], newGames: 0, watched: 0 };
  useTransport(
    "matchmaking",
    createRouterTransport(({ service }) =>
      service(Matchmaker, {
        enqueue(req) {
          seen.enqueued.push(req);
          if (!req.table) return { ticket: { ticketId: "t1", status: TicketStatus.QUEUED, heartbeatIntervalMs: 60000 }, created: true };
          const seats = req.table.seats.flatMap((s, seat) => (s.occupant.case === "playerId" ? [{ playerId: s.occupant.value, seat, token: `tok-${s.occupant.value}` }] : []));
          const others = req.table.seats.flatMap((s, seat) => (s.occupant.case === "bot" ? [{ seat, playerId: `bot:${BotKind[s.occupant.value]!.toLowerCase()}`, name: s.name, bot: true }] : []));
          return {
            ticket: { ticketId: "t1", status: TicketStatus.ASSIGNED, table: req.table, assignment: { game: req.game, gameId: "mm-game", players: req.table.seats.length, seats, others } },
            created: true,
          };
        },
        async *watchTicket() {
          seen.watched++;
          const req = seen.enqueued[0]!;
          const n = req.playerCounts[0]!;
          const seats = [...req.party].reverse().map((p, i) => ({ playerId: p.playerId, seat: n - 1 - i, token: `tok-${p.playerId}` }));
          yield { ticket: create(TicketSchema, { ticketId: "t1", status: TicketStatus.QUEUED }) };
          yield {
            ticket: create(TicketSchema, {
              ticketId: "t1",
              status: TicketStatus.ASSIGNED,
              assignment: { game: req.game, gameId: "mm-game", players: n, seats },
            }),
          };
        },
        heartbeat() {
          return { status: TicketStatus.QUEUED };
        },
        cancel() {
          return {};
        },
      }),
    ),
  );
  useTransport(
    "undertheleaves",
    createRouterTransport(({ service }) =>
      service(UnderTheLeaves, {
        newGame(req) {
          seen.newGames++;
          const n = req.common?.players ?? 0;
          return { gameId: "ng-game", version: 1n, credentials: Array.from({ length: n }, (_, seat) => ({ seat, token: `tok-${seat}` })) };
        },
      }),
    ),
  );
  return seen;
}

/** Fill the new-game form: Under the Leaves, one plan per seat. */
async function startTable(root: HTMLElement, plans: string[]): Promise<void> {
  const select = root.querySelector<HTMLSelectElement>("#ng-game")!;
  select.value = "undertheleaves";
  select.dispatchEvent(new Event("change"));
  const players = root.querySelector<HTMLInputElement>("#ng-players")!;
  players.value = String(plans.length);
  players.dispatchEvent(new Event("change"));
  root.querySelectorAll<HTMLSelectElement>("select[data-seat]").forEach((s, i) => (s.value = plans[i]!));
  root.querySelector<HTMLFormElement>("form.new-game")!.dispatchEvent(new Event("submit", { cancelable: true }));
  await settle();
}

afterEach(() => {
  useTransport("matchmaking", undefined);
  useTransport("undertheleaves", undefined);
});

describe("lobby", () => {
  it("offers every game and a seat plan per player, defaulting to you against bots", () => {
    const root = lobby();
    const select = root.querySelector<HTMLSelectElement>("#ng-game")!;
    expect([...select.options].map((o) => o.value)).toEqual(GAMES.map((g) => g.name));
    select.value = "wingspan";
    select.dispatchEvent(new Event("change"));
    const players = root.querySelector<HTMLInputElement>("#ng-players")!;
    expect([players.min, players.max]).toEqual(["2", "5"]);
    players.value = "4";
    players.dispatchEvent(new Event("change"));
    const plans = [...root.querySelectorAll<HTMLSelectElement>("select[data-seat]")].map((s) => s.value);
    expect(plans).toEqual(["you", "greedy", "greedy", "greedy"]);
  });

  it("labels every control", () => {
    const root = lobby();
    for (const el of root.querySelectorAll("input, select")) {
      const labelled = el.getAttribute("aria-label") || (el.id && root.querySelector(`label[for="${el.id}"]`));
      expect(labelled, el.outerHTML).toBeTruthy();
    }
  });

  it("lists the games this browser holds, to resume or to watch", () => {
    remember({ game: "undertheleaves", gameId: "g1", seats: [{ seat: 0, token: "t", player: "you" }], players: 2, createdMs: 1, openedMs: 1 });
    const root = lobby();
    const links = [...root.querySelectorAll<HTMLAnchorElement>(".held-games a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual(["#/play/undertheleaves/g1", "#/watch/undertheleaves/g1"]);
  });
});

describe("starting a table", () => {
  it("with bots is a private table of the matchmaker: you in the seat chosen, seated at once", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["you", "greedy"]);
    expect(seen.newGames).toBe(0);
    expect(seen.enqueued).toHaveLength(1);
    const req = seen.enqueued[0]!;
    expect(req.game).toBe("undertheleaves");
    expect(req.playerCounts).toEqual([2]);
    expect(req.party).toHaveLength(1);
    const me = req.party[0]!.playerId;
    expect(me).toMatch(/^web-/);
    expect(req.botFill).toBeUndefined();
    expect(req.table!.seats.map((s) => s.occupant)).toEqual([
      { case: "playerId", value: me },
      { case: "bot", value: BotKind.GREEDY },
    ]);
    expect(req.table!.seats[1]!.name).toBe("Bot 2");
    expect(seen.watched).toBe(0); // Enqueue answered with the assignment
    expect(heldGame("mm-game")!.seats).toEqual([{ seat: 0, token: `tok-${me}`, player: "you" }]);
    expect(went).toEqual(["#/play/undertheleaves/mm-game"]);
  });

  it("with bots and another person seats both people and each bot kind where chosen, and shares the other's join link", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["greedy", "you", "open", "random"]);
    const req = seen.enqueued[0]!;
    expect(req.party).toHaveLength(2);
    const [me, guest] = req.party.map((p) => p.playerId);
    expect(guest).toMatch(/^guest-/);
    expect(req.table!.seats.map((s) => s.occupant)).toEqual([
      { case: "bot", value: BotKind.GREEDY },
      { case: "playerId", value: me },
      { case: "playerId", value: guest },
      { case: "bot", value: BotKind.RANDOM },
    ]);
    const link = root.querySelector<HTMLInputElement>("input[aria-label^='join link']")!;
    expect(link.value).toContain(`#/join/undertheleaves/mm-game/2/${encodeURIComponent(`tok-${guest}`)}`);
    expect(heldGame("mm-game")!.seats).toEqual([{ seat: 1, token: `tok-${me}`, player: "you" }]);
    expect(went).toEqual([]);
  });

  it("with people only creates the game directly, in the seat order chosen", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["open", "you"]);
    expect(seen.enqueued).toHaveLength(0);
    expect(seen.newGames).toBe(1);
    expect(heldGame("ng-game")!.seats).toEqual([{ seat: 1, token: "tok-1", player: "you" }]);
    expect(root.querySelector<HTMLInputElement>("input[aria-label='join link for seat 1']")!.value).toContain("/ng-game/0/tok-0");
  });

  it("with bots only is a game to watch", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["greedy", "random"]);
    const req = seen.enqueued[0]!;
    expect(req.party).toEqual([]);
    expect(req.table!.seats.map((s) => s.occupant.value)).toEqual([BotKind.GREEDY, BotKind.RANDOM]);
    expect(heldGame("mm-game")!.seats).toEqual([]);
    expect(went).toEqual(["#/watch/undertheleaves/mm-game"]);
  });
});

describe("matchmaking form", () => {
  it("queues the party with bot fill and follows the ticket to its seats", async () => {
    const seen = fakeServices();
    const root = lobby();
    root.querySelector<HTMLSelectElement>("#q-game")!.value = "undertheleaves";
    root.querySelector<HTMLFormElement>("form.queue")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await settle();
    const req = seen.enqueued[0]!;
    expect(req.table).toBeUndefined();
    expect(req.botFill).toMatchObject({ enabled: true, afterMs: 0, kind: BotKind.GREEDY });
    expect(seen.watched).toBe(1);
    // The party is who this page is: its player id (the guest's, once the page has one).
    expect(req.party.map((p) => p.playerId)).toEqual([browserPlayerId()]);
    expect(heldGame("mm-game")!.seats).toEqual([{ seat: 1, token: `tok-${browserPlayerId()}`, player: "you" }]);
    expect(went).toEqual(["#/play/undertheleaves/mm-game"]);
  });
});

describe("options form", () => {
  it("is built from the Options message and reads back proto JSON with only what was set", () => {
    const form = h("div", {}, optionsFields(kitOf("undertheleaves").schemas.options));
    expect(form.querySelectorAll("[data-kind]").length).toBe(kitOf("undertheleaves").schemas.options.fields.length);
    expect(readOptions(form)).toEqual({});
    form.querySelector<HTMLSelectElement>('[name="allowFlip"]')!.value = "false";
    form.querySelector<HTMLInputElement>('[name="dwellerCards"]')!.value = "leaf_runner, puddle_diver";
    expect(readOptions(form)).toEqual({ allowFlip: false, dwellerCards: ["leaf_runner", "puddle_diver"] });
  });

  it("is empty for a game without options", () => {
    expect(optionsFields(kitOf("skygarden").schemas.options)).toEqual([]);
  });
});

/**
 * The lobby: every game offered with its player counts, an options form
 * built from each game's Options message, a seat plan per player, the games
 * this browser holds listed to resume or spectate, and every control labelled.
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
 * transport: real request and response messages, no network). The
 * matchmaker seats the party in reverse order (it draws the seat order) and
 * fills the rest with bots; NewGame hands out a token per seat.
 */
function fakeServices(): { enqueued: EnqueueRequest[]; newGames: number } {
  const seen = { enqueued: [] as EnqueueRequest[], newGames: 0 };
  useTransport(
    "matchmaking",
    createRouterTransport(({ service }) =>
      service(Matchmaker, {
        enqueue(req) {
          seen.enqueued.push(req);
          return { ticket: { ticketId: "t1", status: TicketStatus.QUEUED, heartbeatIntervalMs: 60000 }, created: true };
        },
        async *watchTicket() {
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
  it("with bots goes through the matchmaker: the people as one party, bots at once, on the server", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["you", "greedy"]);
    expect(seen.newGames).toBe(0);
    expect(seen.enqueued).toHaveLength(1);
    const req = seen.enqueued[0]!;
    expect(req.game).toBe("undertheleaves");
    expect(req.playerCounts).toEqual([2]);
    expect(req.party).toHaveLength(1);
    expect(req.party[0]!.playerId).toMatch(/^web-/);
    expect(req.botFill).toMatchObject({ enabled: true, afterMs: 1, kind: BotKind.GREEDY });
    // The matchmaker put this browser's person in seat 1; the page plays that seat.
    expect(heldGame("mm-game")!.seats).toEqual([{ seat: 1, token: `tok-${req.party[0]!.playerId}`, player: "you" }]);
    expect(went).toEqual(["#/play/undertheleaves/mm-game"]);
  });

  it("with bots and another person queues both people and shares the other's join link", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["you", "open", "random"]);
    const req = seen.enqueued[0]!;
    expect(req.party).toHaveLength(2);
    expect(req.botFill?.kind).toBe(BotKind.RANDOM);
    const guest = req.party[1]!;
    const link = root.querySelector<HTMLInputElement>("input[aria-label^='join link']")!;
    expect(link.value).toContain(`#/join/undertheleaves/mm-game/`);
    expect(link.value).toContain(encodeURIComponent(`tok-${guest.playerId}`));
    expect(heldGame("mm-game")!.seats).toHaveLength(1);
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

  it("refuses a table of bots only", async () => {
    const seen = fakeServices();
    const root = lobby();
    await startTable(root, ["greedy", "random"]);
    expect(seen.enqueued).toHaveLength(0);
    expect(root.querySelector("form.new-game .notice")!.textContent).toMatch(/at least one person/);
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

/**
 * The live game page against a scripted game service built from recorded
 * positions (a fake transport: the client's calls answered in memory). It
 * reads the game once, then lives on one Watch stream that brings the view
 * and the seat's legal actions with each event: no GetState, Legal or Score
 * per event, Score once at the end. It sends a clicked choice with the
 * version its legal list belongs to, explains a stale choice and reads the
 * legal actions again, resumes the stream from the last version, and a
 * spectator's stream asks for no legal actions.
 */
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AnyLegalAction, AnyView, GameClient } from "../src/api/clients.js";
import { remember } from "../src/api/seats.js";
import { GameController } from "../src/game/controller.js";
import { kitOf } from "../src/games/index.js";
import { ErrorInfoSchema } from "../src/gen/google/rpc/error_info_pb.js";
import { type Event, EventSchema, GameStatus } from "../src/gen/roost/common/v1/common_pb.js";
import type { GameName } from "../src/registry.js";
import { raw } from "./fixtures.js";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");
const opts = { ignoreUnknownFields: true };

interface StreamItem {
  event: Event;
  view?: AnyView;
  legal: AnyLegalAction[];
}

interface Scripted {
  client: GameClient;
  applied: { expectedVersion: bigint; actionId: number; requestId: string; token?: string }[];
  calls: string[];
  watches: { fromVersion: bigint; includeView: boolean; includeLegal: boolean; token?: string }[];
  failNextApply?: ConnectError;
  /** Errors the next Apply calls fail with, one each. */
  failApplies: ConnectError[];
  /** GetState fails with this, when set. */
  failGetState?: ConnectError;
  /** The position whose score board Score answers (default: the opening one). */
  scoreAt?: string;
  /** Send an item on the open stream; "end" closes it (as the server's connection age does). */
  push(item: StreamItem | "end"): void;
  /** A recorded position as the event that led to it, with its view and (for seat 0) legal actions. */
  itemOf(position: string, status?: GameStatus): StreamItem;
}

/** A game service answering from one recorded position; Watch replays its current event, then what the test pushes. */
function scripted(game: GameName, position: string): Scripted {
  const kit = kitOf(game);
  const catalogue = JSON.parse(readFileSync(join(FIXTURES, game, "catalogue.json"), "utf8")) as JsonValue;
  const decode = (p: string) => {
    const rec = raw(game, p);
    return {
      state: fromJson(kit.schemas.getStateResponse, rec.state as JsonValue, opts) as any,
      legal: fromJson(kit.schemas.legalResponse, rec.legal as JsonValue, opts) as any,
      score: fromJson(kit.schemas.scoreResponse, rec.score as JsonValue, opts) as any,
    };
  };
  const here = decode(position);
  let queue: (StreamItem | "end")[] = [];
  let wake: (() => void) | undefined;
  const out: Scripted = {
    applied: [],
    failApplies: [],
    calls: [],
    watches: [],
    client: undefined as never,
    push(item) {
      queue.push(item);
      wake?.();
    },
    itemOf(p, status) {
      const d = decode(p);
      return {
        event: create(EventSchema, { version: d.state.version, seat: 1, kind: "move", label: `move ${d.state.version}`, status: status ?? d.state.status, toAct: d.state.toAct }),
        view: d.state.view,
        legal: d.legal.actions ?? [],
      };
    },
  };
  const client = {
    async getState() {
      out.calls.push("getState");
      if (out.failGetState) throw out.failGetState;
      return here.state;
    },
    async legal() {
      out.calls.push("legal");
      return here.legal;
    },
    async score() {
      out.calls.push("score");
      return out.scoreAt ? decode(out.scoreAt).score : here.score;
    },
    async getLog() {
      out.calls.push("getLog");
      return { entries: [], version: 0n, optionsJson: "", players: 0 };
    },
    async getCatalogue() {
      return fromJson(kit.schemas.catalogueResponse, catalogue, opts);
    },
    async apply(req: { expectedVersion: bigint; requestId: string; choice: { value: number } }, o?: { headers?: Record<string, string> }) {
      out.calls.push("apply");
      out.applied.push({ expectedVersion: req.expectedVersion, actionId: req.choice.value, requestId: req.requestId, token: o?.headers?.["x-seat-token"] });
      const failure = out.failApplies.shift();
      if (failure) throw failure;
      if (out.failNextApply) {
        const err = out.failNextApply;
        out.failNextApply = undefined;
        throw err;
      }
      return { version: req.expectedVersion + 1n, status: GameStatus.IN_PROGRESS, toAct: [] };
    },
    watch(req: { fromVersion: bigint; includeView: boolean; includeLegal?: boolean }, o?: { headers?: Record<string, string>; signal?: AbortSignal }) {
      out.calls.push("watch");
      out.watches.push({ fromVersion: req.fromVersion, includeView: req.includeView, includeLegal: req.includeLegal ?? false, token: o?.headers?.["x-seat-token"] });
      const current = out.itemOf(position);
      return (async function* () {
        if (req.fromVersion < current.event.version) yield { ...current, legal: req.includeLegal ? current.legal : [] };
        while (!o?.signal?.aborted) {
          const next = queue.shift();
          if (next === "end") return;
          if (next) {
            yield { ...next, legal: req.includeLegal ? next.legal : [] };
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            o?.signal?.addEventListener("abort", () => resolve());
          });
        }
      })();
    },
  };
  queue = [];
  out.client = client as unknown as GameClient;
  return out;
}

const tick = () => new Promise((r) => setTimeout(r, 0));
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await tick();
}

let page: GameController | undefined;
beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = '<div id="app"></div>';
});
afterEach(() => page?.stop());

function open(game: GameName, position: string, spectate = false, sleep: (ms: number) => Promise<void> = async () => {}, prepare?: (s: Scripted) => void): Scripted {
  const s = scripted(game, position);
  prepare?.(s);
  const state = raw(game, position).state as { gameId: string };
  remember({ game, gameId: state.gameId, seats: [{ seat: 0, token: "tok-0", player: "you" }], players: 2, createdMs: 0, openedMs: 0 });
  page = new GameController(document.getElementById("app")!, game, state.gameId, spectate, s.client, { sleep });
  void page.start();
  return s;
}

const count = (s: Scripted, call: string) => s.calls.filter((c) => c === call).length;

describe("game page", () => {
  it("draws the board from the stream and sends a clicked choice with its version, request id and seat token", async () => {
    const s = open("wingspan", "2p-mid");
    await settle();
    expect(document.querySelector(".board-wingspan")).not.toBeNull();
    // The legal actions came with the stream's first event (the current one, replayed).
    expect(count(s, "legal")).toBe(0);
    const state = raw("wingspan", "2p-mid").state as { version: string };
    expect(s.watches[0]).toMatchObject({ fromVersion: BigInt(state.version) - 1n, includeView: true, includeLegal: true, token: "tok-0" });
    const target = document.querySelector<HTMLElement>("[data-target].target")!;
    expect(target).not.toBeNull();
    target.click();
    await settle();
    const legal = raw("wingspan", "2p-mid").legal as { version: string };
    expect(s.applied).toHaveLength(1);
    expect(s.applied[0]!.expectedVersion).toBe(BigInt(legal.version));
    expect(s.applied[0]!.token).toBe("tok-0");
    expect(s.applied[0]!.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("lives on one stream: no GetState, Legal or Score per event, Score once at the end", async () => {
    const s = open("undertheleaves", "2p-start");
    await settle();
    const before = [...s.calls];
    s.push(s.itemOf("2p-mid"));
    await settle();
    expect(page!.state.version).toBe(s.itemOf("2p-mid").event.version);
    expect(document.querySelector(".board-undertheleaves")).not.toBeNull();
    s.push(s.itemOf("2p-wide"));
    await settle();
    expect(page!.state.version).toBe(s.itemOf("2p-wide").event.version);
    expect(page!.state.chooser?.choices.length).toBe((raw("undertheleaves", "2p-wide").legal as { actions: unknown[] }).actions.length);
    expect(page!.state.choiceVersion).toBe(s.itemOf("2p-wide").event.version);
    expect(s.calls.slice(before.length)).toEqual([]);
    expect(count(s, "score")).toBe(0);
    s.scoreAt = "2p-end";
    s.push(s.itemOf("2p-end", GameStatus.FINISHED));
    await settle();
    expect(count(s, "score")).toBe(1);
    expect(count(s, "getState")).toBe(1);
    expect(count(s, "legal")).toBe(0);
    expect(page!.state.finished).toBe(true);
    expect(page!.state.chooser).toBeUndefined();
    expect(document.querySelector(".scoreboard.final")).not.toBeNull();
  });

  it("resumes the stream one version before the last seen when it ends (that event again shows it live)", async () => {
    const s = open("skygarden", "2p-start");
    await settle();
    const mid = s.itemOf("2p-mid");
    s.push(mid);
    s.push("end");
    await settle();
    expect(s.watches.length).toBe(2);
    expect(s.watches[1]!.fromVersion).toBe(mid.event.version - 1n);
    expect(count(s, "getState")).toBe(1);
  });

  it("says a stale choice in words and reads the legal actions again, once", async () => {
    const s = open("birdscaping", "2p-wide");
    await settle();
    s.failNextApply = new ConnectError("stale", Code.FailedPrecondition, undefined, [
      { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "ERROR_REASON_STALE_VERSION" }) },
    ]);
    const draw = [...document.querySelectorAll<HTMLButtonElement>(".chooser button.choice")].find((b) => b.textContent === "Draw card")!;
    draw.click();
    await settle();
    // "Draw card" is a single choice: sent at once, refused as stale.
    expect(s.applied.length).toBe(1);
    expect(document.querySelector(".notice")!.textContent).toMatch(/Someone moved before your choice arrived/);
    expect(count(s, "legal")).toBe(1);
    expect(count(s, "getState")).toBe(1);
    expect(document.querySelectorAll(".chooser button.choice").length).toBeGreaterThan(0);
  });

  it("keeps sending a move while the storage is away, saying it is not sent yet, and sends it once with one request id", async () => {
    const notices: string[] = [];
    const s = open("birdscaping", "2p-wide", false, async () => {
      notices.push(document.querySelector(".notice")!.textContent ?? "");
      notices.push(document.querySelector(".chooser")!.textContent ?? "");
    });
    await settle();
    const away = () =>
      new ConnectError("store", Code.Unavailable, undefined, [{ desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "ERROR_REASON_STORE_UNAVAILABLE" }) }]);
    // More failures than any fixed number of retries: the page keeps going while the choice is current.
    s.failApplies.push(away(), away(), away(), away(), away(), away());
    [...document.querySelectorAll<HTMLButtonElement>(".chooser button.choice")].find((b) => b.textContent === "Draw card")!.click();
    await settle();
    expect(s.applied).toHaveLength(7);
    expect(new Set(s.applied.map((a) => a.requestId)).size).toBe(1);
    expect(notices[0]).toMatch(/^Not sent yet: .+ The server cannot reach its storage/);
    expect(notices[1]).toMatch(/^Sending your move/);
    expect(page!.state.pending).toBeUndefined();
    expect(document.querySelector(".notice")!.textContent).toBe("");
  });

  it("says live only once the stream brought an event", async () => {
    open("wingspan", "2p-mid");
    expect(document.querySelector(".connection")!.textContent).toBe("connecting…");
    await settle();
    expect(document.querySelector(".connection")!.textContent).toBe("live");
  });

  it("says plainly that live updates stopped and how to go on when the game cannot be followed", async () => {
    open("wingspan", "2p-mid", false, async () => {}, (s) => {
      s.failGetState = new ConnectError("gone", Code.NotFound, undefined, [{ desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "ERROR_REASON_GAME_NOT_FOUND" }) }]);
    });
    await settle();
    expect(document.querySelector(".connection")!.textContent).toBe("not connected");
    expect(document.querySelector(".notice")!.textContent).toMatch(/does not exist.*Live updates have stopped: reload the page/);
    expect(document.querySelector("button.reload")).not.toBeNull();
  });

  it("guides a multi-step choice one step at a time before sending it", async () => {
    const s = open("undertheleaves", "2p-wide");
    await settle();
    document.querySelector<HTMLElement>(".spot.target")!.click();
    await settle();
    expect(s.applied).toHaveLength(0);
    for (let i = 0; i < 3 && s.applied.length === 0; i++) {
      document.querySelector<HTMLButtonElement>(".chooser button.choice")!.click();
      await settle();
    }
    expect(s.applied).toHaveLength(1);
  });

  it("keeps keyboard users in the chooser between the steps of a choice", async () => {
    open("undertheleaves", "2p-wide");
    await settle();
    const spot = document.querySelector<HTMLElement>(".spot.target")!;
    spot.focus();
    spot.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    await settle();
    expect(document.activeElement?.matches(".chooser button.choice")).toBe(true);
    expect(document.activeElement?.textContent).toMatch(/^rotated/);
  });

  it("as a spectator streams without a token or legal actions and shows no choices", async () => {
    const s = open("skygarden", "2p-spectator", true);
    await settle();
    expect(document.querySelector(".board-skygarden")).not.toBeNull();
    expect(s.watches[0]).toMatchObject({ includeLegal: false, token: undefined });
    expect(s.calls).not.toContain("legal");
    expect(document.querySelector(".chooser")).toBeNull();
    expect(document.body.textContent).toContain("spectator");
  });
});

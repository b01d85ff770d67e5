/**
 * The live game page against a scripted game service built from a recorded
 * position: it loads and draws the board, sends a clicked choice with the
 * version it was decided on and a request id, explains a stale choice in
 * words and reloads, and a spectator page never reads legal actions.
 */
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GameClient } from "../src/api/clients.js";
import { remember } from "../src/api/seats.js";
import { GameController } from "../src/game/controller.js";
import { kitOf } from "../src/games/index.js";
import { ErrorInfoSchema } from "../src/gen/google/rpc/error_info_pb.js";
import type { GameName } from "../src/registry.js";
import { raw } from "./fixtures.js";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

interface Scripted {
  client: GameClient;
  applied: { expectedVersion: bigint; actionId: number; requestId: string; token?: string }[];
  calls: string[];
  failNextApply?: ConnectError;
}

/** A game service answering from one recorded position (Watch stays open and silent). */
function scripted(game: GameName, position: string): Scripted {
  const kit = kitOf(game);
  const rec = raw(game, position);
  const catalogue = JSON.parse(readFileSync(join(FIXTURES, game, "catalogue.json"), "utf8")) as JsonValue;
  const opts = { ignoreUnknownFields: true };
  const out: Scripted = { applied: [], calls: [], client: undefined as never };
  const client = {
    async getState() {
      out.calls.push("getState");
      return fromJson(kit.schemas.getStateResponse, rec.state as JsonValue, opts);
    },
    async legal() {
      out.calls.push("legal");
      return fromJson(kit.schemas.legalResponse, rec.legal as JsonValue, opts);
    },
    async score() {
      return fromJson(kit.schemas.scoreResponse, rec.score as JsonValue, opts);
    },
    async getLog() {
      return { entries: [], version: 0n, optionsJson: "", players: 0 };
    },
    async getCatalogue() {
      return fromJson(kit.schemas.catalogueResponse, catalogue, opts);
    },
    async apply(req: { expectedVersion: bigint; requestId: string; choice: { value: number } }, o?: { headers?: Record<string, string> }) {
      out.calls.push("apply");
      out.applied.push({ expectedVersion: req.expectedVersion, actionId: req.choice.value, requestId: req.requestId, token: o?.headers?.["x-seat-token"] });
      if (out.failNextApply) {
        const err = out.failNextApply;
        out.failNextApply = undefined;
        throw err;
      }
      return { version: req.expectedVersion + 1n, status: 1, toAct: [] };
    },
    watch(_req: unknown, o?: { signal?: AbortSignal }) {
      return (async function* () {
        await new Promise<void>((resolve) => o?.signal?.addEventListener("abort", () => resolve()));
      })();
    },
  };
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

function open(game: GameName, position: string, spectate = false): Scripted {
  const s = scripted(game, position);
  const state = raw(game, position).state as { gameId: string };
  remember({ game, gameId: state.gameId, seats: [{ seat: 0, token: "tok-0", player: "you" }], players: 2, createdMs: 0, openedMs: 0 });
  page = new GameController(document.getElementById("app")!, game, state.gameId, spectate, s.client);
  void page.start();
  return s;
}

describe("game page", () => {
  it("draws the board and sends a clicked choice with its version, request id and seat token", async () => {
    const s = open("wingspan", "2p-mid");
    await settle();
    expect(document.querySelector(".board-wingspan")).not.toBeNull();
    const target = document.querySelector<HTMLElement>("[data-target].target")!;
    expect(target).not.toBeNull();
    target.click();
    await settle();
    const legal = raw("wingspan", "2p-mid").legal as { version: string; actions: { ref: { id?: number }; action: unknown }[] };
    expect(s.applied).toHaveLength(1);
    expect(s.applied[0]!.expectedVersion).toBe(BigInt(legal.version));
    expect(s.applied[0]!.token).toBe("tok-0");
    expect(s.applied[0]!.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("says a stale choice in words and reads the state again", async () => {
    const s = open("birdscaping", "2p-wide");
    await settle();
    s.failNextApply = new ConnectError("stale", Code.FailedPrecondition, undefined, [
      { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: "ERROR_REASON_STALE_VERSION" }) },
    ]);
    const before = s.calls.filter((c) => c === "getState").length;
    const draw = [...document.querySelectorAll<HTMLButtonElement>(".chooser button.choice")].find((b) => b.textContent === "Draw card")!;
    draw.click();
    await settle();
    // "Draw card" is a single choice: sent at once, refused as stale.
    expect(s.applied.length).toBeGreaterThanOrEqual(1);
    expect(document.querySelector(".notice")!.textContent).toMatch(/Someone moved before your choice arrived/);
    expect(s.calls.filter((c) => c === "getState").length).toBeGreaterThan(before);
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

  it("as a spectator reads no legal actions and shows no choices", async () => {
    const s = open("skygarden", "2p-spectator", true);
    await settle();
    expect(document.querySelector(".board-skygarden")).not.toBeNull();
    expect(s.calls).not.toContain("legal");
    expect(document.querySelector(".chooser")).toBeNull();
    expect(document.body.textContent).toContain("spectator");
  });
});

/**
 * Replays (src/replay/): the address `#/replay/<game>/<id>?seat=N&v=K` read
 * and written back, stepping clamped to the record's versions, the record's
 * download name and canonical JSON (docs/RECORDS.md, "Canonical JSON": the
 * text `roost export GAME_ID` writes), and the replay page stepping through a
 * record, jumping to a move and drawing the final board with the game's board.
 */
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { GameClient } from "../src/api/clients.js";
import { GameEnding, GameStatus } from "../src/gen/roost/common/v1/common_pb.js";
import { GameRecordSchema } from "../src/gen/roost/common/v1/record_pb.js";
import { kitOf } from "../src/games/index.js";
import { clampVersion, parseReplayHash, recordFileName, replayHash, step } from "../src/replay/address.js";
import { canonicalRecordJson, pythonJson } from "../src/replay/canonical.js";
import { downloadButton } from "../src/replay/download.js";
import { ReplayPage } from "../src/replay/page.js";
import { raw } from "./fixtures.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

describe("replay address", () => {
  it("reads game, id, seat and version", () => {
    expect(parseReplayHash("#/replay/wingspan/abc123?seat=1&v=7")).toEqual({ game: "wingspan", gameId: "abc123", seat: 1, version: 7 });
  });
  it("defaults to the spectator at the last version", () => {
    expect(parseReplayHash("#/replay/skygarden/g1")).toEqual({ game: "skygarden", gameId: "g1", seat: -1, version: undefined });
    expect(parseReplayHash("#/replay/skygarden/g1?seat=x&v=0")).toEqual({ game: "skygarden", gameId: "g1", seat: -1, version: undefined });
  });
  it("is not a replay without game and id", () => {
    expect(parseReplayHash("#/play/wingspan/abc")).toBeUndefined();
    expect(parseReplayHash("#/replay/wingspan")).toBeUndefined();
    expect(parseReplayHash("")).toBeUndefined();
  });
  it("writes a link that reads back the same", () => {
    const address = { game: "undertheleaves", gameId: "g 1/x", seat: 0, version: 12 };
    expect(replayHash(address)).toBe("#/replay/undertheleaves/g%201%2Fx?seat=0&v=12");
    expect(parseReplayHash(replayHash(address))).toEqual(address);
    expect(replayHash({ game: "wingspan", gameId: "g", seat: -1 })).toBe("#/replay/wingspan/g?seat=-1");
  });
});

describe("stepping", () => {
  it("clamps a version into 1..last", () => {
    expect(clampVersion(undefined, 9)).toBe(9);
    expect(clampVersion(0, 9)).toBe(1);
    expect(clampVersion(40, 9)).toBe(9);
    expect(clampVersion(4, 9)).toBe(4);
  });
  it("steps back and forward, never past either end", () => {
    expect(step(1, -1, 5)).toBe(1);
    expect(step(1, 1, 5)).toBe(2);
    expect(step(5, 1, 5)).toBe(5);
    expect(step(3, -1, 5)).toBe(2);
  });
});

describe("download", () => {
  it("names the file <game>-<game id>.json", () => {
    expect(recordFileName("wingspan", "0f3a9c")).toBe("wingspan-0f3a9c.json");
    expect(recordFileName("skygarden", "../x y")).toBe("skygarden-.._x_y.json");
  });
  it("writes JSON as Python's json.dumps(sort_keys=True) does", () => {
    expect(pythonJson({ b: [1, 2], a: { x: "é", y: true }, c: [] })).toBe('{"a": {"x": "é", "y": true}, "b": [1, 2], "c": []}');
  });
  it("writes a record as roost export does (canonical JSON)", () => {
    const record = create(GameRecordSchema, {
      formatVersion: 1,
      game: "undertheleaves",
      gameId: "g1",
      players: 2,
      seed: 1234n,
      optionsJson: "{}",
      timeControl: { moveSeconds: 30 },
      seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bot" }],
      decisions: [
        { version: 1n, seat: -1, kind: "new_game", argsJson: "[]", status: GameStatus.IN_PROGRESS, toAct: [0] },
        { version: 2n, seat: 0, kind: "place", argsJson: '[["tile",3]]', label: "place tile 3", timeMs: 5n, status: GameStatus.FINISHED },
      ],
      status: GameStatus.FINISHED,
      ending: GameEnding.NORMAL,
      complete: true,
    });
    expect(canonicalRecordJson(record)).toBe(GOLDEN);
  });
});

describe("download button", () => {
  it("fetches GetRecord and saves its canonical JSON as <game>-<game id>.json", async () => {
    const record = create(GameRecordSchema, { game: "wingspan", gameId: "abc", players: 2, complete: true });
    const client = { getRecord: async () => ({ record }) } as unknown as GameClient;
    const saved: { name: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    const blobs: Blob[] = [];
    const create_ = vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      blobs.push(b as Blob);
      return "blob:record";
    });
    const box = downloadButton("wingspan", "abc", client);
    document.body.append(box);
    box.querySelector("button")!.click();
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
    expect(saved).toEqual([{ name: "wingspan-abc.json", href: "blob:record" }]);
    expect(await blobs[0]!.text()).toBe(canonicalRecordJson(record));
    expect(box.textContent).toContain("record saved");
    click.mockRestore();
    create_.mockRestore();
  });
});

/** The record above through clients/cli/records.py's to_json (Python protobuf), plus the newline export adds. */
const GOLDEN = "{\"complete\": true, \"decisions\": [{\"args_json\": \"[]\", \"kind\": \"new_game\", \"seat\": -1, \"status\": \"GAME_STATUS_IN_PROGRESS\", \"to_act\": [0], \"version\": \"1\"}, {\"args_json\": \"[[\\\"tile\\\",3]]\", \"kind\": \"place\", \"label\": \"place tile 3\", \"seat\": 0, \"status\": \"GAME_STATUS_FINISHED\", \"time_ms\": \"5\", \"version\": \"2\"}], \"ending\": \"GAME_ENDING_NORMAL\", \"format_version\": 1, \"game\": \"undertheleaves\", \"game_id\": \"g1\", \"options_json\": \"{}\", \"players\": 2, \"seats\": [{\"name\": \"Ann\", \"seat\": 0}, {\"name\": \"Bot\", \"seat\": 1}], \"seed\": \"1234\", \"status\": \"GAME_STATUS_FINISHED\", \"time_control\": {\"move_seconds\": 30.0}}\n";

describe("replay page", () => {
  beforeEach(() => {
    localStorage.clear();
    document.body.innerHTML = '<div id="app"></div>';
    history.replaceState(null, "", "/");
  });

  function service(): GameClient {
    const kit = kitOf("undertheleaves");
    const opts = { ignoreUnknownFields: true };
    const end = raw("undertheleaves", "2p-end");
    const state = fromJson(kit.schemas.getStateResponse, end.state as JsonValue, opts) as any;
    const catalogue = JSON.parse(readFileSync(join(FIXTURES, "undertheleaves", "catalogue.json"), "utf8")) as JsonValue;
    const record = create(GameRecordSchema, {
      game: "undertheleaves",
      gameId: "g1",
      players: 2,
      complete: true,
      status: GameStatus.FINISHED,
      decisions: [
        { version: 1n, seat: -1, kind: "new_game", toAct: [0] },
        { version: 2n, seat: 0, kind: "place", label: "first move", toAct: [1] },
        { version: 3n, seat: 1, kind: "place", label: "second move", toAct: [] },
      ],
    });
    return {
      async getRecord() {
        return { record };
      },
      async getState() {
        return state;
      },
      async getCatalogue() {
        return fromJson(kit.schemas.catalogueResponse, catalogue, opts);
      },
    } as unknown as GameClient;
  }

  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
  };

  it("steps through every decision, jumps to one, and draws the board at the end", async () => {
    const root = document.getElementById("app")!;
    const page = new ReplayPage(root, { game: "undertheleaves", gameId: "g1", seat: -1, version: 1 }, service());
    await page.start();
    await settle();
    const position = () => root.querySelector(".replay-position")!.textContent;
    const current = () => root.querySelector('.replay-jump[aria-current="step"]')!.textContent;
    expect(position()).toBe("Move 1 of 3");
    expect(current()).toBe("the game is set up");
    expect(root.querySelector(".replay-no-board")).not.toBeNull();
    root.querySelector<HTMLButtonElement>(".replay-forward")!.click();
    expect(position()).toBe("Move 2 of 3");
    expect(root.querySelector(".replay-decision")!.textContent).toContain("first move");
    expect(location.hash).toBe("#/replay/undertheleaves/g1?seat=-1&v=2");
    root.querySelector<HTMLButtonElement>(".replay-back")!.click();
    expect(position()).toBe("Move 1 of 3");
    expect(root.querySelector<HTMLButtonElement>(".replay-back")!.disabled).toBe(true);
    root.querySelector<HTMLButtonElement>('.replay-jump[data-version="3"]')!.click();
    expect(position()).toBe("Move 3 of 3");
    expect(current()).toContain("second move");
    expect(root.querySelector(".replay-no-board")).toBeNull();
    expect(root.querySelector(".board")).not.toBeNull();
    expect(root.querySelector<HTMLButtonElement>(".replay-forward")!.disabled).toBe(true);
    expect(root.querySelector<HTMLAnchorElement>(".replay-share")!.href).toContain("#/replay/undertheleaves/g1?seat=-1&v=3");
  });
});

/** Recorded positions for the tests, read from test/fixtures/<game>/. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonValue } from "@bufbuild/protobuf";
import type { GameModel } from "../src/game/model.js";
import { modelFromRecording, type RecordedPosition } from "../src/game/recorded.js";
import type { GameName } from "../src/registry.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

function read(path: string): JsonValue {
  return JSON.parse(readFileSync(path, "utf8")) as JsonValue;
}

/** Names of a game's recorded positions ("2p-mid", ...). */
export function positions(game: GameName): string[] {
  return readdirSync(join(ROOT, game))
    .filter((f) => f.endsWith(".json") && f !== "catalogue.json")
    .map((f) => f.replace(/\.json$/, ""))
    .sort();
}

/** A recorded position as the page's model. */
export function recorded(game: GameName, position: string): GameModel {
  return modelFromRecording(
    game,
    read(join(ROOT, game, `${position}.json`)) as unknown as RecordedPosition,
    read(join(ROOT, game, "catalogue.json")),
  );
}

/** The raw JSON of a position. */
export function raw(game: GameName, position: string): Record<string, unknown> {
  return read(join(ROOT, game, `${position}.json`)) as Record<string, unknown>;
}

/** The app's table of services equals the registry protos/roost/games.toml. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GAMES, MATCHMAKER } from "../src/registry.js";

/** The [[games]] tables of games.toml, read with a tiny parser (flat key = value lines). */
function registry(): Record<string, string | number>[] {
  const text = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../../protos/roost/games.toml"), "utf8");
  const tables: Record<string, string | number>[] = [];
  let current: Record<string, string | number> | undefined;
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t.startsWith("[")) {
      current = {};
      current["#table"] = t;
      tables.push(current);
    } else if (current && /^\w+\s*=/.test(t)) {
      const [, key, value] = /^(\w+)\s*=\s*(.*)$/.exec(t)!;
      current[key!] = value!.startsWith('"') ? JSON.parse(value!) : Number(value);
    }
  }
  return tables;
}

describe("registry", () => {
  it("lists the same games, services, ports and player counts as games.toml", () => {
    const games = registry().filter((t) => t["#table"] === "[[games]]");
    expect(
      GAMES.map((g) => [g.name, g.title, g.service.split(".").pop(), g.defaultPort, g.minPlayers, g.maxPlayers, g.note]),
    ).toEqual(games.map((g) => [g.name, g.title, g.service, g.default_port, g.min_players, g.max_players, g.note]));
    for (const g of GAMES) {
      expect(g.descriptor.typeName).toBe(g.service);
      expect(g.service).toBe(`roost.${g.name}.v1.${g.service.split(".").pop()}`);
    }
  });

  it("names the matchmaker as games.toml does", () => {
    const mm = registry().find((t) => t["#table"] === "[matchmaker]")!;
    expect(MATCHMAKER.name).toBe(mm.name);
    expect(MATCHMAKER.defaultPort).toBe(mm.default_port);
    expect(MATCHMAKER.descriptor.typeName).toBe(`roost.matchmaking.v1.${mm.service}`);
  });
});

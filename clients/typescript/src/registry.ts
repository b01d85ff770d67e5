/**
 * The registry of Roost services, read from protos/roost/games.toml: each
 * game's name (its proto package is roost.<name>.v1), proto service, title,
 * default port and player counts. It is part of the API contract, so this
 * client reads the same file the services and the Python clients read.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "smol-toml";

/** One game service of the registry. */
export interface GameEntry {
  /** Short name, e.g. "skygarden"; the proto package is roost.<name>.v1. */
  readonly name: string;
  /** Display title, e.g. "Sky Garden". */
  readonly title: string;
  /** Proto service name, e.g. "SkyGarden". */
  readonly service: string;
  /** Full proto service name, e.g. "roost.skygarden.v1.SkyGarden". */
  readonly typeName: string;
  /** Default gRPC port. */
  readonly defaultPort: number;
  /** Fewest seats a game can have. */
  readonly minPlayers: number;
  /** Most seats a game can have. */
  readonly maxPlayers: number;
}

/** Where the registry lives in this repository. */
export const REGISTRY_PATH = fileURLToPath(
  new URL("../../../protos/roost/games.toml", import.meta.url),
);

interface RawGame {
  name: string;
  title: string;
  service: string;
  default_port: number;
  min_players: number;
  max_players: number;
}

/** Every game of the registry at `path`, in registry order. */
export function loadGames(path: string = REGISTRY_PATH): GameEntry[] {
  const raw = parse(readFileSync(path, "utf8")) as unknown as { games: RawGame[] };
  return raw.games.map((g) => ({
    name: g.name,
    title: g.title,
    service: g.service,
    typeName: `roost.${g.name}.v1.${g.service}`,
    defaultPort: g.default_port,
    minPlayers: g.min_players,
    maxPlayers: g.max_players,
  }));
}

/** The game called `name`; throws when the registry has none. */
export function gameNamed(name: string, path: string = REGISTRY_PATH): GameEntry {
  const game = loadGames(path).find((g) => g.name === name);
  if (game === undefined) throw new Error(`no game ${JSON.stringify(name)} in ${path}`);
  return game;
}

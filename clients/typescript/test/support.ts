/** Shared pieces of the tests: the registry, clients from the environment, skips. */
import { connectUrl, clientFor, transportFromEnv } from "../src/config.js";
import { type GameEntry, gameNamed, loadGames } from "../src/registry.js";

export const TRANSPORT = transportFromEnv();
export const GAMES = loadGames();

/** A skip reason when the game cannot be reached over TRANSPORT, else false. */
export function unreachable(entry: GameEntry): string | false {
  if (TRANSPORT === "grpc" || connectUrl(entry) !== undefined) return false;
  return `no Connect endpoint for ${entry.name} (CONNECT_ADDR_${entry.name.toUpperCase()})`;
}

/** The game the single-game tests use: 2 to 4 seats, turns one seat at a time. */
export const UTL = gameNamed("undertheleaves");

export { clientFor };

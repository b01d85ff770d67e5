/**
 * Where the services are and how to reach them, from the environment:
 *
 * - `ROOST_TS_TRANSPORT`: grpc (default), connect or grpc-web;
 * - `GAME_ADDR_<NAME>` (as for the `roost` CLI): a game's gRPC address,
 *   host:port or a URL; default 127.0.0.1 and the registry's port;
 * - `CONNECT_ADDR_<NAME>`: a game's Connect / gRPC-Web endpoint (same forms),
 *   used by the connect and grpc-web transports; there is no default.
 */
import { GameClient, connectGame } from "./client.js";
import type { GameEntry } from "./registry.js";
import { createTransport, transportKind, type TransportKind } from "./transport.js";

type Env = Record<string, string | undefined>;

/** The protocol named by ROOST_TS_TRANSPORT (grpc when unset). */
export function transportFromEnv(env: Env = process.env): TransportKind {
  return transportKind(env.ROOST_TS_TRANSPORT || "grpc");
}

/** "host:port" or a URL, as a base URL. */
function asUrl(address: string): string {
  return /^https?:\/\//.test(address) ? address : `http://${address}`;
}

/** The game's gRPC base URL. */
export function grpcUrl(entry: GameEntry, env: Env = process.env): string {
  return asUrl(env[`GAME_ADDR_${entry.name.toUpperCase()}`] || `127.0.0.1:${entry.defaultPort}`);
}

/** The game's Connect / gRPC-Web base URL, or undefined when none is configured. */
export function connectUrl(entry: GameEntry, env: Env = process.env): string | undefined {
  const address = env[`CONNECT_ADDR_${entry.name.toUpperCase()}`];
  return address ? asUrl(address) : undefined;
}

/** The base URL `kind` reaches the game at, or undefined when none is configured. */
export function serviceUrl(
  entry: GameEntry,
  kind: TransportKind,
  env: Env = process.env,
): string | undefined {
  return kind === "grpc" ? grpcUrl(entry, env) : connectUrl(entry, env);
}

/** A client of the game over `kind`; throws when no address is configured for it. */
export function clientFor(
  entry: GameEntry,
  kind: TransportKind = transportFromEnv(),
  env: Env = process.env,
): GameClient {
  const url = serviceUrl(entry, kind, env);
  if (url === undefined) {
    throw new Error(`no ${kind} address for ${entry.name}: set CONNECT_ADDR_${entry.name.toUpperCase()}`);
  }
  return new GameClient(connectGame(entry, createTransport(kind, url)));
}

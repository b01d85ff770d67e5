/**
 * A replay's address and its stepping, as pure functions (unit-tested):
 *
 *   #/replay/<game>/<game id>?seat=N&v=K
 *
 * `seat` is the seat whose view is shown (-1 or absent: the spectator's), `v`
 * the game version the replay stands at (absent: the last one). A version is
 * always clamped into 1..last, the versions a record holds (creation is 1).
 */

export interface ReplayAddress {
  game: string;
  gameId: string;
  /** The seat whose view is shown; -1 for the spectator. */
  seat: number;
  /** The version shown; undefined for the last one. */
  version?: number;
}

/** Read a replay address from a location hash; undefined when it is not one. */
export function parseReplayHash(hash: string): ReplayAddress | undefined {
  const [path, query = ""] = hash.replace(/^#/, "").split("?", 2);
  const [, page, game, gameId] = (path ?? "").split("/");
  if (page !== "replay" || !game || !gameId) return undefined;
  const params = new URLSearchParams(query);
  const seat = wholeNumber(params.get("seat"));
  const version = wholeNumber(params.get("v"));
  return {
    game,
    gameId: decodeURIComponent(gameId),
    seat: seat === undefined ? -1 : seat,
    version: version !== undefined && version >= 1 ? version : undefined,
  };
}

function wholeNumber(text: string | null): number | undefined {
  if (text === null || !/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The location hash of a replay (the link to share). */
export function replayHash(address: ReplayAddress): string {
  const params = new URLSearchParams();
  params.set("seat", String(address.seat < 0 ? -1 : address.seat));
  if (address.version !== undefined) params.set("v", String(address.version));
  return `#/replay/${address.game}/${encodeURIComponent(address.gameId)}?${params.toString()}`;
}

/** `version` clamped into 1..last (the last one when undefined). */
export function clampVersion(version: number | undefined, last: number): number {
  if (last < 1) return 1;
  if (version === undefined || !Number.isFinite(version)) return last;
  return Math.min(Math.max(Math.trunc(version), 1), last);
}

/** One step from `version` (`delta` -1 back, +1 forward), staying in 1..last. */
export function step(version: number, delta: number, last: number): number {
  return clampVersion(version + delta, last);
}

/** The file name a downloaded record is saved as: `<game>-<game id>.json` (unsafe characters as `_`). */
export function recordFileName(game: string, gameId: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, "_");
  return `${safe(game)}-${safe(gameId)}.json`;
}

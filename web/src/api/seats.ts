/**
 * The seats this browser holds, kept in localStorage so a reload (or a later
 * visit) resumes them: one record per game id with the seat tokens of the
 * people who play from this browser, and when it was last opened.
 */
import type { GameName } from "../registry.js";

export interface HeldSeat {
  seat: number;
  token: string;
  /** A person plays it from this browser (records of older versions may say otherwise; they are ignored). */
  player: "you";
}

export interface HeldGame {
  game: GameName;
  gameId: string;
  seats: HeldSeat[];
  players: number;
  createdMs: number;
  openedMs: number;
  finished?: boolean;
}

const KEY = "roost.games.v1";

function load(): Record<string, HeldGame> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<string, HeldGame>;
  } catch {
    return {};
  }
}

function save(all: Record<string, HeldGame>): void {
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** Every game this browser takes part in, most recently opened first. */
export function heldGames(): HeldGame[] {
  return Object.values(load()).sort((a, b) => b.openedMs - a.openedMs);
}

/** The record of one game, if this browser holds a seat in it. */
export function heldGame(gameId: string): HeldGame | undefined {
  return load()[gameId];
}

/** Remember (or update) a game. */
export function remember(game: HeldGame): void {
  const all = load();
  all[game.gameId] = game;
  save(all);
}

/** Mark a game opened now, or finished. */
export function touch(gameId: string, finished = false): void {
  const all = load();
  const held = all[gameId];
  if (!held) return;
  held.openedMs = Date.now();
  held.finished = held.finished || finished;
  save(all);
}

/** Forget a game (its tokens are lost for good). */
export function forget(gameId: string): void {
  const all = load();
  delete all[gameId];
  save(all);
}

/** The token of the seat a person plays here (the first "you" seat). */
export function ownSeat(gameId: string, seat?: number): HeldSeat | undefined {
  const held = load()[gameId];
  if (!held) return undefined;
  return held.seats.find((s) => (seat === undefined ? s.player === "you" : s.seat === seat));
}

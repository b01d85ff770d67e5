/**
 * What the game page shows, as one plain value: the game, the seat this page
 * plays (or none for a spectator), the latest view and version, whose turn it
 * is, the legal choices, the running or final score and a short move log.
 * The live controller and fixture mode both fill it; render.ts draws it.
 */
import type { AnyView } from "../api/clients.js";
import type { Clock, Event, ScoreBoard, Seat } from "../gen/roost/common/v1/common_pb.js";
import type { ChooserState } from "../choose/panel.js";
import type { GameName } from "../registry.js";
import type { Message } from "@bufbuild/protobuf";

export interface GameModel {
  game: GameName;
  gameId: string;
  seats: Seat[];
  /** The seat a person plays here; -1 for a spectator. */
  viewerSeat: number;
  version: bigint;
  finished: boolean;
  toAct: number[];
  view?: AnyView;
  catalogue?: Message;
  /** Present when this seat has a decision to make. */
  chooser?: ChooserState;
  /** The version the chooser's action ids belong to: Apply's expected_version. */
  choiceVersion?: bigint;
  score?: ScoreBoard;
  /** The game's clock as the latest event brought it (timed games only). */
  clock?: Clock;
  /** When `clock` arrived, in this browser's milliseconds (the countdown's start). */
  clockAt?: number;
  log: Event[];
  /** The label of a move being sent (until the server has it): shown, so a move is never unsent in silence. */
  pending?: string;
  /** A sentence about the last failed call (illegal or stale choice, lost connection). */
  notice?: string;
  /** "connecting" until the first event, "live" while the stream brings events, "offline" once it gave up. */
  connection: "connecting" | "live" | "reconnecting" | "offline" | "fixture";
}

/** Keep the last `keep` events of a log, without duplicates by version. */
export function appendLog(log: Event[], event: Event, keep = 30): Event[] {
  if (log.some((e) => e.version === event.version)) return log;
  return [...log, event].slice(-keep);
}

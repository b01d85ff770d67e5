/**
 * How a game ends, on the game page: the Resign button while the game runs,
 * the Rematch button once it is over, and the line saying how it ended when
 * not by its rules ("You resigned", "Ada ran out of time", "Aborted").
 *
 * The buttons show only on a page that plays a seat live (the controller hands
 * `LifecycleActions`); a spectator or a recorded position (fixture mode) has
 * none. Rematch is one call, OfferRematch (an offer is the seat's acceptance):
 * pressed again it asks again, so it also tells whether the others accepted.
 * A started rematch links to its game page; this browser holds its new seat.
 */
import type { ScoreBoard, Seat } from "../gen/roost/common/v1/common_pb.js";
import { h } from "../dom.js";
import { seatName } from "../boards/kit.js";
import type { GameModel } from "./model.js";

/** ScoreBoard.ending values (roost.common.v1.GameEnding). */
export const ENDING = { NORMAL: 1, RESIGNED: 2, TIMEOUT: 3, ABORTED: 4, NO_PROGRESS: 5, DECISION_CAP: 6 } as const;

/** What the page knows of this game's rematch (OfferRematch's reply). */
export interface RematchState {
  gameId: string;
  started: boolean;
  awaitedSeats: number[];
}

/** The calls behind the buttons (the live controller's). */
export interface LifecycleActions {
  resign(): void;
  rematch(): void;
}

function names(seats: Seat[], list: number[], viewerSeat: number): string {
  return list.map((s) => (s === viewerSeat ? "you" : seatName(seats, s))).join(", ");
}

/** The sentence of an ending that is not by the rules ("" for a normal one). */
export function endingText(score: ScoreBoard, seats: Seat[], viewerSeat: number): string {
  const left = score.leftSeats;
  const who = (s: number) => (s === viewerSeat ? "You" : seatName(seats, s));
  const others = left.length ? ` Left: ${names(seats, left, viewerSeat)}.` : "";
  switch (score.ending) {
    case ENDING.RESIGNED:
      return left.length ? `${left.map((s) => `${who(s)} resigned`).join(". ")}.` : "The game ended by resignation.";
    case ENDING.TIMEOUT:
      return left.length ? `${left.map((s) => `${who(s)} ran out of time`).join(". ")}.` : "The game ended on time.";
    case ENDING.ABORTED:
      return "Aborted: not every seat made its first decision (unrated).";
    case ENDING.NO_PROGRESS:
      return `The game ended: no progress for too long.${others}`;
    case ENDING.DECISION_CAP:
      return `The game ended at its cap of decisions.${others}`;
    default:
      return left.length ? `Left: ${names(seats, left, viewerSeat)}.` : "";
  }
}

/** The ending line of a game that is over (false when it ended by its rules and nobody left). */
export function renderEnding(model: GameModel): HTMLElement | false {
  if (!model.finished || !model.score) return false;
  const text = endingText(model.score, model.seats, model.viewerSeat);
  return text ? h("p", { class: "ending", role: "status" }, text) : false;
}

function rematchLine(model: GameModel, rematch: RematchState): HTMLElement {
  if (rematch.started) {
    return h("span", { class: "rematch-state" }, "The rematch has started: ", h("a", { href: `#/play/${model.game}/${rematch.gameId}` }, "play it"));
  }
  const awaited = names(model.seats, rematch.awaitedSeats, model.viewerSeat);
  return h("span", { class: "rematch-state" }, `Rematch offered; waiting for ${awaited}.`);
}

/** The Resign / Rematch controls of a seat's live page (false for spectators and fixtures). */
export function renderLifecycleControls(model: GameModel, actions: LifecycleActions | undefined, rematch?: RematchState): HTMLElement | false {
  if (!actions || model.viewerSeat < 0) return false;
  if (!model.finished) {
    return h(
      "p",
      { class: "lifecycle" },
      h("button", { type: "button", class: "resign", onclick: () => actions.resign() }, "Resign"),
    );
  }
  return h(
    "p",
    { class: "lifecycle" },
    rematch?.started
      ? false
      : h("button", { type: "button", class: "rematch", onclick: () => actions.rematch() }, rematch ? "Ask again" : "Rematch"),
    rematch && !rematch.started ? " " : false,
    rematch ? rematchLine(model, rematch) : false,
  );
}

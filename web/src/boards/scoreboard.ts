/**
 * The score board every game shares: one column per seat, one row per score
 * category in score-sheet order, the totals, ranks and winners, and the solo
 * outcome (against the AI or the score targets). Used mid-game for the
 * running score and at the end for the final one.
 */
import { h } from "../dom.js";
import type { ScoreBoard, Seat, SeatScore, SoloResult } from "../gen/roost/common/v1/common_pb.js";
import { seatName } from "./kit.js";

function words(name: string): string {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The typed solo result: the AI's score (games with an AI opponent), the
 * score targets and the highest reached (games with targets), and the
 * outcome: won or lost at the end, ahead or not yet mid-game.
 */
function soloResult(solo: SoloResult, final: boolean): HTMLElement {
  const outcome = final ? (solo.won ? "won" : "lost") : solo.won ? "winning so far" : "not winning yet";
  return h(
    "dl",
    { class: "solo-result", "aria-label": "Solo result" },
    solo.opponentScore !== undefined && [h("dt", {}, "The AI's score"), h("dd", { class: "solo-opponent" }, String(solo.opponentScore))],
    solo.targets.length > 0 && [
      h("dt", {}, "Score targets"),
      h("dd", { class: "solo-targets" }, solo.targets.join(" / ")),
      h("dt", {}, "Highest target reached"),
      h("dd", { class: "solo-reached" }, solo.targetReached ? String(solo.targetReached) : "none"),
    ],
    h("dt", {}, "Solo game"),
    h("dd", { class: "solo-outcome" }, outcome),
  );
}

/**
 * The result in one sentence, from the viewer's side: "You won", "You
 * tied for first with Bo", "Bo won; you came 2nd"; a spectator reads "Bo
 * won"; a solo player "You won" or "You lost" against the AI or targets.
 */
export function outcome(board: ScoreBoard, seats: Seat[], viewerSeat: number): string {
  const me = board.seats.find((s) => s.seat === viewerSeat);
  const others = (list: number[]) => list.filter((w) => w !== viewerSeat).map((w) => seatName(seats, w));
  if (board.solo && board.seats.length === 1) {
    const who = me ? "You" : seatName(seats, board.seats[0]!.seat);
    return `${who} ${board.solo.won ? "won" : "lost"}`;
  }
  const winners = board.winners;
  if (me && winners.includes(viewerSeat)) return winners.length > 1 ? `You tied for first with ${others(winners).join(" and ")}` : "You won";
  const names = winners.map((w) => seatName(seats, w)).join(" and ");
  if (!names) return "Nobody won";
  return me ? `${names} won; you came ${ordinal(me.rank)}` : `${names} won`;
}

function ordinal(n: number): string {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${tail}`;
}

/** Draw a score board as a table; the final one opens with the result from `viewerSeat`'s side (-1: a spectator). */
export function renderScoreBoard(board: ScoreBoard, seats: Seat[], viewerSeat = -1): HTMLElement {
  const categories: string[] = [];
  for (const s of board.seats) for (const c of s.categories) if (!categories.includes(c.name)) categories.push(c.name);
  const points = (seat: SeatScore, name: string) => seat.categories.find((c) => c.name === name)?.points ?? 0;
  const winners = board.winners.map((w) => seatName(seats, w));
  const solo = board.solo;
  return h(
    "section",
    { class: `scoreboard${board.final ? " final" : ""}`, "aria-label": board.final ? "Final scores" : "Scores so far", id: board.final ? "final-scores" : undefined, tabindex: board.final ? "-1" : undefined },
    board.final && h("p", { class: "outcome" }, outcome(board, seats, viewerSeat)),
    h("h2", {}, board.final ? "Final scores" : "Scores so far"),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Category"), board.seats.map((s) => h("th", { scope: "col", class: s.seat === viewerSeat ? "you" : undefined }, seatName(seats, s.seat), s.seat === viewerSeat && " (you)")))),
      h(
        "tbody",
        {},
        categories.map((name) => h("tr", {}, h("th", { scope: "row" }, words(name)), board.seats.map((s) => h("td", {}, String(points(s, name)))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), board.seats.map((s) => h("td", {}, h("strong", {}, String(s.total))))),
        h("tr", { class: "rank" }, h("th", { scope: "row" }, "Rank"), board.seats.map((s) => h("td", {}, String(s.rank)))),
      ),
    ),
    solo && soloResult(solo, board.final),
    board.final && winners.length > 0 && h("p", { class: "winners" }, `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}`),
    Object.keys(board.extras).length > 0 &&
      h("p", { class: "extras" }, Object.entries(board.extras).map(([k, v]) => `${words(k)}: ${v}`).join(" · ")),
  );
}

/**
 * Pieces every board uses: seat names, labelled regions, counters and the
 * clickable-target convention. A board marks anything a decision can be about
 * with `data-target="<key>"`; the game page makes the marked elements that are
 * legal now focusable buttons (see choose/targets.ts), so boards stay pure
 * functions of the view.
 */
import { h, type Child } from "../dom.js";
import type { Seat } from "../gen/roost/common/v1/common_pb.js";
import { seatOf } from "../presence.js";

/** What every board is drawn from. */
export interface BoardInput<V, C> {
  view: V;
  catalogue: C;
  seats: Seat[];
  /** The seat this page plays, or -1 for a spectator. */
  viewerSeat: number;
  toAct: number[];
  /** Target keys legal now (boards may draw places that only exist as targets, like empty tile spots). */
  targets?: Set<string>;
}

/**
 * A seat's display name ("Seat 2" when it has none); "no seat" when the field
 * is absent or -1 (callers with a better word for that case say it first).
 */
export function seatName(seats: Seat[], seat: number | undefined): string {
  const known = seatOf(seat);
  if (known === undefined) return "no seat";
  const name = seats.find((s) => s.seat === known)?.name;
  return name || `Seat ${known + 1}`;
}

/** A titled, labelled region of the board. */
export function region(title: string, cls: string, ...children: Child[]): HTMLElement {
  const id = `r-${cls}-${Math.random().toString(36).slice(2, 8)}`;
  return h(
    "section",
    { class: `region ${cls}`, "aria-labelledby": id },
    h("h3", { id }, title),
    ...children,
  );
}

/** A small "label: value" fact. */
export function stat(label: string, value: Child, cls = ""): HTMLElement {
  return h(
    "span",
    { class: `stat ${cls}`.trim() },
    h("span", { class: "stat-label" }, `${label}: `),
    h("strong", {}, value),
  );
}

/** A seat's heading: name, "you" and whether it is to act. */
export function seatHeading(input: { seats: Seat[]; viewerSeat: number; toAct: number[] }, seat: number | undefined): HTMLElement {
  const you = seat !== undefined && seat === input.viewerSeat;
  const acting = seat !== undefined && input.toAct.includes(seat);
  return h(
    "h3",
    { class: `seat-heading${acting ? " acting" : ""}` },
    seatName(input.seats, seat),
    you && h("span", { class: "tag" }, " (you)"),
    acting && h("span", { class: "tag acting-tag" }, " — to act"),
  );
}

/** "NEST_BOWL" → "bowl", given the enum's prefix. */
export function enumWord(value: string, prefix: string): string {
  return value.startsWith(prefix) ? value.slice(prefix.length).toLowerCase().replace(/_/g, " ") : value;
}

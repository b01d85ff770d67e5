/**
 * The game clock on the page. Every event of a timed game carries the game's
 * Clock (each seat's deadline in server milliseconds, and the server time the
 * clock was computed at); the page draws one line naming each running seat's
 * time left, and one ticker counts those lines down locally: no polling, and
 * the browser's own clock offset never matters (the countdown starts from the
 * server's `deadline - server_time` when the clock arrives).
 */
import type { Clock, Seat } from "../gen/roost/common/v1/common_pb.js";
import { h } from "../dom.js";
import { seatName } from "../boards/kit.js";

/** `m:ss` (or `s.s` under ten seconds) of a duration in milliseconds. */
export function formatLeft(ms: number): string {
  const left = Math.max(ms, 0);
  if (left < 10_000) return `${(left / 1000).toFixed(1)} s`;
  const seconds = Math.floor(left / 1000);
  const minutes = Math.floor(seconds / 60);
  if (minutes >= 60 * 24) return `${Math.floor(minutes / (60 * 24))} d`;
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The clock line: each running seat's countdown (`data-ends`: the local time it ends). */
export function renderClock(clock: Clock | undefined, seats: Seat[], receivedAt: number): HTMLElement | false {
  if (!clock) return false;
  const running = clock.seats.filter((s) => s.running && s.deadlineMs > 0n);
  if (running.length === 0) return false;
  return h(
    "p",
    { class: "clock", "aria-label": "Clock" },
    ...running.flatMap((s, i) => {
      const ends = receivedAt + Number(s.deadlineMs - clock.serverTimeMs);
      return [
        i ? " · " : "",
        `${seatName(seats, s.seat ?? 0)}${s.houseBot ? " (house bot)" : ""}: `,
        h("span", { class: "clock-left", "data-ends": String(ends) }, formatLeft(ends - Date.now())),
      ];
    }),
  );
}

let ticker: ReturnType<typeof setInterval> | undefined;

/** Count every clock on the page down, ten times a second (started once). */
export function startTicker(): void {
  if (ticker !== undefined || typeof document === "undefined") return;
  ticker = setInterval(() => {
    for (const span of document.querySelectorAll<HTMLElement>(".clock-left[data-ends]")) {
      span.textContent = formatLeft(Number(span.dataset.ends) - Date.now());
    }
  }, 100);
}

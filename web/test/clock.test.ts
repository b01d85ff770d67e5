/**
 * The game clock on the page (issue 27): the line names each running seat's
 * time left, counted from the server's deadline minus the clock's server time
 * (the browser's clock offset never matters), and nothing shows in an
 * untimed game.
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ClockSchema, SeatClockSchema, SeatSchema } from "../src/gen/roost/common/v1/common_pb.js";
import { formatLeft, renderClock } from "../src/game/clock.js";

describe("clock", () => {
  it("formats what is left", () => {
    expect(formatLeft(4_250)).toBe("4.3 s");
    expect(formatLeft(-5)).toBe("0.0 s");
    expect(formatLeft(125_000)).toBe("2:05");
    expect(formatLeft(3 * 86_400_000)).toBe("3 d");
  });

  it("counts a running seat down from the server's deadline, whatever the local clock says", () => {
    const clock = create(ClockSchema, {
      // A server clock far from the browser's: only deadline - serverTime counts.
      serverTimeMs: 1_000_000n,
      deadlineMs: 1_030_000n,
      seats: [
        create(SeatClockSchema, { seat: 0 }),
        create(SeatClockSchema, { seat: 1, running: true, deadlineMs: 1_030_000n }),
      ],
    });
    const seats = [create(SeatSchema, { seat: 0, name: "Ada" }), create(SeatSchema, { seat: 1, name: "Bo" })];
    const now = Date.now();
    const line = renderClock(clock, seats, now) as HTMLElement;
    expect(line.textContent).toContain("Bo: ");
    expect(line.textContent).not.toContain("Ada");
    const span = line.querySelector<HTMLElement>(".clock-left")!;
    expect(Number(span.dataset.ends)).toBe(now + 30_000);
    expect(renderClock(undefined, seats, now)).toBe(false);
  });
});

/**
 * How a game ends on the game page (issue 27; src/game/lifecycle.ts): the
 * ending line names who resigned or ran out of time ("You" for this page's
 * seat) and says "Aborted"; a seat's live page offers Resign while the game
 * runs and Rematch once it is over; spectators and fixtures get no buttons.
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it, vi } from "vitest";
import { ScoreBoardSchema, SeatSchema } from "../src/gen/roost/common/v1/common_pb.js";
import { ENDING, endingText, renderEnding, renderLifecycleControls } from "../src/game/lifecycle.js";
import type { GameModel } from "../src/game/model.js";

const seats = [create(SeatSchema, { seat: 0, name: "Ada" }), create(SeatSchema, { seat: 1, name: "Bo" })];

function model(change: Partial<GameModel> = {}): GameModel {
  return { game: "undertheleaves", gameId: "g1", seats, viewerSeat: 0, version: 5n, finished: false, toAct: [0], log: [], connection: "live", ...change };
}

describe("lifecycle", () => {
  it("says who resigned, who ran out of time, and that a game was aborted", () => {
    const resigned = create(ScoreBoardSchema, { ending: ENDING.RESIGNED, leftSeats: [0] });
    expect(endingText(resigned, seats, 0)).toBe("You resigned.");
    expect(endingText(resigned, seats, 1)).toBe("Ada resigned.");
    const timeout = create(ScoreBoardSchema, { ending: ENDING.TIMEOUT, leftSeats: [1] });
    expect(endingText(timeout, seats, -1)).toBe("Bo ran out of time.");
    expect(endingText(create(ScoreBoardSchema, { ending: ENDING.ABORTED }), seats, 0)).toMatch(/^Aborted/);
    expect(endingText(create(ScoreBoardSchema, { ending: ENDING.NORMAL }), seats, 0)).toBe("");
    const line = renderEnding(model({ finished: true, score: timeout })) as HTMLElement;
    expect(line.textContent).toBe("Bo ran out of time.");
    expect(renderEnding(model({ score: timeout }))).toBe(false); // not over yet
  });

  it("offers Resign while the game runs and Rematch once it is over, to a seat's live page only", () => {
    const actions = { resign: vi.fn(), rematch: vi.fn() };
    const running = renderLifecycleControls(model(), actions) as HTMLElement;
    running.querySelector<HTMLButtonElement>("button.resign")!.click();
    expect(actions.resign).toHaveBeenCalledOnce();
    expect(running.querySelector("button.rematch")).toBeNull();
    const over = renderLifecycleControls(model({ finished: true }), actions) as HTMLElement;
    expect(over.querySelector("button.resign")).toBeNull();
    over.querySelector<HTMLButtonElement>("button.rematch")!.click();
    expect(actions.rematch).toHaveBeenCalledOnce();
    expect(renderLifecycleControls(model({ viewerSeat: -1 }), actions)).toBe(false);
    expect(renderLifecycleControls(model(), undefined)).toBe(false);
  });

  it("shows whom a rematch waits for, and links to it once started", () => {
    const actions = { resign: vi.fn(), rematch: vi.fn() };
    const waiting = renderLifecycleControls(model({ finished: true }), actions, { gameId: "g2", started: false, awaitedSeats: [1] }) as HTMLElement;
    expect(waiting.textContent).toContain("waiting for Bo");
    expect(waiting.querySelector("button.rematch")!.textContent).toBe("Ask again");
    const started = renderLifecycleControls(model({ finished: true }), actions, { gameId: "g2", started: true, awaitedSeats: [] }) as HTMLElement;
    expect(started.querySelector("a")!.getAttribute("href")).toBe("#/play/undertheleaves/g2");
    expect(started.querySelector("button")).toBeNull();
  });
});

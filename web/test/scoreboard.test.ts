// The final score board's first line: the result from the viewer's side.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { outcome, renderScoreBoard } from "../src/boards/scoreboard.js";
import { ScoreBoardSchema, SeatSchema, SeatScoreSchema, SoloResultSchema } from "../src/gen/roost/common/v1/common_pb.js";

const seats = [create(SeatSchema, { seat: 0, name: "Ada" }), create(SeatSchema, { seat: 1, name: "Bo" }), create(SeatSchema, { seat: 2, name: "Cy" })];
const board = (ranks: number[], winners: number[]) =>
  create(ScoreBoardSchema, { final: true, winners, seats: ranks.map((rank, seat) => create(SeatScoreSchema, { seat, rank, total: 10 - rank })) });

describe("the result, from the viewer's side", () => {
  it("says you won, you tied, or who won and where you came; a spectator reads who won", () => {
    expect(outcome(board([1, 2, 3], [0]), seats, 0)).toBe("You won");
    expect(outcome(board([1, 1, 3], [0, 1]), seats, 0)).toBe("You tied for first with Bo");
    expect(outcome(board([2, 1, 3], [1]), seats, 0)).toBe("Bo won; you came 2nd");
    expect(outcome(board([3, 1, 2], [1]), seats, 0)).toBe("Bo won; you came 3rd");
    expect(outcome(board([2, 1, 3], [1]), seats, -1)).toBe("Bo won");
  });

  it("says a solo game won or lost, and opens the final board with it, every category below", () => {
    const solo = create(ScoreBoardSchema, {
      final: true,
      seats: [create(SeatScoreSchema, { seat: 0, rank: 1, total: 8, categories: [{ name: "card_points", points: 8 }] })],
      solo: create(SoloResultSchema, { won: false, opponentScore: 21 }),
    });
    expect(outcome(solo, seats, 0)).toBe("You lost");
    const el = renderScoreBoard(solo, seats, 0);
    expect(el.querySelector(".outcome")!.textContent).toBe("You lost");
    expect(el.id).toBe("final-scores");
    expect(el.querySelector("tbody th")!.textContent).toBe("Card points");
  });
});

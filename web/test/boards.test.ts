/**
 * Every board drawn from recorded positions of real games: what a player
 * needs is on it, legal choices are clickable where the board has a place
 * for them, hidden information is absent for spectators, and the parts are
 * labelled for screen readers.
 */
import { describe, expect, it } from "vitest";
import { renderGame } from "../src/game/render.js";
import type { GameModel } from "../src/game/model.js";
import { GAMES, type GameName } from "../src/registry.js";
import { positions, recorded } from "./fixtures.js";

const noop = { pickTarget: () => {}, pickStep: () => {}, back: () => {} };

function draw(model: GameModel): HTMLElement {
  const el = renderGame(model, noop);
  document.body.replaceChildren(el);
  return el;
}

function text(el: Element): string {
  return (el.textContent ?? "").replace(/\s+/g, " ");
}

describe.each(GAMES.map((g) => g.name))("%s boards", (game: GameName) => {
  it.each(positions(game))("%s draws, with every legal target clickable or listed", (position) => {
    const model = recorded(game, position);
    const el = draw(model);
    expect(el.querySelector(".board")).not.toBeNull();
    expect(el.querySelector(".loading")).toBeNull();
    if (model.chooser) {
      const live = new Set(model.chooser.choices.flatMap((c) => (c.target ? [c.target] : [])));
      for (const key of live) {
        const target = el.querySelector(`[data-target="${CSS.escape(key)}"]`);
        expect(target, `board target ${key}`).not.toBeNull();
        expect(target!.getAttribute("role")).toBe("button");
        expect(target!.getAttribute("tabindex")).toBe("0");
        expect(target!.getAttribute("aria-label")).toBeTruthy();
      }
      expect(el.querySelectorAll(".chooser button.choice").length).toBeGreaterThan(0);
      // Choices about one's own mat, garden, aviary or tableau never light up another seat's.
      const others = el.querySelectorAll(
        ".player-mat:not(.own) .target, .garden:not(.own) .target, .aviary:not(.own) .target, .bs-seat:not(.own) .target:not([data-target^='tableau:'])",
      );
      expect(others.length).toBe(0);
    }
    for (const region of el.querySelectorAll("section")) {
      expect(region.getAttribute("aria-label") || region.getAttribute("aria-labelledby"), region.className).toBeTruthy();
    }
  });

  it("lists the recent moves in the log, secret decisions redacted", () => {
    for (const p of positions(game)) {
      const model = recorded(game, p);
      const el = draw(model);
      const lines = [...el.querySelectorAll(".log li")].map((li) => text(li));
      const shown = model.log.slice(-12);
      expect(lines).toHaveLength(shown.length);
      shown.forEach((e, i) => expect(lines[i]).toContain(e.redacted ? "(a secret decision)" : e.label || e.kind));
    }
    expect(positions(game).some((p) => recorded(game, p).log.length > 0)).toBe(true);
  });

  it("ends with a final score board naming every category", () => {
    const end = positions(game).filter((p) => p.endsWith("-end"));
    expect(end.length).toBeGreaterThan(0);
    for (const p of end) {
      const model = recorded(game, p);
      expect(model.finished).toBe(true);
      const el = draw(model);
      const board = el.querySelector(".scoreboard.final");
      expect(board).not.toBeNull();
      for (const seat of model.score!.seats) {
        for (const c of seat.categories) expect(text(board!)).toContain(c.name.replace(/_/g, " ").slice(1));
      }
      const totals = [...board!.querySelectorAll("tr.total td")].map((td) => Number(td.textContent));
      expect(totals).toEqual(model.score!.seats.map((s) => s.total));
    }
  });

  it("spectator views say so and offer no choices", () => {
    for (const p of positions(game).filter((x) => x.endsWith("-spectator"))) {
      const model = recorded(game, p);
      expect(model.viewerSeat).toBe(-1);
      const el = draw(model);
      expect(text(el)).toContain("spectator");
      expect(el.querySelector(".chooser")).toBeNull();
      expect(el.querySelector(".target")).toBeNull();
      expect(el.querySelector(".hand")).toBeNull();
    }
  });
});

describe("Wingspan board", () => {
  it("shows each hand card's name, cost, points and power", () => {
    const model = recorded("wingspan", "2p-mid");
    const el = draw(model);
    const hand = el.querySelector(".player-mat.own .hand")!;
    expect(hand).not.toBeNull();
    const cards = hand.querySelectorAll(".bird-card");
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.querySelector("h4")!.textContent).toBeTruthy();
      expect(text(card)).toMatch(/Cost: /);
      expect(text(card)).toMatch(/\d+ points/);
    }
  });

  it("draws three habitats per mat, the feeder's dice, the tray and the goals with standings", () => {
    const model = recorded("wingspan", "2p-mid");
    const el = draw(model);
    for (const mat of el.querySelectorAll(".player-mat")) {
      expect(mat.querySelectorAll(".habitat").length).toBe(3);
      expect(mat.querySelectorAll(".habitat .card").length).toBe(15);
    }
    const view = model.view as any;
    expect(el.querySelectorAll(".feeder .die").length).toBe(view.birdfeeder.length);
    expect(el.querySelectorAll(".tray .bird-card").length).toBe(view.tray.length);
    expect(el.querySelectorAll(".goals tbody tr").length).toBe(4);
    expect(text(el.querySelector(".goals")!)).toMatch(/→ \d+ pts/);
    expect(text(el)).toMatch(/eggs \d\/\d/);
  });

  it("shows a bonus card's condition to its owner", () => {
    const el = draw(recorded("wingspan", "2p-mid"));
    expect(el.querySelector(".player-mat.own .bonus .bonus-card p")!.textContent).toBeTruthy();
  });
});

describe("Under the Leaves board", () => {
  it("draws the market's tiles face up and the bag count", () => {
    const model = recorded("undertheleaves", "2p-mid");
    const el = draw(model);
    const view = model.view as any;
    const tiles = el.querySelectorAll(".market .mini-tile");
    expect(tiles.length).toBeGreaterThanOrEqual(view.market.length);
    for (const t of [...tiles].slice(0, view.market.length)) expect(t.querySelectorAll(".cell").length).toBe(4);
    expect(text(el.querySelector(".market")!)).toContain(`Tiles in the bag: ${view.bagCount}`);
  });

  it("draws each garden as a grid with four cells per tile", () => {
    const model = recorded("undertheleaves", "2p-end");
    const el = draw(model);
    const gardens = (model.view as any).gardens as { tiles: unknown[] }[];
    const grids = el.querySelectorAll(".garden-grid");
    expect(grids.length).toBe(gardens.length);
    const counts = [...grids].map((g) => g.querySelectorAll(".cell").length).sort();
    expect(counts).toEqual(gardens.map((g) => g.tiles.length * 4).sort());
    expect(text(el)).toMatch(/bee \d/);
  });
});

describe("Sky Garden board", () => {
  it("shows funds, the track, milestones and the aviary's areas", () => {
    for (const p of ["1p-mid", "2p-mid"]) {
      const model = recorded("skygarden", p);
      const el = draw(model);
      const view = model.view as any;
      expect(el.querySelectorAll(".funds").length).toBe(view.seats.length);
      expect(el.querySelectorAll(".track-space").length).toBe(view.track.length);
      expect(el.querySelectorAll(".birdcage li").length).toBe(view.birdcage.length);
      expect(el.querySelectorAll(".aviary .area").length).toBeGreaterThan(0);
    }
  });

  it("shows Lucy in 2-player games and the targets in solo games", () => {
    expect(text(draw(recorded("skygarden", "2p-mid")))).toContain("Lucy");
    expect(text(draw(recorded("skygarden", "1p-mid")))).toMatch(/Solo targets: \d+ \/ \d+/);
  });
});

describe("Birdscaping board", () => {
  it("draws the three tableau rows, the hand, the offer and the discard pile", () => {
    const el = draw(recorded("birdscaping", "2p-mid"));
    expect(el.querySelectorAll(".bs-seat").length).toBe(2);
    for (const seat of el.querySelectorAll(".bs-seat")) expect(seat.querySelectorAll(".tableau-row").length).toBe(3);
    expect(el.querySelector(".offer")).not.toBeNull();
    expect(el.querySelector(".discard")).not.toBeNull();
    expect(el.querySelectorAll(".bs-seat.own .hand .bs-card").length).toBeGreaterThan(0);
  });

  it("shows the AI's column in solo games and the payment as it happens", () => {
    const el = draw(recorded("birdscaping", "1p-mid"));
    expect(el.querySelector(".ai")).not.toBeNull();
    expect(text(el.querySelector(".ai")!)).toMatch(/AI score: \d+/);
    expect(text(el.querySelector(".payment")!)).toMatch(/Food: .* unpaid/);
  });
});

/**
 * Every board drawn from recorded positions of real games: what a player
 * needs is on it, legal choices are clickable where the board has a place
 * for them, hidden information is absent for spectators, and the parts are
 * labelled for screen readers.
 */
import { describe, expect, it, vi } from "vitest";
import { renderGame } from "../src/game/render.js";
import type { GameModel } from "../src/game/model.js";
import { GAMES, type GameName } from "../src/registry.js";
import { positions, raw, recorded } from "./fixtures.js";

// Most tests draw every recorded position of a game (a few hundred boards in all): allow for a loaded machine.
vi.setConfig({ testTimeout: 30000 });

const noop = { pickTarget: () => {}, pickStep: () => {}, back: () => {}, togglePick: () => {}, send: () => {} };

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

/** Positions of a game recorded at a player count ("2p-mid", ...). */
function at(game: GameName, players: number): string[] {
  return positions(game).filter((p) => p.startsWith(`${players}p-`));
}

/** The positions seen by a seat (not a spectator). */
function seated(game: GameName): string[] {
  return positions(game).filter((p) => !p.endsWith("-spectator"));
}

describe("recorded positions", () => {
  it("cover solo, 2 players and the largest tables, each from start to end and for spectators", () => {
    const tables: Record<GameName, number[]> = { wingspan: [2, 5], undertheleaves: [2, 4], skygarden: [1, 2, 4], birdscaping: [1, 2] };
    for (const [game, counts] of Object.entries(tables) as [GameName, number[]][]) {
      for (const n of counts) {
        for (const moment of ["start", "mid", "end", "spectator"]) expect(positions(game), game).toContain(`${n}p-${moment}`);
        expect(recorded(game, `${n}p-end`).seats.length).toBe(n);
      }
    }
  });
});

describe("spectators", () => {
  it.each(GAMES.map((g) => g.name))("%s: no hand, no dealt choices, no deck order in any spectator view", (game) => {
    for (const p of positions(game).filter((x) => x.endsWith("-spectator"))) {
      const model = recorded(game, p);
      const view = model.view as any;
      const seats: any[] = view[{ wingspan: "players", undertheleaves: "gardens", skygarden: "seats", birdscaping: "seats" }[game]];
      expect(seats.length, p).toBe(model.seats.length);
      for (const seat of seats) {
        expect(seat.hand ?? [], `${p} hand`).toEqual([]);
        expect(seat.setupBirds ?? [], `${p} setup birds`).toEqual([]);
        expect(seat.bonusCards ?? [], `${p} bonus cards`).toEqual([]);
        expect(seat.bonusOffer ?? [], `${p} bonus offer`).toEqual([]);
        expect(seat.dealtEvents ?? [], `${p} dealt events`).toEqual([]);
      }
      expect(JSON.stringify(raw(game, p)), p).not.toMatch(/"(deck|bag|rng|seed)Order"|"rngState"/);
      const el = draw(model);
      expect(el.querySelector(".hand, .bonus, .setup, .bonus-offer")).toBeNull();
    }
  });
});

describe("Wingspan board", () => {
  it("draws every mat with three habitats of five places, at 2 and 5 players", () => {
    for (const p of seated("wingspan")) {
      const model = recorded("wingspan", p);
      const el = draw(model);
      const mats = el.querySelectorAll(".player-mat");
      expect(mats.length).toBe(model.seats.length);
      for (const mat of mats) {
        expect(mat.querySelectorAll(".habitat").length).toBe(3);
        expect(mat.querySelectorAll(".habitat .card").length).toBe(15);
      }
    }
  });

  it("shows the eggs, cached food and tucked cards on the birds", () => {
    const shown = { eggs: 0, cached: 0, tucked: 0 };
    for (const p of positions("wingspan")) {
      const model = recorded("wingspan", p);
      const el = draw(model);
      const slots = (model.view as any).players.flatMap((pl: any) => [...pl.forest, ...pl.grassland, ...pl.wetland]);
      expect(el.querySelectorAll(".slot-card").length).toBe(slots.length);
      for (const [cls, field] of [["cached", "cachedFood"], ["tucked", "tuckedCards"]] as const) {
        const n = slots.filter((b: any) => b[field] > 0).length;
        expect(el.querySelectorAll(`.slot-card .${cls}`).length, `${p} ${cls}`).toBe(n);
        shown[cls] += n;
      }
      expect(el.querySelectorAll(".slot-card .eggs").length).toBe(slots.length);
      shown.eggs += slots.filter((b: any) => b.eggs > 0).length;
    }
    expect(shown.eggs).toBeGreaterThan(0);
    expect(shown.cached).toBeGreaterThan(0);
    expect(shown.tucked).toBeGreaterThan(0);
  });

  it("shows each hand card's name, cost, points and power text", () => {
    const model = recorded("wingspan", "2p-mid");
    const el = draw(model);
    const hand = el.querySelector(".player-mat.own .hand")!;
    expect(hand).not.toBeNull();
    const cards = hand.querySelectorAll(".bird-card");
    expect(cards.length).toBe((model.view as any).players.find((pl: any) => pl.seat === 0).hand.length);
    for (const card of cards) {
      expect(card.querySelector("h4")!.textContent).toBeTruthy();
      // The cost and points are symbols, read by their text alternatives.
      expect(card.querySelector(".cost-syms")!.getAttribute("aria-label")).toMatch(/^cost: (free|\d)/);
      expect(card.querySelector(".points")!.getAttribute("aria-label")).toMatch(/^\d+ points$/);
    }
    const powers = [...el.querySelectorAll(".hand .bird-card .power")];
    expect(powers.length).toBeGreaterThan(0);
    for (const power of powers) expect(power.textContent!.length).toBeGreaterThan(10);
  });

  it("draws the feeder's dice, the tray, the round goals with standings and the bonus cards", () => {
    for (const p of ["2p-mid", "2p-end", "5p-end"]) {
      const model = recorded("wingspan", p);
      const el = draw(model);
      const view = model.view as any;
      expect(el.querySelectorAll(".feeder .die").length).toBe(view.birdfeeder.length);
      expect(el.querySelectorAll(".tray .bird-card").length).toBe(view.tray.length);
      expect(el.querySelectorAll(".goals tbody tr").length).toBe(4);
      expect(el.querySelectorAll(".goals thead th").length).toBe(2 + model.seats.length);
      expect(text(el.querySelector(".goals")!)).toMatch(/→ \d+ pts/);
      const own = view.players.find((pl: any) => pl.seat === 0);
      expect(el.querySelectorAll(".player-mat.own .bonus .bonus-card").length).toBe(own.bonusCards.length);
      for (const b of el.querySelectorAll(".player-mat.own .bonus .bonus-card p")) expect(b.textContent).toBeTruthy();
    }
  });
});

describe("Under the Leaves board", () => {
  it("draws the market's tiles face up and the bag count", () => {
    for (const p of seated("undertheleaves")) {
      const model = recorded("undertheleaves", p);
      const el = draw(model);
      const view = model.view as any;
      const tiles = el.querySelectorAll(".market .market-slot .mini-tile");
      expect(tiles.length).toBe(view.market.length);
      for (const t of tiles) expect(t.querySelectorAll(".cell").length).toBe(4);
      expect(text(el.querySelector(".market")!)).toContain(`Tiles in the bag: ${view.bagCount ?? 0}`);
    }
  });

  it("draws each garden as a grid with four cells per tile, with its bees, hummingbirds and dwellers", () => {
    const seen = { bee: 0, hum: 0, dweller: 0 };
    for (const p of positions("undertheleaves")) {
      const model = recorded("undertheleaves", p);
      const el = draw(model);
      const gardens = (model.view as any).gardens as any[];
      const grids = el.querySelectorAll(".garden-grid");
      expect(grids.length).toBe(gardens.length);
      const counts = [...grids].map((g) => g.querySelectorAll(".cell").length).sort();
      expect(counts).toEqual(gardens.map((g) => g.tiles.length * 4).sort());
      const marks = [...el.querySelectorAll(".garden-grid .mark")].map((m) => m.getAttribute("title") ?? "");
      seen.bee += marks.filter((m) => / bees?$/.test(m)).length;
      seen.hum += marks.filter((m) => / hummingbirds?$/.test(m)).length;
      const dwellers = gardens.reduce((n, g) => n + g.dwellers.length, 0);
      const names = new Set(((model.view as any).dwellerCards as any[]).map((d) => d.name));
      expect(marks.filter((m) => names.has(m)).length, p).toBe(dwellers);
      seen.dweller += dwellers;
    }
    expect(seen.bee).toBeGreaterThan(0);
    expect(seen.hum).toBeGreaterThan(0);
    expect(seen.dweller).toBeGreaterThan(0);
  });
});

describe("Sky Garden board", () => {
  it("shows funds, the track and standby, milestones and each aviary's areas with trees, lakes and nests", () => {
    const features = new Set<string>();
    for (const p of positions("skygarden")) {
      const model = recorded("skygarden", p);
      const el = draw(model);
      const view = model.view as any;
      expect(el.querySelectorAll(".aviary").length).toBe(view.seats.length);
      expect(el.querySelectorAll(".funds").length).toBe(view.seats.length);
      expect(el.querySelectorAll(".track-space").length).toBe(view.track.length);
      expect(el.querySelectorAll(".standby-spaces li").length).toBe(view.standby.length);
      expect(el.querySelectorAll(".birdcage-grid .milestone:not(.empty)").length).toBe(view.birdcage.length);
      const areas = view.seats.reduce((n: number, s: any) => n + s.areas.length, 0);
      expect(el.querySelectorAll(".aviary .area").length).toBe(areas);
      for (const f of el.querySelectorAll(".aviary .features .sym")) features.add(f.getAttribute("aria-label")!);
    }
    expect([...features].sort()).toEqual(["lake", "nest", "tree"]);
  });

  it("shows Lucy in 2-player games only, and the targets in solo games", () => {
    for (const p of at("skygarden", 2)) expect(text(draw(recorded("skygarden", p))), p).toMatch(/Lucy \(the 2-player neutral bird\) is/);
    for (const p of [...at("skygarden", 1), ...at("skygarden", 4)]) expect(text(draw(recorded("skygarden", p))), p).not.toContain("Lucy");
    expect(text(draw(recorded("skygarden", "1p-mid")))).toMatch(/Solo targets: \d+ \/ \d+/);
  });

  it("keeps the other seats' event cards secret until every seat has chosen, then shows them to everyone", () => {
    const start = recorded("skygarden", "2p-start");
    const others = (start.view as any).seats.filter((s: any) => s.seat !== 0);
    expect(others.every((s: any) => !s.eventCard)).toBe(true);
    expect(text(draw(start))).toContain("Event cards to choose from");
    for (const players of [2, 4]) {
      for (const p of [`${players}p-events`, `${players}p-events-spectator`]) {
        const model = recorded("skygarden", p);
        const el = draw(model);
        const cards = [...el.querySelectorAll(".aviary .event-own")];
        expect(cards, p).toHaveLength(players);
        for (const card of cards) {
          // The card's birds (by their text alternatives), its table of sets, and the seat's progress.
          expect(card.querySelector(".event-face")!.getAttribute("aria-label"), p).toMatch(/^Event card: sets of .+ and .+$/);
          expect(text(card), p).toMatch(/sets.*income.*points/);
          expect(text(card), p).toMatch(/Event marker: \d+/);
        }
      }
    }
  });
});

describe("Birdscaping board", () => {
  it("draws the three tableau rows with tilted cards, the hand, the offer and the discard pile", () => {
    let tilted = 0;
    for (const p of seated("birdscaping")) {
      const model = recorded("birdscaping", p);
      const el = draw(model);
      const view = model.view as any;
      expect(el.querySelectorAll(".bs-seat").length).toBe(view.seats.length);
      for (const seat of el.querySelectorAll(".bs-seat")) expect(seat.querySelectorAll(".tableau-row").length).toBe(3);
      expect(el.querySelectorAll(".offer .bs-card").length).toBe(view.offer.length);
      expect(el.querySelectorAll(".discard .bs-card").length).toBe(view.discardPile.length);
      const own = view.seats.find((s: any) => s.seat === 0);
      expect(el.querySelectorAll(".bs-seat.own .hand .bs-card").length).toBe(own.hand.length);
      const rows = view.seats.flatMap((s: any) => [...(s.tableau?.trees ?? []), ...(s.tableau?.garden ?? []), ...(s.tableau?.pond ?? [])]);
      expect(el.querySelectorAll(".tableau .bs-card.tilted").length).toBe(rows.filter((c: any) => c.tilted).length);
      tilted += rows.filter((c: any) => c.tilted).length;
    }
    expect(tilted).toBeGreaterThan(0);
  });

  it("shows a payment's steps as it happens, to the payer and to spectators", () => {
    for (const p of ["1p-payment", "2p-payment", "2p-payment-spectator"]) {
      const el = draw(recorded("birdscaping", p));
      const steps = el.querySelectorAll(".payment .payment-steps li");
      expect(steps.length, p).toBe(2);
      expect(text(steps[0]!)).toMatch(/Nesting: \d+ of \d+ paid/);
      expect(text(steps[1]!)).toMatch(/Food: .* unpaid/);
    }
  });

  it("shows the AI's column in solo games only", () => {
    for (const p of at("birdscaping", 1)) {
      const el = draw(recorded("birdscaping", p));
      expect(el.querySelector(".ai"), p).not.toBeNull();
      expect(text(el.querySelector(".ai")!)).toMatch(/AI score: \d+/);
      expect(el.querySelectorAll(".ai .bs-card").length).toBe((recorded("birdscaping", p).view as any).aiColumn.length);
    }
    for (const p of at("birdscaping", 2)) expect(draw(recorded("birdscaping", p)).querySelector(".ai"), p).toBeNull();
  });
});

describe("final score board", () => {
  it("says how a solo game against the AI ended, from the typed solo result", () => {
    const model = recorded("birdscaping", "1p-end");
    const solo = model.score!.solo!;
    expect(solo.opponentScore).toBeDefined();
    const el = draw(model).querySelector(".scoreboard.final .solo-result")!;
    expect(el.getAttribute("aria-label")).toBe("Solo result");
    expect(el.querySelector(".solo-opponent")!.textContent).toBe(String(solo.opponentScore));
    expect(el.querySelector(".solo-targets")).toBeNull();
    expect(el.querySelector(".solo-outcome")!.textContent).toBe(solo.won ? "won" : "lost");
  });

  it("says which score target a solo Sky Garden game reached", () => {
    const model = recorded("skygarden", "1p-end");
    const solo = model.score!.solo!;
    expect(solo.targets.length).toBeGreaterThan(0);
    const el = draw(model).querySelector(".scoreboard.final .solo-result")!;
    expect(el.querySelector(".solo-targets")!.textContent).toBe(solo.targets.join(" / "));
    expect(el.querySelector(".solo-reached")!.textContent).toBe(solo.targetReached ? String(solo.targetReached) : "none");
    expect(el.querySelector(".solo-opponent")).toBeNull();
    expect(el.querySelector(".solo-outcome")!.textContent).toBe(solo.won ? "won" : "lost");
  });

  it("has no solo result in games of several players", () => {
    for (const game of GAMES.map((g) => g.name)) {
      const el = draw(recorded(game, "2p-end"));
      expect(el.querySelector(".solo-result"), game).toBeNull();
    }
  });
});

/**
 * Choosing: multi-step decisions narrowed one step at a time, board targets
 * narrowing to their choices, and the page sending exactly one action.
 */
import { describe, expect, it } from "vitest";
import { choicesOf, narrow, nextSteps } from "../src/choose/choices.js";
import { decided, openChoices, pickStep, pickTarget, togglePick, type ChooserState } from "../src/choose/panel.js";
import { renderGame } from "../src/game/render.js";
import { recorded } from "./fixtures.js";
import { namingOf } from "../src/choose/naming.js";

describe("multi-step choices", () => {
  it("places an Under the Leaves tile by spot, then rotation, then side", () => {
    const model = recorded("undertheleaves", "2p-wide");
    let state: ChooserState = model.chooser!;
    expect(state.choices.length).toBeGreaterThan(20);
    expect(nextSteps(state.choices, [])).toEqual([{ step: "Place the tile", count: state.choices.length }]);
    const spot = state.choices[0]!.target!;
    expect(spot).toMatch(/^spot:-?\d+,-?\d+$/);
    state = pickTarget(state, spot);
    const rotations = nextSteps(state.only!, state.path);
    expect(rotations.every((r) => /^rotated \d+°$/.test(r.step))).toBe(true);
    state = pickStep(state, rotations[0]!.step);
    while (!decided(state)) state = pickStep(state, nextSteps(state.only!, state.path)[0]!.step);
    const choice = decided(state)!;
    expect(choice.target).toBe(spot);
    expect(openChoices(state)).toHaveLength(1);
  });

  it("draws a ghost spot for every legal tile position, as a button", () => {
    const model = recorded("undertheleaves", "2p-wide");
    const el = renderGame(model, { pickTarget: () => {}, pickStep: () => {}, back: () => {}, togglePick: () => {}, send: () => {} });
    const spots = new Set(model.chooser!.choices.map((c) => c.target));
    expect(el.querySelectorAll(".garden.own .spot[role=button]").length).toBe(spots.size);
  });

  it("clicking a board target of several choices leaves only those in the list", () => {
    const model = recorded("undertheleaves", "2p-wide");
    const picked: string[] = [];
    const el = renderGame(model, { pickTarget: (k) => picked.push(k), pickStep: () => {}, back: () => {}, togglePick: () => {}, send: () => {} });
    const spot = el.querySelector<HTMLElement>(".spot.target")!;
    spot.click();
    spot.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    expect(picked).toEqual([spot.dataset.target, spot.dataset.target]);
    const state = pickTarget(model.chooser!, picked[0]!);
    const next = renderGame({ ...model, chooser: state }, { pickTarget: () => {}, pickStep: () => {}, back: () => {}, togglePick: () => {}, send: () => {} });
    const buttons = [...next.querySelectorAll(".chooser button.choice")].map((b) => b.textContent);
    expect(buttons.every((t) => t!.startsWith("rotated"))).toBe(true);
    expect(next.querySelector(".chooser button.back")).not.toBeNull();
  });

  it("groups Wingspan's starting birds by how many are kept", () => {
    const model = recorded("wingspan", "2p-wide");
    const first = nextSteps(model.chooser!.choices, []);
    expect(first).toEqual([{ step: "Keep starting birds", count: model.chooser!.choices.length }]);
    const second = nextSteps(model.chooser!.choices, ["Keep starting birds"]);
    expect(second.map((s) => s.step)).toContain("0 birds (keep 5 food)");
    expect(narrow(model.chooser!.choices, ["Keep starting birds", "0 birds (keep 5 food)"])).toHaveLength(1);
  });

  it("offers no action without its id (absent is not action 0) and points at nothing without a number", () => {
    const choices = choicesOf(
      [
        { ref: { label: "No id", kind: "take_tile" } as never, scoreAfter: 0 },
        { ref: { id: 0, label: "Take slot 1", kind: "take_tile" } as never, action: { kind: { case: "takeTile", value: { slot: 0 } } } as never, scoreAfter: 0 },
        { ref: { id: 1, label: "Take a tile", kind: "take_tile" } as never, action: { kind: { case: "takeTile", value: {} } } as never, scoreAfter: 0 },
      ],
      namingOf("undertheleaves"),
    );
    expect(choices.map((c) => c.id)).toEqual([0, 1]);
    expect(choices.map((c) => c.target)).toEqual(["market:0", undefined]);
  });

  it("falls back to the kind and the label for actions without their own steps", () => {
    const choices = choicesOf(
      [{ ref: { id: 3, label: "Decline", kind: "decline" } as never, scoreAfter: 0 }],
      { target: () => undefined },
    );
    expect(choices[0]!.steps).toEqual(["Decline", "Decline"]);
  });
});

describe("choices made on the board", () => {
  const noop = { pickTarget: () => {}, pickStep: () => {}, back: () => {}, togglePick: () => {}, send: () => {} };

  it("picks Wingspan's starting birds by clicking the cards, never from a list of every set", () => {
    let model = recorded("wingspan", "2p-start");
    const sent: string[] = [];
    const draw = () =>
      renderGame(model, {
        ...noop,
        togglePick: (key) => {
          model = { ...model, chooser: togglePick(model.chooser!, key) };
        },
        send: (c) => sent.push(c.label),
      });
    let el = draw();
    const cards = [...el.querySelectorAll<HTMLElement>(".setup .bird-card")];
    expect(cards).toHaveLength(5);
    // Every dealt bird is a toggle button; the chooser lists no combination.
    for (const card of cards) expect(card.getAttribute("aria-pressed"), card.getAttribute("aria-label")!).toBe("false");
    expect([...el.querySelectorAll(".chooser button.choice")].map((b) => b.textContent)).toEqual(["Keep no birds"]);
    cards[0]!.click();
    el = draw();
    el.querySelectorAll<HTMLElement>(".setup .bird-card")[3]!.click();
    el = draw();
    const picked = [...el.querySelectorAll<HTMLElement>(".setup .bird-card[aria-pressed=true]")].map((c) => c.getAttribute("aria-label")!.split(" — ")[0]);
    expect(picked).toHaveLength(2);
    const confirm = el.querySelector<HTMLButtonElement>(".chooser button.confirm")!;
    expect(confirm.disabled).toBe(false);
    for (const name of picked) expect(confirm.textContent).toContain(name);
    confirm.click();
    expect(sent).toEqual([confirm.textContent]);
  });

  it("keeps Sky Garden's free actions off the board, folded apart from what advances the turn", () => {
    const model = recorded("skygarden", "1p-wide");
    const el = renderGame(model, noop);
    const free = model.chooser!.choices.filter((c) => c.free);
    expect(free.map((c) => c.kind).sort()).toEqual(["refill_lake", "tree_to_forest"]);
    expect(free.every((c) => c.target === undefined)).toBe(true);
    const folded = el.querySelector("details.free-actions")!;
    expect(folded.hasAttribute("open")).toBe(false);
    expect(folded.querySelectorAll("button.choice")).toHaveLength(free.length);
    // Only the track and standby (the move) are highlighted.
    const targets = new Set([...el.querySelectorAll<HTMLElement>("[data-target].target")].map((t) => t.dataset.target!.split(":")[0]));
    expect([...targets].sort()).toEqual(["standby", "track"]);
  });
});

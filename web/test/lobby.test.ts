/**
 * The lobby: every game offered with its player counts, an options form
 * built from each game's Options message, a seat plan per player, the games
 * this browser holds listed to resume or spectate, and every control labelled.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { remember } from "../src/api/seats.js";
import { kitOf } from "../src/games/index.js";
import { renderLobby } from "../src/lobby/lobby.js";
import { optionsFields, readOptions } from "../src/lobby/options.js";
import { h } from "../src/dom.js";
import { GAMES } from "../src/registry.js";

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = '<div id="app"></div>';
});

function lobby(): HTMLElement {
  const root = document.getElementById("app")!;
  renderLobby(root, () => {});
  return root;
}

describe("lobby", () => {
  it("offers every game and a seat plan per player, defaulting to you against bots", () => {
    const root = lobby();
    const select = root.querySelector<HTMLSelectElement>("#ng-game")!;
    expect([...select.options].map((o) => o.value)).toEqual(GAMES.map((g) => g.name));
    select.value = "wingspan";
    select.dispatchEvent(new Event("change"));
    const players = root.querySelector<HTMLInputElement>("#ng-players")!;
    expect([players.min, players.max]).toEqual(["2", "5"]);
    players.value = "4";
    players.dispatchEvent(new Event("change"));
    const plans = [...root.querySelectorAll<HTMLSelectElement>("select[data-seat]")].map((s) => s.value);
    expect(plans).toEqual(["you", "greedy", "greedy", "greedy"]);
  });

  it("labels every control", () => {
    const root = lobby();
    for (const el of root.querySelectorAll("input, select")) {
      const labelled = el.getAttribute("aria-label") || (el.id && root.querySelector(`label[for="${el.id}"]`));
      expect(labelled, el.outerHTML).toBeTruthy();
    }
  });

  it("lists the games this browser holds, to resume or to watch", () => {
    remember({ game: "undertheleaves", gameId: "g1", seats: [{ seat: 0, token: "t", player: "you" }], players: 2, createdMs: 1, openedMs: 1 });
    const root = lobby();
    const links = [...root.querySelectorAll<HTMLAnchorElement>(".held-games a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual(["#/play/undertheleaves/g1", "#/watch/undertheleaves/g1"]);
  });
});

describe("options form", () => {
  it("is built from the Options message and reads back proto JSON with only what was set", () => {
    const form = h("div", {}, optionsFields(kitOf("undertheleaves").schemas.options));
    expect(form.querySelectorAll("[data-kind]").length).toBe(kitOf("undertheleaves").schemas.options.fields.length);
    expect(readOptions(form)).toEqual({});
    form.querySelector<HTMLSelectElement>('[name="allowFlip"]')!.value = "false";
    form.querySelector<HTMLInputElement>('[name="dwellerCards"]')!.value = "leaf_runner, puddle_diver";
    expect(readOptions(form)).toEqual({ allowFlip: false, dwellerCards: ["leaf_runner", "puddle_diver"] });
  });

  it("is empty for a game without options", () => {
    expect(optionsFields(kitOf("skygarden").schemas.options)).toEqual([]);
  });
});

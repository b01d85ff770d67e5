/**
 * The chooser: the legal actions of the seat this page plays, offered two
 * ways at once. Things on the board that a choice is about become buttons
 * (focusable, labelled, Enter/Space to press); everything is also in a list
 * grouped by kind. A decision that takes several steps (a tile's spot, then
 * its rotation, then flipped or not) is made one step at a time, with a way
 * back; when one choice is left it is sent.
 *
 * Two kinds of choices are offered apart. A set choice (the starting birds
 * to keep) is made by clicking the things on the board one by one (each a
 * toggle button) and confirming the set. Free actions (optional, they do not
 * advance the turn) are not highlighted on the board and sit folded in their
 * own quiet list.
 */
import { h, replace } from "../dom.js";
import { type Choice, exactPick, narrow, nextSteps, onTarget, pickable, targets } from "./choices.js";

export interface ChooserState {
  choices: Choice[];
  /** Steps taken so far. */
  path: string[];
  /** Set when a board target was clicked: only its choices remain. */
  only?: Choice[];
  /** The target keys clicked so far for a set choice. */
  picked?: string[];
}

/** What the chooser's buttons and the board's targets call. */
export interface ChooserActions {
  step(step: string): void;
  back(): void;
  /** Toggle one thing of a set choice. */
  toggle(key: string): void;
  /** Send this choice (a confirmed set, a free action). */
  send(choice: Choice): void;
}

/** Draws what a choice's next step would look like (a tile turned), or nothing. */
export type Preview = (choices: Choice[]) => HTMLElement | undefined;

/** Choices made step by step: neither set choices nor free actions. */
function stepped(choices: Choice[]): Choice[] {
  return choices.filter((c) => c.picks === undefined && !c.free);
}

/** The choices still open. */
export function openChoices(state: ChooserState): Choice[] {
  return narrow(state.only ?? state.choices, state.path);
}

/** Toggle a thing of a set choice in or out of the set. */
export function togglePick(state: ChooserState, key: string): ChooserState {
  const picked = state.picked ?? [];
  return { ...state, picked: picked.includes(key) ? picked.filter((k) => k !== key) : [...picked, key] };
}

/** The longest step prefix every choice shares. */
function commonPath(choices: Choice[]): string[] {
  if (!choices.length) return [];
  const first = choices[0]!.steps;
  const path: string[] = [];
  for (let i = 0; i < first.length - 1; i++) {
    if (choices.every((c) => c.steps[i] === first[i])) path.push(first[i]!);
    else break;
  }
  return path;
}

/** Click on a board target: keep only its choices (and skip the steps they share). */
export function pickTarget(state: ChooserState, key: string): ChooserState {
  const only = onTarget(openChoices(state), key);
  return { choices: state.choices, only, path: commonPath(only) };
}

/** Take one more step. */
export function pickStep(state: ChooserState, step: string): ChooserState {
  return { ...state, path: [...state.path, step] };
}

/** Make every legal target on the board a button calling `onPick(key)`. */
export function activateTargets(board: HTMLElement, state: ChooserState, onPick: (key: string) => void, onToggle?: (key: string) => void): void {
  const live = targets(openChoices(state));
  const toggles = onToggle && !state.only && !state.path.length ? pickable(state.choices) : new Set<string>();
  for (const el of board.querySelectorAll<HTMLElement>("[data-target]")) {
    const key = el.dataset.target!;
    if (toggles.has(key)) {
      const on = (state.picked ?? []).includes(key);
      el.classList.add("target", "pickable");
      el.classList.toggle("picked", on);
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-pressed", String(on));
      el.addEventListener("click", () => onToggle!(key));
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onToggle!(key);
        }
      });
      continue;
    }
    if (!live.has(key)) continue;
    el.classList.add("target");
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    const count = onTarget(openChoices(state), key).length;
    const label = el.getAttribute("aria-label") ?? el.textContent ?? key;
    el.setAttribute("aria-label", `${label} — ${count === 1 ? onTarget(openChoices(state), key)[0]!.label : `${count} choices`}`);
    el.addEventListener("click", () => onPick(key));
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onPick(key);
      }
    });
  }
}

/** The set being picked: what is picked, and the button that confirms it (enabled when the set is a legal choice). */
function pickPart(state: ChooserState, on: ChooserActions): HTMLElement | false {
  const sets = state.choices.filter((c) => c.picks !== undefined);
  if (!sets.length || state.only || state.path.length) return false;
  const exact = exactPick(sets, state.picked ?? []);
  const n = state.picked?.length ?? 0;
  return h(
    "div",
    { class: "pick-set", role: "group", "aria-label": "choose on the board" },
    h("p", { class: "hint" }, n ? `${n} picked on the board; click again to put one back.` : "Click on the board what to keep, then confirm."),
    h(
      "button",
      { type: "button", class: "choice confirm", disabled: !exact, onclick: () => exact && on.send(exact) },
      exact ? exact.label : "Not a legal choice: pick again",
    ),
  );
}

/** Free actions: folded, apart from what advances the turn. */
function freePart(state: ChooserState, on: ChooserActions): HTMLElement | false {
  const free = state.only || state.path.length ? [] : state.choices.filter((c) => c.free);
  if (!free.length) return false;
  return h(
    "details",
    { class: "free-actions" },
    h("summary", {}, `Free actions (${free.length}), optional`),
    h("div", { class: "choice-group", role: "group", "aria-label": "free actions" }, free.map((c) => h("button", { type: "button", class: "choice quiet", onclick: () => on.send(c) }, c.label))),
  );
}

/** The list part: the next step's options (grouped by kind at the first step) and a way back. */
export function renderChooser(state: ChooserState, on: ChooserActions, preview?: Preview): HTMLElement {
  const open = openChoices(state);
  const panel = h("section", { class: "chooser", "aria-label": "Your choices" });
  const depth = state.path.length;
  const heading = h("h2", {}, depth || state.only ? state.path.join(" › ") || "Choose" : "Your move");
  const base = state.only ?? stepped(state.choices);
  const steps = nextSteps(base, state.path);
  const groups = new Map<string, { step: string; count: number }[]>();
  for (const s of steps) {
    const kind = depth === 0 ? open.find((c) => (c.steps[0] ?? c.label) === s.step)?.kind ?? "" : "";
    const list = groups.get(kind) ?? [];
    list.push(s);
    groups.set(kind, list);
  }
  replace(
    panel,
    heading,
    pickPart(state, on),
    [...groups].map(([kind, list]) =>
      h(
        "div",
        { class: "choice-group", role: "group", "aria-label": kind.replace(/_/g, " ") || "options" },
        list.map((s) => {
          const picture = depth > 0 ? preview?.(narrow(base, [...state.path, s.step])) : undefined;
          return h(
            "button",
            { type: "button", class: `choice${picture ? " with-preview" : ""}`, onclick: () => on.step(s.step) },
            picture,
            s.step,
            s.count > 1 && h("small", {}, ` (${s.count})`),
          );
        }),
      ),
    ),
    freePart(state, on),
    (depth > 0 || state.only) && h("button", { type: "button", class: "back", onclick: on.back }, "← Back"),
  );
  return panel;
}

/** The single choice left, if any. */
export function decided(state: ChooserState): Choice | undefined {
  const open = narrow(state.only ?? stepped(state.choices), state.path);
  return open.length === 1 ? open[0] : undefined;
}

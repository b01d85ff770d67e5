/**
 * The chooser: the legal actions of the seat this page plays, offered two
 * ways at once. Things on the board that a choice is about become buttons
 * (focusable, labelled, Enter/Space to press); everything is also in a list
 * grouped by kind. A decision that takes several steps (a tile's spot, then
 * its rotation, then flipped or not) is made one step at a time, with a way
 * back; when one choice is left it is sent.
 */
import { h, replace } from "../dom.js";
import { type Choice, narrow, nextSteps, onTarget, targets } from "./choices.js";

export interface ChooserState {
  choices: Choice[];
  /** Steps taken so far. */
  path: string[];
  /** Set when a board target was clicked: only its choices remain. */
  only?: Choice[];
}

/** The choices still open. */
export function openChoices(state: ChooserState): Choice[] {
  return narrow(state.only ?? state.choices, state.path);
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
export function activateTargets(board: HTMLElement, state: ChooserState, onPick: (key: string) => void): void {
  const live = targets(openChoices(state));
  for (const el of board.querySelectorAll<HTMLElement>("[data-target]")) {
    const key = el.dataset.target!;
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

/** The list part: the next step's options (grouped by kind at the first step) and a way back. */
export function renderChooser(
  state: ChooserState,
  on: { step: (step: string) => void; back: () => void },
): HTMLElement {
  const open = openChoices(state);
  const panel = h("section", { class: "chooser", "aria-label": "Your choices" });
  const depth = state.path.length;
  const heading = h("h2", {}, depth || state.only ? state.path.join(" › ") || "Choose" : "Your move");
  const steps = nextSteps(state.only ?? state.choices, state.path);
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
    [...groups].map(([kind, list]) =>
      h(
        "div",
        { class: "choice-group", role: "group", "aria-label": kind.replace(/_/g, " ") || "options" },
        list.map((s) =>
          h(
            "button",
            { type: "button", class: "choice", onclick: () => on.step(s.step) },
            s.step,
            s.count > 1 && h("small", {}, ` (${s.count})`),
          ),
        ),
      ),
    ),
    (depth > 0 || state.only) && h("button", { type: "button", class: "back", onclick: on.back }, "← Back"),
  );
  return panel;
}

/** The single choice left, if any. */
export function decided(state: ChooserState): Choice | undefined {
  const open = openChoices(state);
  return open.length === 1 ? open[0] : undefined;
}

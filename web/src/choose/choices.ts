/**
 * Legal actions as choices a person makes. Each game says, for an action,
 * which thing on its board it is about (a target key such as "hand:15" or
 * "spot:-1,2") and the steps that spell it out ("Place the tile", "at -1, 2",
 * "rotated 90°", "not flipped"). Multi-step decisions are then made one step
 * at a time: the choices still open are those whose steps begin with the
 * steps already taken; when one is left it is the decision.
 */
import type { AnyAction, AnyLegalAction } from "../api/clients.js";
import { words } from "../dom.js";

/** How a game names the parts of its actions. */
export interface ActionNaming {
  /** The board element an action is about, or undefined when none is natural. */
  target(action: AnyAction): string | undefined;
  /** The steps that spell the action out; default: [kind in words, label]. */
  steps?(action: AnyAction, label: string): string[] | undefined;
  /**
   * A choice that is a set of things on the board (the starting birds to
   * keep): their target keys. Such choices are made by clicking the things
   * one by one and confirming the set, never from a list of every set.
   */
  picks?(action: AnyAction): string[] | undefined;
  /** An optional action that does not advance the turn (a free action): listed apart, never highlighted on the board. */
  free?(action: AnyAction): boolean;
}

/** One legal action, ready to offer. */
export interface Choice {
  id: number;
  label: string;
  kind: string;
  target?: string;
  steps: string[];
  scoreAfter: number;
  /** The target keys of a set choice (see ActionNaming.picks). */
  picks?: string[];
  /** A free action (see ActionNaming.free). */
  free: boolean;
  /** The action itself, for previews. */
  action?: AnyAction;
}

/** Turn a Legal response's actions into choices. */
export function choicesOf(actions: AnyLegalAction[], naming: ActionNaming): Choice[] {
  return actions.flatMap((a) => {
    // The id is what Apply is sent; an action without one cannot be chosen.
    const id = a.ref?.id;
    if (id === undefined) return [];
    const label = a.ref?.label ?? "";
    const kind = a.ref?.kind ?? a.action?.kind.case ?? "";
    const steps = (a.action && naming.steps?.(a.action, label)) || [capital(words(kind)), label];
    const free = a.action ? (naming.free?.(a.action) ?? false) : false;
    return {
      id,
      label,
      kind,
      target: a.action && !free ? naming.target(a.action) : undefined,
      steps,
      scoreAfter: a.scoreAfter,
      picks: a.action ? naming.picks?.(a.action) : undefined,
      free,
      action: a.action,
    };
  });
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The choices whose steps begin with `path`. */
export function narrow(choices: Choice[], path: string[]): Choice[] {
  return choices.filter((c) => path.every((step, i) => (c.steps[i] ?? c.label) === step));
}

/** The next step's distinct options after `path`, in first-seen order, with how many choices each keeps. */
export function nextSteps(choices: Choice[], path: string[]): { step: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const c of narrow(choices, path)) {
    const step = c.steps[path.length] ?? c.label;
    counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  return [...counts].map(([step, count]) => ({ step, count }));
}

/** The target keys that at least one choice is about. */
export function targets(choices: Choice[]): Set<string> {
  return new Set(choices.flatMap((c) => (c.target ? [c.target] : [])));
}

/** The set choice made of exactly these target keys, if any. */
export function exactPick(choices: Choice[], picked: string[]): Choice | undefined {
  const want = [...picked].sort().join("|");
  return choices.find((c) => c.picks !== undefined && [...c.picks].sort().join("|") === want);
}

/** Every target key some set choice is made of. */
export function pickable(choices: Choice[]): Set<string> {
  return new Set(choices.flatMap((c) => c.picks ?? []));
}

/** The choices about one target. */
export function onTarget(choices: Choice[], target: string): Choice[] {
  return choices.filter((c) => c.target === target);
}

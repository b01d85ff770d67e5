/**
 * Each game's action naming (see choices.ts): which board element an action
 * is about, and the steps of the decisions that take more than one click.
 * The target keys match the `data-target` keys documented at the top of each
 * board module. A game's naming is found by presence: the module
 * naming/<game>.ts exporting `naming`; a game without one gets PLAIN.
 */
import type { GameName } from "../registry.js";
import type { ActionNaming } from "./choices.js";

const MODULES = import.meta.glob<{ naming: ActionNaming }>("./naming/*.ts", { eager: true });

/** The naming of a game without a module of its own: no board targets, each action one step. */
export const PLAIN: ActionNaming = { target: () => undefined };

/** Game name -> its naming module's `naming`. */
export const NAMING: Readonly<Record<string, ActionNaming>> = Object.fromEntries(
  Object.entries(MODULES).map(([path, module]) => [path.replace(/^.*\/|\.ts$/g, ""), module.naming]),
);

/** The naming of a game. */
export function namingOf(game: GameName): ActionNaming {
  return NAMING[game] ?? PLAIN;
}

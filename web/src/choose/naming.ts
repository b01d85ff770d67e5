/**
 * Each game's action naming (see choices.ts): which board element an action
 * is about, and the steps of the decisions that take more than one click.
 * The target keys match the `data-target` keys documented at the top of each
 * board module.
 */
import type { Action as BsAction } from "../gen/roost/birdscaping/v1/types_pb.js";
import { Row } from "../gen/roost/birdscaping/v1/types_pb.js";
import type { Action as SgAction } from "../gen/roost/skygarden/v1/types_pb.js";
import type { Action as UtlAction } from "../gen/roost/undertheleaves/v1/types_pb.js";
import type { Action as WsAction } from "../gen/roost/wingspan/v1/types_pb.js";
import { DieFace, Food, Habitat } from "../gen/roost/wingspan/v1/types_pb.js";
import type { GameName } from "../registry.js";
import { keyOf } from "../presence.js";
import type { ActionNaming } from "./choices.js";

const wingspan: ActionNaming = {
  target(any) {
    const k = (any as WsAction).kind;
    switch (k.case) {
      case "playBird":
        return keyOf("hand", k.value.bird);
      case "discardCard":
      case "tuckCard":
        return keyOf("hand", k.value.bird);
      case "drawFromTray":
        return keyOf("tray", k.value.bird);
      case "drawFromDeck":
        return "deck";
      case "takeDie":
        return `die:${DieFace[k.value.face]}`;
      case "layEgg":
      case "payEgg":
      case "usePower":
      case "repeatPower":
        return keyOf("slot", k.value.bird);
      case "takeAction":
        return `habitat:${Habitat[k.value.habitat]}`;
      case "draftCard":
        return keyOf("draft", k.value.bird);
      case "keepBonus":
        return keyOf("bonus", k.value.bonus);
      default:
        return undefined;
    }
  },
  steps(any, label) {
    const k = (any as WsAction).kind;
    if (k.case === "playBird") return ["Play a bird", label.replace(/ in(to)? (the )?\w+$/, ""), label];
    if (k.case === "takeDie") return ["Take a die", label];
    if (k.case === "payFood") return ["Pay food", label];
    if (k.case === "keepBirds") {
      const n = k.value.birds.length;
      return ["Keep starting birds", `${n} bird${n === 1 ? "" : "s"} (keep ${5 - n} food)`, label];
    }
    if (k.case === "keepFood") return ["Keep starting food", label];
    return undefined;
  },
  picks(any) {
    const k = (any as WsAction).kind;
    if (k.case === "keepBirds") return k.value.birds.map((b) => `setup:${b}`);
    if (k.case === "keepFood") return k.value.foods.map((f) => `food:${Food[f]}`);
    return undefined;
  },
};

const undertheleaves: ActionNaming = {
  target(any) {
    const k = (any as UtlAction).kind;
    switch (k.case) {
      case "takeTile":
        return keyOf("market", k.value.slot);
      case "placeTile":
        return keyOf("spot", k.value.x, k.value.y);
      case "placeDweller":
        return keyOf("cell", k.value.x, k.value.y);
      default:
        return undefined;
    }
  },
  steps(any, label) {
    const k = (any as UtlAction).kind;
    if (k.case === "placeTile") {
      const v = k.value;
      // Without its spot and rotation the action is only its label.
      if (v.x === undefined || v.y === undefined || v.rotation === undefined) return undefined;
      return ["Place the tile", `at ${v.x}, ${v.y}`, `rotated ${v.rotation}°`, v.flipped ? "flipped" : "not flipped"];
    }
    if (k.case === "placeDweller") return ["Place a dweller", label];
    return undefined;
  },
};

/** Sky Garden's free actions (rulebook, "Free Actions"): optional at any time of the turn, never what advances it. */
const SKYGARDEN_FREE = new Set(["claimMilestone", "birdToForest", "treeToForest", "refillLake", "nestAdd", "nestRemove"]);

const skygarden: ActionNaming = {
  free(any) {
    return SKYGARDEN_FREE.has((any as SgAction).kind.case ?? "");
  },
  target(any) {
    const k = (any as SgAction).kind;
    switch (k.case) {
      case "moveOwner":
        return keyOf("track", k.value.space);
      case "enterStandby":
        return "standby";
      case "keepEvent":
        return `event:${k.value.card}`;
      case "claimMilestone":
        return keyOf("milestone", k.value.slot);
      case "placeBird":
      case "buyNest":
      case "buyTree":
      case "buyLake":
      case "buyForestBird":
      case "buySpecial":
      case "birdToForest":
      case "treeToForest":
      case "refillLake":
      case "nestAdd":
      case "nestRemove":
      case "bonusBird":
      case "bonusElement":
        return keyOf("area", k.value.area);
      default:
        return undefined;
    }
  },
};

const birdscaping: ActionNaming = {
  target(any) {
    const k = (any as BsAction).kind;
    switch (k.case) {
      case "playCard":
      case "payDiscard":
      case "paySpend":
      case "orderDiscard":
      case "draftDiscard":
      case "draftSpend":
      case "soloGive":
      case "handLimitDiscard":
        return keyOf("hand", k.value.card);
      case "draftKeep":
        return `packet:${k.value.card}`;
      case "draftFromOffer":
      case "abilityTakeOffer":
        return `offer:${k.value.card}`;
      case "draftFromDiscard":
        return `discard:${k.value.card}`;
      case "draftFromDeck":
      case "drawCard":
        return "deck";
      case "activateRow":
        return `row:${Row[k.value.row]}`;
      case "untilt":
      case "abilityTilt":
      case "opponentUntilt":
        return `tableau:${k.value.card}`;
      case "abilityKeep":
      case "abilityDiscard":
        return `looked:${k.value.card}`;
      default:
        return undefined;
    }
  },
  steps(any, label) {
    const k = (any as BsAction).kind;
    if (k.case === "playCard") return ["Play a card", label.replace(/ (in|into|to) .*$/, ""), label];
    return undefined;
  },
};

export const NAMING: Record<GameName, ActionNaming> = { wingspan, undertheleaves, skygarden, birdscaping };

/** The naming of a game. */
export function namingOf(game: GameName): ActionNaming {
  return NAMING[game];
}


/** This game's action naming (see ../choices.ts and ../naming.ts). */
import type { Action as WsAction } from "../../gen/roost/wingspan/v1/types_pb.js";
import { DieFace, Food, Habitat } from "../../gen/roost/wingspan/v1/types_pb.js";
import { keyOf } from "../../presence.js";
import type { ActionNaming } from "../choices.js";

export const naming: ActionNaming = {
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

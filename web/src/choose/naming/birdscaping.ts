/** This game's action naming (see ../choices.ts and ../naming.ts). */
import type { Action as BsAction } from "../../gen/roost/birdscaping/v1/types_pb.js";
import { Row } from "../../gen/roost/birdscaping/v1/types_pb.js";
import { keyOf } from "../../presence.js";
import type { ActionNaming } from "../choices.js";

export const naming: ActionNaming = {
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

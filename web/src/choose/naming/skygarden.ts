/** This game's action naming (see ../choices.ts and ../naming.ts). */
import type { Action as SgAction } from "../../gen/roost/skygarden/v1/types_pb.js";
import { keyOf } from "../../presence.js";
import type { ActionNaming } from "../choices.js";

/** Sky Garden's free actions (rulebook, "Free Actions"): optional at any time of the turn, never what advances it. */
const SKYGARDEN_FREE = new Set(["claimMilestone", "birdToForest", "treeToForest", "refillLake", "nestAdd", "nestRemove"]);

export const naming: ActionNaming = {
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

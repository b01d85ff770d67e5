/** This game's action naming (see ../choices.ts and ../naming.ts). */
import type { Action as UtlAction } from "../../gen/roost/undertheleaves/v1/types_pb.js";
import { keyOf } from "../../presence.js";
import type { ActionNaming } from "../choices.js";

export const naming: ActionNaming = {
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

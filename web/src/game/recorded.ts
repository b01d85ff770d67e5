/**
 * A GameModel from a recorded position (tools/record_web_fixtures.py writes
 * them: GetState, Legal and Score responses as proto JSON, plus the game's
 * catalogue). Used by the unit tests and by the page's fixture mode
 * (`?fixture=wingspan/2p-mid`), which draws a board without any server.
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import type { AnyLegalAction, AnyView } from "../api/clients.js";
import type { ScoreBoard, Seat } from "../gen/roost/common/v1/common_pb.js";
import { EventSchema, GameStatus } from "../gen/roost/common/v1/common_pb.js";
import { choicesOf } from "../choose/choices.js";
import { kitOf } from "../games/index.js";
import { seatOf } from "../presence.js";
import type { GameName } from "../registry.js";
import type { GameModel } from "./model.js";

export interface RecordedPosition {
  state: JsonValue;
  legal: JsonValue;
  score: JsonValue;
  /** The last log events (common.v1.Event JSON), when recorded. */
  log?: JsonValue[];
}

const options = { ignoreUnknownFields: true };

/** Decode a recorded position and its game's catalogue (GetCatalogue response JSON). */
export function modelFromRecording(game: GameName, position: RecordedPosition, catalogueResponse: JsonValue): GameModel {
  const kit = kitOf(game);
  // The schemas differ per game; the shapes the model needs are shared.
  const state = fromJson(kit.schemas.getStateResponse, position.state, options) as any;
  const legal = fromJson(kit.schemas.legalResponse, position.legal, options) as any;
  const score = fromJson(kit.schemas.scoreResponse, position.score, options) as any;
  const catalogue = fromJson(kit.schemas.catalogueResponse, catalogueResponse, options) as any;
  const actions = legal.actions as AnyLegalAction[];
  // -1 or absent: a spectator.
  const viewerSeat: number = seatOf(state.viewerSeat) ?? -1;
  const asked = actions.length > 0 && viewerSeat >= 0;
  return {
    game,
    gameId: state.gameId,
    seats: state.seats as Seat[],
    viewerSeat,
    version: state.version,
    finished: state.status === GameStatus.FINISHED,
    toAct: state.toAct,
    view: state.view as AnyView,
    catalogue: catalogue.catalogue,
    chooser: asked ? { choices: choicesOf(actions, kit.naming), path: [] } : undefined,
    choiceVersion: asked ? (legal.version as bigint) : undefined,
    score: score.scoreboard as ScoreBoard,
    log: (position.log ?? []).map((e) => fromJson(EventSchema, e, options)),
    connection: "fixture",
  };
}

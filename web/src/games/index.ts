/**
 * What the app knows about each game beyond the generic service shape: its
 * generated schemas (to decode recorded JSON and the catalogue), its board
 * and its action naming. Adding a game means one entry here, a board module
 * and a naming entry.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import * as bsCat from "../gen/roost/birdscaping/v1/catalogue_pb.js";
import * as bsOpt from "../gen/roost/birdscaping/v1/options_pb.js";
import * as bs from "../gen/roost/birdscaping/v1/service_pb.js";
import * as sgCat from "../gen/roost/skygarden/v1/catalogue_pb.js";
import * as sgOpt from "../gen/roost/skygarden/v1/options_pb.js";
import * as sg from "../gen/roost/skygarden/v1/service_pb.js";
import * as utlCat from "../gen/roost/undertheleaves/v1/catalogue_pb.js";
import * as utlOpt from "../gen/roost/undertheleaves/v1/options_pb.js";
import * as utl from "../gen/roost/undertheleaves/v1/service_pb.js";
import * as wsCat from "../gen/roost/wingspan/v1/catalogue_pb.js";
import * as wsOpt from "../gen/roost/wingspan/v1/options_pb.js";
import * as ws from "../gen/roost/wingspan/v1/service_pb.js";
import type { GameName } from "../registry.js";
import { renderBirdscaping } from "../boards/birdscaping.js";
import type { BoardInput } from "../boards/kit.js";
import { renderSkyGarden } from "../boards/skygarden.js";
import { previewTile, renderUnderTheLeaves } from "../boards/undertheleaves.js";
import { renderWingspan } from "../boards/wingspan.js";
import type { ActionNaming, Choice } from "../choose/choices.js";
import { NAMING } from "../choose/naming.js";

export interface GameKit {
  schemas: {
    getStateResponse: DescMessage;
    legalResponse: DescMessage;
    scoreResponse: DescMessage;
    catalogueResponse: DescMessage;
    catalogue: DescMessage;
    options: DescMessage;
  };
  render(input: BoardInput<any, any>): HTMLElement;
  naming: ActionNaming;
  /** A picture of what a step of a choice would do (Under the Leaves: the tile turned and flipped). */
  preview?(view: any, choices: Choice[]): HTMLElement | undefined;
}

function schemas(svc: typeof ws | typeof utl | typeof sg | typeof bs, catalogue: DescMessage, options: DescMessage) {
  return {
    getStateResponse: svc.GetStateResponseSchema,
    legalResponse: svc.LegalResponseSchema,
    scoreResponse: svc.ScoreResponseSchema,
    catalogueResponse: svc.GetCatalogueResponseSchema,
    catalogue,
    options,
  };
}

export const KITS: Record<GameName, GameKit> = {
  wingspan: { schemas: schemas(ws, wsCat.CatalogueSchema, wsOpt.OptionsSchema), render: renderWingspan, naming: NAMING.wingspan },
  undertheleaves: { schemas: schemas(utl, utlCat.CatalogueSchema, utlOpt.OptionsSchema), render: renderUnderTheLeaves, naming: NAMING.undertheleaves, preview: previewTile },
  skygarden: { schemas: schemas(sg, sgCat.CatalogueSchema, sgOpt.OptionsSchema), render: renderSkyGarden, naming: NAMING.skygarden },
  birdscaping: { schemas: schemas(bs, bsCat.CatalogueSchema, bsOpt.OptionsSchema), render: renderBirdscaping, naming: NAMING.birdscaping },
};

/** The kit of a game. */
export function kitOf(game: GameName): GameKit {
  return KITS[game];
}


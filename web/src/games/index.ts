/**
 * What the app knows about each game beyond the generic service shape: its
 * generated schemas (to decode recorded JSON and the catalogue), its board
 * and its action naming. Every game of the registry (registry.ts, generated
 * from protos/roost/games.toml) has a kit, and each part is found by presence:
 *
 * - the schemas in the generated code, src/gen/roost/<game>/v1/{service,catalogue,options}_pb.ts;
 * - the board: src/boards/<game>.ts exporting `render<Service>` (e.g. `renderWingspan`),
 *   and optionally a `preview…` function; a game without one is drawn as its view's JSON;
 * - the naming: src/choose/naming/<game>.ts (see choose/naming.ts).
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { type GameEntry, type GameName, GAMES } from "../registry.js";
import type { BoardInput } from "../boards/kit.js";
import type { ActionNaming, Choice } from "../choose/choices.js";
import { namingOf } from "../choose/naming.js";

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

interface ServiceModule {
  GetStateResponseSchema: DescMessage;
  LegalResponseSchema: DescMessage;
  ScoreResponseSchema: DescMessage;
  GetCatalogueResponseSchema: DescMessage;
}

const SERVICES = import.meta.glob<ServiceModule>("../gen/roost/*/v1/service_pb.ts", { eager: true });
const CATALOGUES = import.meta.glob<{ CatalogueSchema: DescMessage }>("../gen/roost/*/v1/catalogue_pb.ts", { eager: true });
const OPTIONS = import.meta.glob<{ OptionsSchema: DescMessage }>("../gen/roost/*/v1/options_pb.ts", { eager: true });
const BOARDS = import.meta.glob<Record<string, unknown>>("../boards/*.ts", { eager: true });

type Render = GameKit["render"];
type Preview = NonNullable<GameKit["preview"]>;

/** The board of a game without a board module: its view as JSON. */
function renderPlain(input: BoardInput<any, any>): HTMLElement {
  const board = document.createElement("pre");
  board.className = "board board-plain";
  board.textContent = JSON.stringify(input.view, (_key, value) => (typeof value === "bigint" ? String(value) : value), 1);
  return board;
}

function kitFor(entry: GameEntry): GameKit {
  const dir = `../gen/roost/${entry.name}/v1`;
  const svc = SERVICES[`${dir}/service_pb.ts`];
  const catalogue = CATALOGUES[`${dir}/catalogue_pb.ts`]?.CatalogueSchema;
  const options = OPTIONS[`${dir}/options_pb.ts`]?.OptionsSchema;
  if (svc === undefined || catalogue === undefined || options === undefined) {
    throw new Error(`no generated code for ${entry.service} (npm run gen)`);
  }
  const board = BOARDS[`../boards/${entry.name}.ts`] ?? {};
  const serviceName = entry.service.slice(entry.service.lastIndexOf(".") + 1);
  const render = (board[`render${serviceName}`] as Render | undefined) ?? renderPlain;
  const previewName = Object.keys(board).find((name) => name.startsWith("preview"));
  const kit: GameKit = {
    schemas: {
      getStateResponse: svc.GetStateResponseSchema,
      legalResponse: svc.LegalResponseSchema,
      scoreResponse: svc.ScoreResponseSchema,
      catalogueResponse: svc.GetCatalogueResponseSchema,
      catalogue,
      options,
    },
    render,
    naming: namingOf(entry.name),
  };
  if (previewName !== undefined) kit.preview = board[previewName] as Preview;
  return kit;
}

export const KITS = Object.fromEntries(GAMES.map((entry) => [entry.name, kitFor(entry)])) as Record<GameName, GameKit>;

/** The kit of a game. */
export function kitOf(game: GameName): GameKit {
  return KITS[game];
}

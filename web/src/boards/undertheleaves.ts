/**
 * The Under the Leaves board: the market's face-up tiles with their four
 * spaces, the bag count, the tile being placed, the dweller cards in play,
 * and every garden as a grid of cells (terrain colour, mushrooms) with the
 * bees of each pollinized sector, the hummingbirds on each tile's nest and
 * the dwellers.
 *
 * Geometry (types.proto): the tile at (x, y), y growing upwards, covers cells
 * (2x, 2y) (2x+1, 2y) on its top row and (2x, 2y-1) (2x+1, 2y-1) below.
 *
 * Target keys: "market:<slot>", "spot:<x>,<y>" (a tile position), "cell:<x>,<y>".
 */
import { h } from "../dom.js";
import type { Catalogue } from "../gen/roost/undertheleaves/v1/catalogue_pb.js";
import {
  Family,
  type Garden,
  Phase,
  type Space,
  Terrain,
  type View,
} from "../gen/roost/undertheleaves/v1/types_pb.js";
import { keyOf, seatOf, viewerFirst } from "../presence.js";
import { type BoardInput, region, seatHeading, seatName, stat } from "./kit.js";
import { symbol } from "./symbols.js";
import type { Choice } from "../choose/choices.js";
import type { Action } from "../gen/roost/undertheleaves/v1/types_pb.js";

type Input = BoardInput<View, Catalogue>;

function terrainWord(t: Terrain): string {
  return (Terrain[t] ?? "").toLowerCase();
}

/** The four cells of the tile at (x, y), in reading order. */
export function tileCells(x: number, y: number): [number, number][] {
  return [
    [2 * x, 2 * y],
    [2 * x + 1, 2 * y],
    [2 * x, 2 * y - 1],
    [2 * x + 1, 2 * y - 1],
  ];
}

/** Four spaces as a 2x2 tile picture. */
function miniTile(spaces: Space[], label: string, target?: string): HTMLElement {
  return h(
    "div",
    { class: "mini-tile", "data-target": target, "aria-label": label, role: "img" },
    spaces.map((s) =>
      h("span", { class: `cell terrain-${terrainWord(s.terrain)}` }, s.mushroom ? h("span", { class: "mushroom", "aria-hidden": "true" }) : ""),
    ),
  );
}

/** The spaces (top-left, top-right, bottom-left, bottom-right) turned clockwise by `rotation`, then mirrored when `flipped` (the rules' orientation). */
export function orient<T>(spaces: T[], rotation: number, flipped: boolean): T[] {
  let face = [...spaces];
  for (let i = 0; i < ((rotation / 90) % 4 + 4) % 4; i++) face = [face[2]!, face[0]!, face[3]!, face[1]!];
  return flipped ? [face[1]!, face[0]!, face[3]!, face[2]!] : face;
}

/**
 * The chooser's preview of a tile placement step: the tile to place as it
 * would lie, for the first of the choices (the unflipped one when the step
 * is a rotation and both remain).
 */
export function previewTile(view: View, choices: Choice[]): HTMLElement | undefined {
  const placed = choices.map((c) => (c.action as Action | undefined)?.kind).flatMap((k) => (k?.case === "placeTile" ? [k.value] : []));
  const pick = placed.find((p) => !p.flipped) ?? placed[0];
  if (!pick || pick.rotation === undefined || view.takenSpaces.length !== 4) return undefined;
  const spaces = orient(view.takenSpaces, pick.rotation, pick.flipped && placed.every((p) => p.flipped));
  return miniTile(spaces, `the tile ${spaceWords(spaces)}`);
}

/** What each colour of the gardens is, with its symbol. */
function legend(): HTMLElement {
  const terrains = [Terrain.PINK, Terrain.YELLOW, Terrain.ORANGE, Terrain.PURPLE, Terrain.GREEN, Terrain.PUDDLE];
  return h(
    "ul",
    { class: "legend", "aria-label": "colour legend" },
    terrains.map((t) => h("li", {}, h("span", { class: `swatch terrain-${terrainWord(t)}`, "aria-hidden": "true" }), symbol(`terrain-${terrainWord(t)}`), h("span", {}, terrainWord(t) === "puddle" ? "puddle" : `${terrainWord(t)} leaves`))),
    h("li", {}, symbol("mushroom"), h("span", {}, "mushroom")),
    h("li", {}, symbol("bee"), h("span", {}, "bees on a pollinized sector")),
    h("li", {}, symbol("hummingbird"), h("span", {}, "hummingbird on a nest")),
  );
}

function spaceWords(spaces: Space[]): string {
  return spaces.map((s) => `${terrainWord(s.terrain)}${s.mushroom ? " with mushroom" : ""}`).join(", ");
}

interface CellInfo {
  terrain: Terrain;
  mushroom: boolean;
  marks: string[];
}

/** A garden as a CSS grid of cells, with ghost spots for legal tile placements. */
function gardenGrid(input: Input, garden: Garden): HTMLElement {
  const cells = new Map<string, CellInfo>();
  for (const tile of garden.tiles) {
    // A tile without its position cannot be placed on the grid.
    if (tile.x === undefined || tile.y === undefined) continue;
    tileCells(tile.x, tile.y).forEach(([cx, cy], i) => {
      cells.set(`${cx},${cy}`, {
        terrain: tile.terrains[i] ?? Terrain.UNSPECIFIED,
        mushroom: tile.mushrooms[i] ?? false,
        marks: i === 0 && tile.hummingbirds > 0 ? [`${tile.hummingbirds} hummingbird${tile.hummingbirds > 1 ? "s" : ""}`] : [],
      });
    });
  }
  for (const sector of garden.beeSectors) {
    const first = sector.cells[0];
    const cell = first && cells.get(`${first.x},${first.y}`);
    if (cell && sector.bees > 0) cell.marks.push(`${sector.bees} bee${sector.bees > 1 ? "s" : ""}`);
  }
  const names = new Map(input.view.dwellerCards.map((d) => [d.id, d.name]));
  for (const d of garden.dwellers) {
    const cell = cells.get(`${d.x},${d.y}`);
    if (cell) cell.marks.push(names.get(d.card) ?? d.card);
  }
  const own = garden.seat !== undefined && garden.seat === input.viewerSeat;
  const spots = own
    ? [...(input.targets ?? [])].filter((t) => t.startsWith("spot:")).map((t) => t.slice(5).split(",").map(Number) as [number, number])
    : [];
  const cellTargets = own ? [...(input.targets ?? [])].filter((t) => t.startsWith("cell:")) : [];
  const coords = [...cells.keys()].map((k) => k.split(",").map(Number) as [number, number]);
  for (const [sx, sy] of spots) coords.push(...tileCells(sx, sy));
  const xs = coords.map((c) => c[0]);
  const ys = coords.map((c) => c[1]);
  const minX = Math.min(0, ...xs);
  const maxY = Math.max(1, ...ys);
  const col = (x: number) => x - minX + 1;
  const row = (y: number) => maxY - y + 1;
  const drawn = [...cells].map(([key, info]) => {
    const [x, y] = key.split(",").map(Number) as [number, number];
    const words = [terrainWord(info.terrain), info.mushroom ? "mushroom" : "", ...info.marks].filter(Boolean).join(", ");
    return h(
      "div",
      {
        class: `cell terrain-${terrainWord(info.terrain)}${cellTargets.includes(`cell:${key}`) ? " candidate" : ""}`,
        style: `grid-column:${col(x)};grid-row:${row(y)}`,
        "data-target": own ? `cell:${key}` : undefined,
        "aria-label": `cell ${key}: ${words}`,
        role: "gridcell",
      },
      info.mushroom && h("span", { class: "mushroom", "aria-hidden": "true" }),
      info.marks.map((m) => {
        const piece = /^(\d+) (bee|hummingbird)s?$/.exec(m);
        return piece
          ? h("span", { class: `mark piece-${piece[2]}`, title: m, "aria-hidden": "true" }, symbol(piece[2]!, m, 14), Number(piece[1]) > 1 && String(piece[1]))
          : h("span", { class: "mark", title: m }, m);
      }),
    );
  });
  const ghosts = spots.map(([sx, sy]) =>
    h("div", {
      class: "spot",
      style: `grid-column:${col(2 * sx)} / span 2;grid-row:${row(2 * sy)} / span 2`,
      "data-target": `spot:${sx},${sy}`,
      "aria-label": `place the tile at ${sx}, ${sy}`,
    }),
  );
  return h("div", { class: "garden-grid", role: "grid", "aria-label": `${seatName(input.seats, garden.seat)}'s garden` }, drawn, ghosts);
}

function gardenPanel(input: Input, garden: Garden): HTMLElement {
  const p = garden.pieces;
  return h(
    "section",
    { class: `garden${garden.seat !== undefined && garden.seat === input.viewerSeat ? " own" : ""}`, "aria-label": `${seatName(input.seats, garden.seat)}'s garden` },
    seatHeading(input, garden.seat),
    h(
      "p",
      { class: "facts" },
      stat("Score", garden.score),
      p && [
        stat("Bees", p.bees),
        stat("Hummingbirds", p.hummingbirds),
        stat("Leaf dwellers", p.leaf),
        stat("Puddle dwellers", p.puddle),
        stat("Mushroom dwellers", p.mushroom),
      ],
    ),
    gardenGrid(input, garden),
  );
}

/** Draw the Under the Leaves board. */
export function renderUnderTheLeaves(input: Input): HTMLElement {
  const v = input.view;
  const gardens = [...v.gardens].sort(viewerFirst(input.viewerSeat));
  return h(
    "div",
    { class: "board board-undertheleaves" },
    h(
      "p",
      { class: "status-line" },
      stat("Turn", `${Math.min(v.turnsPlayed + 1, v.turnsTotal)} of ${v.turnsTotal}`),
      " ",
      stat("Phase", (Phase[v.phase] ?? "").toLowerCase().replace(/_/g, " ")),
      seatOf(v.currentSeat) !== undefined && v.phase !== Phase.OVER && [" ", stat("Current player", seatName(input.seats, v.currentSeat))],
    ),
    region(
      "Market",
      "market",
      h(
        "div",
        { class: "market-tiles", role: "list" },
        v.market.map((m) =>
          h("div", { class: "market-slot", role: "listitem" }, miniTile(m.spaces, `market ${m.slot !== undefined ? `slot ${m.slot}` : "tile"}, tile ${m.tile}: ${spaceWords(m.spaces)}`, keyOf("market", m.slot)), h("small", {}, `slot ${m.slot ?? "?"}`)),
        ),
      ),
      h("p", {}, stat("Tiles in the bag", v.bagCount)),
      v.takenTile && h("div", { class: "taken" }, h("span", {}, "Tile to place: "), miniTile(v.takenSpaces, `tile to place ${v.takenTile}: ${spaceWords(v.takenSpaces)}`)),
      v.pendingCard && h("p", {}, `Dweller to place: ${v.dwellerCards.find((d) => d.id === v.pendingCard)?.name ?? v.pendingCard}`),
    ),
    region("Colours", "legend-region", legend()),
    region(
      "Dwellers",
      "dwellers",
      h(
        "ul",
        { class: "dweller-cards" },
        v.dwellerCards.map((d) =>
          h("li", {}, symbol(`family-${(Family[d.family] ?? "").toLowerCase()}`), " ", h("strong", {}, d.name), ` (${(Family[d.family] ?? "").toLowerCase()}): ${d.condition} `, h("small", {}, `Placement: ${d.placement}.`)),
        ),
      ),
    ),
    h("div", { class: "gardens" }, gardens.map((g) => gardenPanel(input, g))),
  );
}

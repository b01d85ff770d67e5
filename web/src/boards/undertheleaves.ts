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
        marks: i === 0 && tile.hummingbirds > 0 ? [`hum ${tile.hummingbirds}`] : [],
      });
    });
  }
  for (const sector of garden.beeSectors) {
    const first = sector.cells[0];
    const cell = first && cells.get(`${first.x},${first.y}`);
    if (cell && sector.bees > 0) cell.marks.push(`bee ${sector.bees}`);
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
      info.marks.map((m) => h("span", { class: "mark", title: m }, m)),
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
      p && [stat("Bees", p.bees), stat("Hummingbirds", p.hummingbirds), stat("Leaf", p.leaf), stat("Puddle", p.puddle), stat("Mushroom", p.mushroom)],
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
          h("div", { class: "market-slot", role: "listitem" }, miniTile(m.spaces, `market ${m.slot !== undefined ? `slot ${m.slot + 1}` : "tile"}, tile ${m.tile}: ${spaceWords(m.spaces)}`, keyOf("market", m.slot)), h("small", {}, m.tile)),
        ),
      ),
      h("p", {}, stat("Tiles in the bag", v.bagCount)),
      v.takenTile && h("div", { class: "taken" }, h("span", {}, `Tile to place: ${v.takenTile}`), miniTile(v.takenSpaces, `tile to place ${v.takenTile}: ${spaceWords(v.takenSpaces)}`)),
      v.pendingCard && h("p", {}, `Dweller to place: ${v.dwellerCards.find((d) => d.id === v.pendingCard)?.name ?? v.pendingCard}`),
    ),
    region(
      "Dwellers",
      "dwellers",
      h(
        "ul",
        { class: "dweller-cards" },
        v.dwellerCards.map((d) =>
          h("li", {}, h("strong", {}, d.name), ` (${(Family[d.family] ?? "").toLowerCase()}): ${d.condition} `, h("small", {}, `Placement: ${d.placement}.`)),
        ),
      ),
    ),
    h("div", { class: "gardens" }, gardens.map((g) => gardenPanel(input, g))),
  );
}

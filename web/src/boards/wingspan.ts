/**
 * The Wingspan board: the feeder's dice, the tray, the deck, the round goals
 * with each seat's standing, and every player's mat (forest, grassland and
 * wetland rows of five spaces with each bird's eggs, cached food and tucked
 * cards), food, bonus cards and hand. A hand card shows its cost, points,
 * nest, wingspan, habitats and power from the catalogue. Other seats' hands
 * are drawn as a count (the view does not carry them).
 *
 * Target keys: "die:<FACE>", "tray:<bird>", "deck", "hand:<bird>",
 * "slot:<bird>", "habitat:<HABITAT>", "draft:<bird>", "bonus:<bonus>",
 * "setup:<bird>".
 */
import { h } from "../dom.js";
import type { Catalogue, CatalogueBird } from "../gen/roost/wingspan/v1/catalogue_pb.js";
import { FoodCostMode } from "../gen/roost/wingspan/v1/catalogue_pb.js";
import {
  type BirdSlot,
  type BonusCard,
  type Card,
  DecisionKind,
  DieFace,
  Food,
  type FoodCounts,
  Habitat,
  Nest,
  Phase,
  type PlayerView,
  PowerColor,
  SetupStage,
  type View,
} from "../gen/roost/wingspan/v1/types_pb.js";
import { keyOf, seatOf, viewerFirst } from "../presence.js";
import { type BoardInput, region, seatHeading, seatName, stat } from "./kit.js";
import { symbol, symbols } from "./symbols.js";

type Input = BoardInput<View, Catalogue>;

const FOODS = ["invertebrate", "seed", "fish", "fruit", "rodent"] as const;
const FOOD_ENUMS = [
  ["invertebrate", Food.INVERTEBRATE],
  ["seed", Food.SEED],
  ["fish", Food.FISH],
  ["fruit", Food.FRUIT],
  ["rodent", Food.RODENT],
] as const;
const HABITATS = [Habitat.FOREST, Habitat.GRASSLAND, Habitat.WETLAND] as const;
const SLOTS_PER_HABITAT = 5;

/** "FOREST" → "forest". */
function word(name: string | undefined): string {
  return (name ?? "").toLowerCase().replace(/_/g, " ");
}

/** Food counts as "2 fish, 1 seed" ("none" when empty). */
export function foodText(food: FoodCounts | undefined): string {
  if (!food) return "none";
  const parts = FOODS.filter((f) => food[f] > 0).map((f) => `${food[f]} ${f}`);
  return parts.length ? parts.join(", ") : "none";
}

/** Food tokens as symbols with their counts ("none" when empty). */
function foodSymbols(food: FoodCounts | undefined): HTMLElement {
  const have = FOODS.filter((f) => (food?.[f] ?? 0) > 0);
  return h("span", { class: "food-tokens", role: "img", "aria-label": foodText(food), title: foodText(food) }, have.length ? have.map((f) => h("span", { class: "food-token", "aria-hidden": "true" }, hide(symbol(f)), String(food![f]))) : "none");
}

/** A bird's food cost in words: "3 seed", "1 fish or 1 fruit", "free". */
export function costText(bird: CatalogueBird): string {
  if (bird.foodCostMode === FoodCostMode.NONE || bird.foodCostTotal === 0) return "free";
  const parts = FOODS.filter((f) => (bird.foodCost?.[f] ?? 0) > 0).map(
    (f) => `${bird.foodCost![f]} ${f}`,
  );
  if (bird.wildFood > 0) parts.push(`${bird.wildFood} any food`);
  return parts.join(bird.foodCostMode === FoodCostMode.ANY ? " or " : " + ");
}

/** A bird's food cost as symbols: "/" between alternatives, "+" between what is all paid. */
function costSymbols(bird: CatalogueBird): HTMLElement {
  if (bird.foodCostMode === FoodCostMode.NONE || bird.foodCostTotal === 0) return h("span", { class: "cost-syms" }, "free");
  const icons: HTMLElement[] = [];
  for (const f of FOODS) for (let i = 0; i < (bird.foodCost?.[f] ?? 0); i++) icons.push(symbol(f));
  for (let i = 0; i < bird.wildFood; i++) icons.push(symbol("wild"));
  const sep = bird.foodCostMode === FoodCostMode.ANY ? "/" : "";
  return h(
    "span",
    { class: "cost-syms", role: "img", "aria-label": `cost: ${costText(bird)}`, title: `cost: ${costText(bird)}` },
    icons.flatMap((el, i) => (i && sep ? [h("span", { class: "sep", "aria-hidden": "true" }, sep), hide(el)] : [hide(el)])),
  );
}

/** A symbol inside a labelled group: its own label is the group's. */
function hide(el: HTMLElement): HTMLElement {
  el.removeAttribute("role");
  el.removeAttribute("aria-label");
  el.setAttribute("aria-hidden", "true");
  return el;
}

function nestName(nest: Nest): string {
  return nest === Nest.NONE || nest === Nest.UNSPECIFIED ? "none" : word(Nest[nest]);
}

function birdIndex(catalogue: Catalogue): Map<number, CatalogueBird> {
  return new Map(catalogue.birds.flatMap((b) => (b.bird === undefined ? [] : [[b.bird, b]])));
}

/** A bird's catalogue entry; none for a card without its index. */
function info(birds: Map<number, CatalogueBird>, bird: number | undefined): CatalogueBird | undefined {
  return bird === undefined ? undefined : birds.get(bird);
}

function powerClass(color: PowerColor): string {
  return `power power-${word(PowerColor[color])}`;
}

/**
 * A bird card laid out like the printed one: habitats and food cost down the
 * left edge, the name at the top, points, nest, egg limit and wingspan in
 * the middle band, the power in its colour along the bottom.
 */
function birdCard(card: Card, info: CatalogueBird | undefined, target: string | undefined): HTMLElement {
  const name = card.name || info?.name || (card.bird !== undefined ? `bird ${card.bird}` : "a bird");
  return h(
    "article",
    { class: "card bird-card", "data-target": target, "aria-label": name },
    info && h("div", { class: "card-side" }, h("span", { class: "habitat-syms" }, info.habitats.map((x) => symbol(word(Habitat[x])))), costSymbols(info)),
    h(
      "div",
      { class: "card-main" },
      h("h4", {}, name),
      info &&
        h(
          "p",
          { class: "card-band" },
          h("span", { class: "points", title: `${info.points} points`, "aria-label": `${info.points} points` }, symbol("points", `${info.points} points`, 14), h("b", { "aria-hidden": "true" }, String(info.points))),
          symbol(`nest-${nestName(info.nest)}`),
          symbols("egg", info.eggLimit, `up to ${info.eggLimit} egg${info.eggLimit === 1 ? "" : "s"}`, 11),
          h("span", { class: "wingspan-cm" }, `${info.wingspanCm} cm`),
        ),
      info?.power && h("p", { class: powerClass(info.powerColor) }, info.power),
    ),
  );
}

/** A bird on a mat with what lies on it. */
function slotCard(slot: BirdSlot, own: boolean, info: CatalogueBird | undefined): HTMLElement {
  return h(
    "article",
    { class: "card slot-card", "data-target": own ? keyOf("slot", slot.bird) : undefined, "aria-label": slot.name },
    h("h4", {}, slot.name),
    h(
      "p",
      { class: "card-band" },
      h("span", { class: "points", "aria-label": `${slot.points} points`, title: `${slot.points} points` }, symbol("points", `${slot.points} points`, 14), h("b", { "aria-hidden": "true" }, String(slot.points))),
      info && symbol(`nest-${nestName(info.nest)}`),
      h("span", { class: "eggs", role: "img", "aria-label": `${slot.eggs} of ${slot.eggLimit} eggs`, title: `${slot.eggs} of ${slot.eggLimit} eggs` }, Array.from({ length: slot.eggLimit }, (_x, i) => h("span", { class: `egg-slot${i < slot.eggs ? " laid" : ""}`, "aria-hidden": "true" }))),
    ),
    h(
      "p",
      { class: "facts" },
      slot.cachedFood > 0 && h("span", { class: "cached" }, `cached food ${slot.cachedFood}`),
      slot.tuckedCards > 0 && h("span", { class: "tucked" }, `tucked cards ${slot.tuckedCards}`),
      slot.pinkUsed && h("span", {}, "pink power used"),
    ),
    slot.power && h("p", { class: powerClass(slot.powerColor) }, slot.power),
  );
}

function habitatRow(player: PlayerView, habitat: Habitat, own: boolean, birds: Map<number, CatalogueBird>): HTMLElement {
  const name = word(Habitat[habitat]);
  const allBirds = birds;
  const row = player[name as "forest" | "grassland" | "wetland"];
  const empty = Array.from({ length: Math.max(0, SLOTS_PER_HABITAT - row.length) }, () =>
    h("div", { class: "card empty-slot", "aria-hidden": "true" }),
  );
  return h(
    "div",
    { class: `habitat habitat-${name}`, role: "group", "aria-label": `${name}` },
    h("div", { class: "habitat-name", "data-target": own ? `habitat:${Habitat[habitat]}` : undefined, "aria-label": name }, symbol(name, name, 28), h("span", {}, name)),
    h("div", { class: "slots" }, row.map((b) => slotCard(b, own, info(allBirds, b.bird))), empty),
  );
}

function bonusCard(card: BonusCard, target?: string): HTMLElement {
  return h(
    "article",
    { class: "card bonus-card", "data-target": target, "aria-label": card.name },
    h("h4", {}, card.name),
    h("p", {}, card.condition),
    (card.count > 0 || card.points > 0) && h("p", { class: "facts" }, `${card.count} birds qualify · ${card.points} points`),
  );
}

function playerMat(input: Input, player: PlayerView, birds: Map<number, CatalogueBird>): HTMLElement {
  const own = player.seat !== undefined && player.seat === input.viewerSeat;
  return h(
    "section",
    { class: `player-mat${own ? " own" : ""}`, "aria-label": `${seatName(input.seats, player.seat)}'s mat` },
    seatHeading(input, player.seat),
    h(
      "p",
      { class: "facts" },
      stat("Score", player.score),
      h("span", { class: "stat food-stat" }, h("span", { class: "stat-label" }, "Food: "), foodSymbols(player.food)),
      stat("Action cubes", player.cubesLeft),
      stat("Cards in hand", player.handCount),
      stat("Bonus cards", player.bonusCount),
    ),
    h("div", { class: "mat" }, HABITATS.map((x) => habitatRow(player, x, own, birds))),
    player.hand.length > 0 &&
      region("Hand", "hand", h("div", { class: "cards" }, player.hand.map((c) => birdCard(c, info(birds, c.bird), keyOf("hand", c.bird))))),
    player.setupBirds.length > 0 &&
      region("Starting birds to keep", "setup", h("div", { class: "cards" }, player.setupBirds.map((c) => birdCard(c, info(birds, c.bird), keyOf("setup", c.bird))))),
    own && player.setupStage === SetupStage.FOOD &&
      region(
        "Starting food to keep",
        "setup-food",
        h("div", { class: "food-pick" }, FOOD_ENUMS.map(([f, e]) => h("span", { class: "food-choice", "data-target": `food:${Food[e]}`, "aria-label": f }, symbol(f, f, 30), h("span", { "aria-hidden": "true" }, f)))),
      ),
    player.bonusCards.length > 0 && region("Bonus cards", "bonus", h("div", { class: "cards" }, player.bonusCards.map((b) => bonusCard(b)))),
    [...player.bonusOffer, ...player.setupBonusCards].length > 0 &&
      region("Bonus cards offered", "bonus-offer", h("div", { class: "cards" }, [...player.bonusOffer, ...player.setupBonusCards].map((b) => bonusCard(b, keyOf("bonus", b.bonus))))),
  );
}

function goals(input: Input): HTMLElement {
  const seats = input.view.players.map((p) => p.seat);
  return region(
    "Round goals",
    "goals",
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Goal"), seats.map((s) => h("th", { scope: "col" }, seatName(input.seats, s))))),
      h(
        "tbody",
        {},
        input.view.goals.map((g) =>
          h(
            "tr",
            { class: g.scored ? "scored" : g.round === input.view.round ? "current" : "" },
            h("th", { scope: "row" }, String(g.round)),
            h("td", {}, h("span", {}, g.name), h("small", {}, ` — ${g.counts}`)),
            seats.map((_s, i) =>
              h("td", {}, g.scored ? `${g.countBySeat[i] ?? 0} → ${g.pointsBySeat[i] ?? 0} pts` : String(g.countBySeat[i] ?? "–")),
            ),
          ),
        ),
      ),
    ),
  );
}

function table(input: Input, birds: Map<number, CatalogueBird>): HTMLElement {
  const v = input.view;
  return h(
    "div",
    { class: "shared" },
    region(
      "Bird feeder",
      "feeder",
      h(
        "div",
        { class: "dice", role: "list" },
        v.birdfeeder.map((face) => {
          const faces = word(DieFace[face]).split(" or ");
          return h(
            "span",
            { class: `die die-${faces.join("-")}`, role: "listitem", "data-target": `die:${DieFace[face]}`, "aria-label": `die showing ${faces.join(" or ")}` },
            faces.map((f) => hide(symbol(f, f, faces.length > 1 ? 17 : 28))),
          );
        }),
      ),
      h("p", {}, stat("Dice outside the feeder", v.diceOutside)),
    ),
    region(
      "Bird tray",
      "tray",
      h("div", { class: "cards" }, v.tray.map((c) => birdCard(c, info(birds, c.bird), keyOf("tray", c.bird)))),
      h("p", {}, h("span", { class: "deck", "data-target": "deck" }, `Deck: ${v.deckCount} cards`), " ", stat("Discards", v.discardCount), " ", stat("Bonus deck", v.bonusDeckCount)),
    ),
    v.draft.length > 0 && region("Draft", "draft", h("div", { class: "cards" }, v.draft.map((c) => birdCard(c, info(birds, c.bird), keyOf("draft", c.bird))))),
    goals(input),
  );
}

/** One line on what is being decided now. */
function status(input: Input): HTMLElement {
  const v = input.view;
  const d = v.decision;
  const deciding = d && d.kind !== DecisionKind.UNSPECIFIED ? `${word(DecisionKind[d.kind])}${d.remaining > 0 ? ` (${d.remaining} left)` : ""}` : "";
  return h(
    "p",
    { class: "status-line" },
    stat("Round", `${v.round} of 4`),
    " ",
    stat("Phase", word(Phase[v.phase])),
    deciding && [" ", stat("Deciding", deciding)],
    seatOf(v.firstPlayer) !== undefined && [" ", stat("First player", seatName(input.seats, v.firstPlayer))],
  );
}

/** Draw the Wingspan board. */
export function renderWingspan(input: Input): HTMLElement {
  const birds = birdIndex(input.catalogue);
  const players = [...input.view.players].sort(viewerFirst(input.viewerSeat));
  return h(
    "div",
    { class: "board board-wingspan" },
    status(input),
    table(input, birds),
    h("div", { class: "players" }, players.map((p) => playerMat(input, p, birds))),
  );
}

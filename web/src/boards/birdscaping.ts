/**
 * The Birdscaping board: the offer, the deck and the discard pile, the
 * payment under way (nesting and food paid against the cost, step by step),
 * the AI's column and score in solo games, announcements, and each seat's
 * tableau (trees, garden and pond rows; tilted cards drawn tilted) and hand.
 * A card shows its points, food cost, nesting, rows and ability from the
 * catalogue. Another seat's hand is a count unless the view shows it.
 *
 * Target keys: "hand:<card>", "offer:<card>", "discard:<card>", "deck",
 * "row:<ROW>", "tableau:<card>", "packet:<card>", "looked:<card>".
 */
import { h } from "../dom.js";
import type { Catalogue, CatalogueCard } from "../gen/roost/birdscaping/v1/catalogue_pb.js";
import { Difficulty, Phase, Row, type SeatView, Step, type TableauCard, type View } from "../gen/roost/birdscaping/v1/types_pb.js";
import { seatOf, viewerFirst } from "../presence.js";
import { type BoardInput, region, seatHeading, seatName, stat } from "./kit.js";
import { symbol } from "./symbols.js";

type Input = BoardInput<View, Catalogue>;

const ROWS = [Row.TREES, Row.GARDEN, Row.POND] as const;

function word(name: string | undefined): string {
  return (name ?? "").toLowerCase().replace(/_/g, " ");
}

function cardIndex(catalogue: Catalogue): Map<string, CatalogueCard> {
  return new Map(catalogue.cards.map((c) => [c.card, c]));
}

/** A symbol inside a group labelled as a whole. */
function quiet(el: HTMLElement): HTMLElement {
  el.removeAttribute("role");
  el.removeAttribute("aria-label");
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** The food cost as symbols: "+" between icons, "/" between an icon's alternatives. */
function costSymbols(info: CatalogueCard): HTMLElement {
  const words = `food: ${info.foodCostText || "none"}`;
  return h(
    "span",
    { class: "cost-syms", role: "img", "aria-label": words, title: words },
    info.foodCost.length
      ? info.foodCost.map((icon, i) => [i > 0 && h("span", { class: "sep", "aria-hidden": "true" }, "+"), icon.alternatives.map((f, j) => [j > 0 && h("span", { class: "sep", "aria-hidden": "true" }, "/"), quiet(symbol(f))])])
      : h("span", { "aria-hidden": "true" }, "free"),
  );
}

/**
 * A card face: the name and points at the top, the food cost and nesting
 * as symbols, the rows it may go in, the ability. `compact` (the discard
 * pile) draws the name, points and cost only; the rest is in its label.
 */
function card(id: string, info: CatalogueCard | undefined, target: string, tilted = false, compact = false): HTMLElement {
  const name = info?.name ?? id.replace(/_/g, " ");
  const label = `${name}${tilted ? " (tilted)" : ""}${info ? `: ${info.points} points, food ${info.foodCostText || "none"}, nesting ${info.nesting}${compact && info.abilityText ? `. ${info.abilityText}` : ""}` : ""}`;
  return h(
    "article",
    { class: `card bs-card${tilted ? " tilted" : ""}${compact ? " compact" : ""}`, "data-target": target, "aria-label": label, title: compact ? label : undefined },
    h("h4", {}, h("span", { class: "bs-name" }, name), info && h("span", { class: "bs-points", "aria-hidden": "true" }, String(info.points))),
    info &&
      h(
        "p",
        { class: "card-band" },
        costSymbols(info),
        !compact && h("span", { class: "nesting", role: "img", "aria-label": `nesting ${info.nesting}`, title: `nesting ${info.nesting}` }, info.nesting ? Array.from({ length: info.nesting }, () => quiet(symbol("nest", "nesting", 14))) : h("span", { "aria-hidden": "true" }, "no nesting")),
        !compact && h("span", { class: "rows", role: "img", "aria-label": `rows: ${info.rowsAllowed.map((r) => word(Row[r])).join(", ")}`, title: `rows: ${info.rowsAllowed.map((r) => word(Row[r])).join(", ")}` }, info.rowsAllowed.map((r) => quiet(symbol(`row-${word(Row[r])}`, undefined, 14)))),
      ),
    !compact && info?.abilityText && h("p", { class: "ability" }, info.abilityText),
    tilted && h("small", { class: "tag" }, "tilted"),
  );
}

function tableau(seat: SeatView, cards: Map<string, CatalogueCard>, own: boolean): HTMLElement {
  const rows: Record<number, TableauCard[]> = {
    [Row.TREES]: seat.tableau?.trees ?? [],
    [Row.GARDEN]: seat.tableau?.garden ?? [],
    [Row.POND]: seat.tableau?.pond ?? [],
  };
  return h(
    "div",
    { class: "tableau" },
    ROWS.map((row) =>
      h(
        "div",
        { class: `tableau-row row-${word(Row[row])}`, role: "group", "aria-label": `${word(Row[row])} row` },
        h("div", { class: "row-name", "data-target": own ? `row:${Row[row]}` : undefined, "aria-label": `${word(Row[row])} row` }, symbol(`row-${word(Row[row])}`, `${word(Row[row])} row`, 24), h("span", { "aria-hidden": "true" }, word(Row[row]))),
        h("div", { class: "cards" }, rows[row].map((c) => card(c.card, cards.get(c.card), `tableau:${c.card}`, c.tilted))),
      ),
    ),
  );
}

function seatPanel(input: Input, seat: SeatView, cards: Map<string, CatalogueCard>): HTMLElement {
  return h(
    "section",
    { class: `bs-seat${seat.seat === input.viewerSeat ? " own" : ""}`, "aria-label": `${seatName(input.seats, seat.seat)}'s tableau` },
    seatHeading(input, seat.seat),
    h(
      "p",
      { class: "facts" },
      stat("Score", seat.score),
      stat("Card points", seat.cardPoints),
      stat("Ability points", seat.abilityPoints),
      stat("Cards in hand", `${seat.handCount} of ${seat.handLimit}`),
      stat("Tilted", seat.tiltedCount),
    ),
    tableau(seat, cards, seat.seat === input.viewerSeat),
    seat.hand.length > 0 && region("Hand", "hand", h("div", { class: "cards" }, seat.hand.map((c) => card(c, cards.get(c), `hand:${c}`)))),
  );
}

function payment(input: Input, cards: Map<string, CatalogueCard>): HTMLElement | false {
  const p = input.view.payment;
  if (!p || !p.card) return false;
  return region(
    "Payment",
    "payment",
    h("p", {}, `Paying for ${cards.get(p.card)?.name ?? p.card} in the ${word(Row[p.row])} row.`),
    h(
      "ol",
      { class: "payment-steps" },
      h("li", { class: p.nestingPaid >= p.nestingNeeded ? "done" : "" }, `Nesting: ${p.nestingPaid} of ${p.nestingNeeded} paid`),
      h(
        "li",
        { class: p.foodIconsUnpaid === 0 ? "done" : "" },
        `Food: ${p.foodCost || "none"} — paid ${p.foodPaid || "nothing"}; ${p.foodIconsUnpaid} of ${p.foodIcons} icons unpaid${p.foodIconsWaived ? `, ${p.foodIconsWaived} waived` : ""}`,
      ),
    ),
  );
}

/** Draw the Birdscaping board. */
export function renderBirdscaping(input: Input): HTMLElement {
  const v = input.view;
  const cards = cardIndex(input.catalogue);
  const seats = [...v.seats].sort(viewerFirst(input.viewerSeat));
  return h(
    "div",
    { class: "board board-birdscaping" },
    h(
      "p",
      { class: "status-line" },
      stat("Round", v.round),
      " ",
      stat("Phase", word(Phase[v.phase])),
      " ",
      stat("Step", word(Step[v.step])),
      v.actionsLeft > 0 && [" ", stat("Actions left", v.actionsLeft)],
      v.solo && [" ", stat("Difficulty", word(Difficulty[v.difficulty]))],
      v.endTriggered && [" ", h("strong", {}, "Final turns")],
    ),
    h(
      "div",
      { class: "shared" },
      region(
        "Offer",
        "offer",
        h("div", { class: "cards" }, v.offer.map((c) => card(c, cards.get(c), `offer:${c}`))),
        h("p", {}, h("span", { class: "deck", "data-target": "deck" }, `Deck: ${v.deckCount} cards`)),
      ),
      region(
        "Discard pile",
        "discard",
        v.discardPile.length
          ? h("div", { class: "cards pile" }, v.discardPile.map((c) => card(c, cards.get(c), `discard:${c}`, false, true)))
          : h("p", {}, "empty"),
      ),
      payment(input, cards),
      v.draftPacket.length > 0 && region("Draft packet", "packet", h("div", { class: "cards" }, v.draftPacket.map((c) => card(c, cards.get(c), `packet:${c}`)))),
      v.looked.length > 0 && region("Looked at", "looked", h("div", { class: "cards" }, v.looked.map((c) => card(c, cards.get(c), `looked:${c}`)))),
      v.solo &&
        region(
          "The AI's column",
          "ai",
          h("p", {}, stat("AI score", v.aiScore)),
          h("div", { class: "cards" }, v.aiColumn.map((c) => card(c, cards.get(c), `ai:${c}`))),
        ),
      v.announcements.length > 0 &&
        region("Announcements", "announcements", h("ul", {}, v.announcements.map((a) => h("li", {}, seatOf(a.seat) !== undefined ? `${seatName(input.seats, a.seat)}: ${a.text}` : a.text)))),
    ),
    h("div", { class: "bs-seats" }, seats.map((s) => seatPanel(input, s, cards))),
  );
}

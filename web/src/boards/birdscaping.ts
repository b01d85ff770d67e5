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

type Input = BoardInput<View, Catalogue>;

const ROWS = [Row.TREES, Row.GARDEN, Row.POND] as const;

function word(name: string | undefined): string {
  return (name ?? "").toLowerCase().replace(/_/g, " ");
}

function cardIndex(catalogue: Catalogue): Map<string, CatalogueCard> {
  return new Map(catalogue.cards.map((c) => [c.card, c]));
}

/** A card face: name, points, food cost, nesting, rows and ability. */
function card(id: string, info: CatalogueCard | undefined, target: string, tilted = false): HTMLElement {
  const name = info?.name ?? id.replace(/_/g, " ");
  return h(
    "article",
    { class: `card bs-card${tilted ? " tilted" : ""}`, "data-target": target, "aria-label": `${name}${tilted ? " (tilted)" : ""}` },
    h("h4", {}, name),
    info &&
      h(
        "p",
        { class: "facts" },
        h("span", { class: "points" }, `${info.points} points`),
        h("span", { class: "cost" }, `Food: ${info.foodCostText || "none"}`),
        h("span", {}, `Nesting ${info.nesting}`),
        h("span", {}, `Rows: ${info.rowsAllowed.map((r) => word(Row[r])).join(", ")}`),
      ),
    info?.abilityText && h("p", { class: "ability" }, info.abilityText),
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
        h("div", { class: "row-name", "data-target": own ? `row:${Row[row]}` : undefined }, word(Row[row])),
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
          ? h("div", { class: "cards" }, v.discardPile.map((c) => card(c, cards.get(c), `discard:${c}`)))
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

"""Birdscaping at the table: each seat's three rows (Trees, Garden, Pond) with their
cards, tilted ones marked; your hand, the offer, the draft packet and the cards looked
at with each card's printed facts (points, food cost, rows it may go in, nesting, the
food it gives, curious birds, ability); the payment under way step by step; the solo
AI's column and score; the announcements of scoring abilities.

A tilted card reads ``↘ Name (tilted)``: the mark and the word both say it, so the
board reads the same without colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from clients.cli.catalogue import Lookup
from clients.cli.render.common import (
    NOBODY,
    enum_text,
    facts,
    panel,
    seat_text,
    side_by_side,
    table,
    viewer,
    words,
)

ROWS = (("trees", "Trees"), ("garden", "Garden"), ("pond", "Pond"))


def _cards(catalogue: Any | None) -> Lookup:
    return Lookup(catalogue.cards if catalogue else (), "card")


def card_name(card: str, cards: Lookup) -> str:
    """A card's printed name (its id in words when the catalogue lacks it)."""
    entry = cards.get(card)
    return entry.name if entry is not None and entry.name else words(card).title()


def card_facts(card: str, cards: Lookup) -> str:
    """A card's printed facts in one line: points, cost, rows, nesting, food, curious."""
    entry = cards.get(card)
    if entry is None:
        return ""
    rows = ", ".join(enum_text(entry, "rows_allowed", r) for r in entry.rows_allowed)
    parts = [
        f"{entry.points} pts",
        f"cost {entry.food_cost_text or 'none'}",
        f"rows {rows or NOBODY}",
        f"nesting {entry.nesting}",
    ]
    if entry.food:
        parts.append("gives " + "+".join(entry.food))
    if entry.curious:
        parts.append(f"curious {entry.curious}")
    return " · ".join(parts)


def ability(card: str, cards: Lookup) -> str:
    """The card's ability: its kind and its English text."""
    entry = cards.get(card)
    if entry is None or not entry.ability_text:
        return ""
    kind = enum_text(entry, "ability_type")
    return f"{kind}: {entry.ability_text}" if kind != NOBODY else entry.ability_text


def card_list(title: str, ids: Iterable[str], cards: Lookup, subtitle: str = "") -> RenderableType:
    """Cards with their facts and abilities, one per entry (two lines each)."""
    out = table("card", "facts and ability", wrap=("facts and ability",))
    for card in ids:
        text = Text(card_facts(card, cards))
        said = ability(card, cards)
        if said:
            text.append("\n" + said, style="italic")
        out.add_row(Text(card_name(card, cards), style="bold"), text)
    return panel(out, title, subtitle)


def _row_text(placed: Iterable[Any], cards: Lookup) -> Text:
    """A row's cards left to right, numbered by column as the choices count them."""
    text = Text()
    for i, slot in enumerate(placed):
        if i:
            text.append("  │  ", style="dim")
        text.append(f"{i + 1}: ", style="dim")
        entry = cards.get(slot.card)
        points = f" {entry.points}p" if entry is not None else ""
        if slot.tilted:
            text.append(f"↘ {card_name(slot.card, cards)}{points} (tilted)", style="dim")
        else:
            text.append(f"{card_name(slot.card, cards)}{points}", style="bold")
    return text if text.plain else Text(NOBODY, style="dim")


def _seat(seat: Any, view: Any, cards: Lookup, names: dict[int, str]) -> RenderableType:
    rows = facts((title, _row_text(getattr(seat.tableau, name), cards)) for name, title in ROWS)
    you = " (you)" if seat.seat == viewer(view) else ""
    turn = " ◀ to play" if seat.seat in view.to_act else ""
    summary = (
        f"score {seat.score} (cards {seat.card_points}, abilities {seat.ability_points}) · "
        f"hand {seat.hand_count}/{seat.hand_limit} · tilted {seat.tilted_count}"
    )
    if view.phase == 1:  # the initial draft
        summary += f" · packet {seat.draft_packet_count}, decided: {_yes(seat.draft_decided)}"
    return panel(
        Group(rows, Text(summary, style="dim")), f"{seat_text(seat.seat, names)}{you}{turn}"
    )


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _turn(view: Any, names: dict[int, str]) -> RenderableType:
    ending = None
    if view.end_triggered:
        ending = f"triggered; last turn: {seat_text(view.final_turn_seat, names)}"
    return facts(
        [
            ("Round", view.round),
            ("Phase", f"{enum_text(view, 'phase')} · {enum_text(view, 'step')}"),
            ("To play", ", ".join(seat_text(s, names) for s in view.to_act) or NOBODY),
            ("Actions left", view.actions_left if view.phase == 3 else None),
            ("Draft picks left", view.draft_picks_left or None),
            ("First player", seat_text(view.first_player, names)),
            ("Deck", f"{view.deck_count} cards · discard pile {len(view.discard_pile)}"),
            ("Difficulty", enum_text(view, "difficulty") if view.solo else None),
            ("End", ending),
            ("Activating", _activation(view) or None),
        ]
    )


def _activation(view: Any) -> str:
    if view.activating_row == 0 and not view.activation_queue and not view.ability_card:
        return ""
    parts = [f"row {enum_text(view, 'activating_row')}"] if view.activating_row else []
    if view.ability_card:
        parts.append(f"ability of {words(view.ability_card)}")
    if view.activation_queue:
        parts.append("then " + ", ".join(words(c) for c in view.activation_queue))
    return " · ".join(parts)


def _payment(view: Any, cards: Lookup) -> RenderableType | None:
    pay = view.payment
    if not pay.card:
        return None
    rows = [
        ("Card", f"{card_name(pay.card, cards)} into {enum_text(pay, 'row')}"),
        ("1. Nesting", f"{pay.nesting_paid} of {pay.nesting_needed} paid"),
        ("2. Food", f"cost {pay.food_cost or 'none'} · paid {pay.food_paid or 'nothing'}"),
        (
            "   icons",
            f"{pay.food_icons} · waived {pay.food_icons_waived} · unpaid {pay.food_icons_unpaid}",
        ),
    ]
    if view.pending_discards:
        order = ", ".join(card_name(c, cards) for c in view.pending_discards)
        rows.append(("3. Discards", f"{order} (choose their order)"))
    return panel(facts(rows), "Paying")


def render(
    view: Any,
    catalogue: Any | None,
    *,
    width: int = 80,
    names: dict[int, str] | None = None,
    legal: Sequence[Any] = (),
) -> RenderableType:
    """The whole table (see the module docstring): the shared cards first, then the other
    seats, yours and your hand last, just above the prompt."""
    names = names or {}
    cards = _cards(catalogue)
    me = viewer(view)
    parts: list[RenderableType] = [panel(_turn(view, names), "Birdscaping")]
    payment = _payment(view, cards)
    if payment is not None:
        parts.append(payment)
    seats = sorted(view.seats, key=lambda s: (s.seat == me, s.seat))
    if view.draft_packet:
        parts.append(card_list("Draft packet", view.draft_packet, cards, f"pick {view.draft_pick}"))
    if view.offer:
        parts.append(card_list("Offer", view.offer, cards))
    if view.looked:
        parts.append(card_list("Looked at", view.looked, cards))
    if view.set_aside:
        parts.append(card_list("Set aside", [view.set_aside], cards))
    if view.discard_pile:
        top = card_name(view.discard_pile[-1], cards)
        parts.append(Text(f"Discard pile: {len(view.discard_pile)} cards, top: {top}"))
    for said in view.announcements:
        parts.append(Text(f"Announced (round {said.round}): {said.text}", style="dim"))
    if view.solo:
        ai = _row_text((_Placed(c) for c in view.ai_column), cards)
        parts.append(panel(ai, "AI column", f"AI score: {view.ai_score}"))
    parts.append(side_by_side([_seat(s, view, cards, names) for s in seats], width, each=64))
    for seat in seats:
        if seat.hand:
            whose = "Your hand" if seat.seat == me else f"Hand of {seat_text(seat.seat, names)}"
            parts.append(card_list(whose, seat.hand, cards, f"limit {seat.hand_limit}"))
    return Group(*parts)


class _Placed:
    """An upright card of the AI's column, drawn like a tableau card."""

    def __init__(self, card: str) -> None:
        self.card = card
        self.tilted = False


def choice_path(action: Any) -> tuple[str, ...] | None:
    """Birdscaping's choices are few: one step each."""
    return None


def choice_detail(action: Any, view: Any, catalogue: Any | None) -> str:
    """The facts of the card a choice concerns."""
    kind = action.action.WhichOneof("kind")
    if kind is None:
        return ""
    inner = getattr(action.action, kind)
    card = getattr(inner, "card", "") if "card" in inner.DESCRIPTOR.fields_by_name else ""
    return card_facts(card, _cards(catalogue)) if card else ""

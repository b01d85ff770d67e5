"""Wingspan at the table: each player's mat by habitat (forest, grassland, wetland) with
its birds, eggs, cached food and tucked cards; your hand with each bird's cost, points,
habitats, nest, egg limit and power; the tray, the birdfeeder, the round goals, your
bonus cards, food and action cubes; the decision under way.

Each player is a panel of its own, stacked at 80 columns (no wide table of players),
and every bird is a row whose power text wraps under its facts.
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
    marks,
    panel,
    seat_text,
    side_by_side,
    table,
    viewer,
)

FOODS = ("invertebrate", "seed", "fish", "fruit", "rodent")
HABITATS = (("forest", "Forest"), ("grassland", "Grassland"), ("wetland", "Wetland"))
POWER_MARKS = {2: "brown", 3: "white", 4: "pink"}


def _birds(catalogue: Any | None) -> Lookup:
    return Lookup(catalogue.birds if catalogue else (), "bird")


def food_text(counts: Any, joiner: str = " + ") -> str:
    """``FoodCounts`` as "2 seed + 1 fish" (only the foods present)."""
    parts = [f"{getattr(counts, f)} {f}" for f in FOODS if getattr(counts, f)]
    return joiner.join(parts)


def cost_text(entry: Any) -> str:
    """A bird's food cost as printed: all of, one of (slash) or none; wild food added."""
    mode = entry.food_cost_mode
    if mode == 3:
        return "free"
    text = food_text(entry.food_cost, " / " if mode == 2 else " + ")
    if entry.wild_food:
        text = f"{text} + {entry.wild_food} any" if text else f"{entry.wild_food} any"
    return text or "free"


def bird_facts(bird: int, birds: Lookup) -> str:
    """A bird card's printed facts in one line."""
    entry = birds.get(bird)
    if entry is None:
        return ""
    habitats = "/".join(enum_text(entry, "habitats", h) for h in entry.habitats)
    return (
        f"{entry.points} pts · cost {cost_text(entry)} · {habitats} · "
        f"{enum_text(entry, 'nest')} nest, {entry.egg_limit} eggs · {entry.wingspan_cm} cm"
    )


def power_text(bird: int, birds: Lookup) -> str:
    """A bird's power with its colour ("brown: ..."), "" for none."""
    entry = birds.get(bird)
    if entry is None or not entry.power:
        return ""
    colour = POWER_MARKS.get(entry.power_color, "")
    return f"{colour}: {entry.power}" if colour else entry.power


def card_list(
    title: str, cards: Iterable[Any], birds: Lookup, subtitle: str = ""
) -> RenderableType:
    """Bird cards (``Card`` messages) with their facts and powers."""
    out = table("bird", "facts and power", wrap=("facts and power",))
    for card in cards:
        text = Text(bird_facts(card.bird, birds))
        power = power_text(card.bird, birds)
        if power:
            text.append("\n" + power, style="italic")
        out.add_row(Text(card.name, style="bold"), text)
    return panel(out, title, subtitle)


def _slot_text(slot: Any) -> Text:
    eggs = f"eggs {marks(slot.eggs, '●')}{marks(slot.egg_limit - slot.eggs, '○')}"
    parts = [f"{slot.points} pts", enum_text(slot, "nest"), eggs]
    if slot.cached_food:
        parts.append(f"cached food {slot.cached_food}")
    if slot.tucked_cards:
        parts.append(f"tucked {slot.tucked_cards}")
    text = Text(" · ".join(parts))
    if slot.power:
        colour = POWER_MARKS.get(slot.power_color, "")
        used = " (used this round)" if slot.pink_used else ""
        text.append(f"\n{colour + ': ' if colour else ''}{slot.power}{used}", style="italic")
    return text


def mat(player: Any) -> RenderableType:
    """The player's mat: one section per habitat, one row per bird, left to right."""
    out = table("habitat", "bird", "facts", wrap=("facts",))
    for name, title in HABITATS:
        slots = list(getattr(player, name))
        if not slots:
            out.add_row(title, Text(NOBODY, style="dim"), "")
        for i, slot in enumerate(slots):
            out.add_row(title if i == 0 else "", Text(slot.name, style="bold"), _slot_text(slot))
    return out


def _player(player: Any, view: Any, names: dict[int, str]) -> RenderableType:
    breakdown = ", ".join(
        f"{s.name.replace('_', ' ')} {s.points}" for s in player.score_breakdown if s.points
    )
    bonus = "; ".join(f"{b.name} ({b.condition}: {b.count})" for b in player.bonus_cards)
    rows = facts(
        [
            ("Score", f"{player.score}" + (f" ({breakdown})" if breakdown else "")),
            ("Food", food_text(player.food, ", ") or "none"),
            ("Hand", f"{player.hand_count} cards"),
            ("Action cubes", player.cubes_left),
            (
                "Bonus cards",
                bonus or (f"{player.bonus_count} (hidden)" if player.bonus_count else None),
            ),
            ("Setup", None if player.setup_done else enum_text(player, "setup_stage")),
            ("Discard at end", player.end_of_turn_discards or None),
        ]
    )
    you = " (you)" if player.seat == viewer(view) else ""
    turn = " ◀ to play" if player.seat in view.to_act else ""
    first = " · first player" if player.seat == view.first_player else ""
    return panel(Group(rows, mat(player)), f"{seat_text(player.seat, names)}{you}{turn}{first}")


def _decision(view: Any, birds: Lookup, names: dict[int, str]) -> str | None:
    decision = view.decision
    if decision.kind == 0:
        return None
    parts = [enum_text(decision, "kind")]
    entry = birds.get(decision.bird) if decision.bird >= 0 else None
    if entry is not None:
        parts.append(f"for {entry.name}")
    if decision.habitat:
        parts.append(f"in {enum_text(decision, 'habitat')}")
    if decision.remaining > 0:
        parts.append(f"({decision.remaining} left)")
    if decision.seat >= 0:
        parts.append(f"· {seat_text(decision.seat, names)}")
    return " ".join(parts)


def _table(view: Any, birds: Lookup, names: dict[int, str]) -> RenderableType:
    feeder = ", ".join(enum_text(view, "birdfeeder", d) for d in view.birdfeeder) or "empty"
    return facts(
        [
            ("Round", f"{view.round} of 4" if view.round else NOBODY),
            ("Phase", enum_text(view, "phase")),
            ("Turn", seat_text(view.turn_seat, names)),
            ("Decision", _decision(view, birds, names)),
            ("Birdfeeder", f"{feeder} · {view.dice_outside} dice outside"),
            (
                "Decks",
                f"birds {view.deck_count} (discards {view.discard_count}) · bonus "
                f"{view.bonus_deck_count} (discards {view.bonus_discard_count})",
            ),
        ]
    )


def _goals(view: Any, names: dict[int, str]) -> RenderableType:
    side = enum_text(view, "goal_side")
    out = table("round", "goal", "result", wrap=("goal", "result"))
    for goal in view.goals:
        result = ""
        if goal.scored:
            result = ", ".join(
                f"{seat_text(i, names)}: {c} → {p} pts"
                for i, (c, p) in enumerate(
                    zip(goal.count_by_seat, goal.points_by_seat, strict=False)
                )
            )
        out.add_row(str(goal.round), f"{goal.name} ({goal.counts})", result or "to come")
    return panel(out, "Round goals", f"{side} side")


def _bonus_cards(title: str, cards: Iterable[Any]) -> RenderableType:
    out = table("bonus card", "condition", wrap=("condition",))
    for card in cards:
        out.add_row(card.name, f"{card.condition} (now {card.count})")
    return panel(out, title)


def render(
    view: Any,
    catalogue: Any | None,
    *,
    width: int = 80,
    names: dict[int, str] | None = None,
    legal: Sequence[Any] = (),
) -> RenderableType:
    """The whole table (see the module docstring): the shared table first, the other
    players' mats, then yours with your hand and setup cards last, just above the prompt."""
    names = names or {}
    birds = _birds(catalogue)
    me = viewer(view)
    players = sorted(view.players, key=lambda p: (p.seat == me, p.seat))
    parts: list[RenderableType] = [panel(_table(view, birds, names), "Wingspan")]
    mine = next((p for p in players if p.seat == me), None)
    parts.append(card_list("Tray", view.tray, birds))
    parts.append(_goals(view, names))
    if view.draft:
        parts.append(card_list("Draft", view.draft, birds))
    parts.append(side_by_side([_player(p, view, names) for p in players], width, each=90))
    if mine is not None and mine.setup_birds:
        parts.append(card_list("Setup: birds dealt to you", mine.setup_birds, birds))
    if mine is not None and (mine.setup_bonus_cards or mine.bonus_offer):
        parts.append(
            _bonus_cards("Bonus cards to choose from", [*mine.setup_bonus_cards, *mine.bonus_offer])
        )
    if mine is not None and mine.hand:
        parts.append(card_list("Your hand", mine.hand, birds, f"{len(mine.hand)} cards"))
    return Group(*parts)


def choice_path(action: Any) -> tuple[str, ...] | None:
    """Wingspan's long lists are sets (keep birds, keep food): see :func:`choice_members`."""
    return None


def choice_members(action: Any, view: Any) -> frozenset[str] | None:
    """The birds (or foods) a keep-combination keeps, to choose them one at a time."""
    kind = action.action.WhichOneof("kind")
    if kind == "keep_birds":
        names = _card_names(view)
        return frozenset(names.get(b, f"bird {b}") for b in action.action.keep_birds.birds)
    if kind == "keep_food":
        return counted(FOODS[f - 1] for f in action.action.keep_food.foods)
    return None


def counted(items: Iterable[str]) -> frozenset[str]:
    """A multiset as a set: the second seed is "seed #2", the third "seed #3"."""
    seen: dict[str, int] = {}
    out = set()
    for item in items:
        seen[item] = seen.get(item, 0) + 1
        out.add(item if seen[item] == 1 else f"{item} #{seen[item]}")
    return frozenset(out)


def member_facts(action: Any, view: Any, catalogue: Any | None) -> dict[str, str]:
    """The facts of each bird a keep-combination keeps, by its name (none for food)."""
    if action.action.WhichOneof("kind") != "keep_birds":
        return {}
    names = _card_names(view)
    birds = _birds(catalogue)
    return {names.get(b, f"bird {b}"): bird_facts(b, birds) for b in action.action.keep_birds.birds}


def _card_names(view: Any) -> dict[int, str]:
    out: dict[int, str] = {}
    for player in view.players:
        for card in (*player.setup_birds, *player.hand):
            out[card.bird] = card.name
    for card in (*view.tray, *view.draft):
        out[card.bird] = card.name
    return out


def choice_detail(action: Any, view: Any, catalogue: Any | None) -> str:
    """The facts of the bird a choice concerns (playing, drawing or drafting it)."""
    kind = action.action.WhichOneof("kind")
    if kind is None:
        return ""
    inner = getattr(action.action, kind)
    if "bird" not in inner.DESCRIPTOR.fields_by_name or kind in ("pay_egg", "lay_egg"):
        return ""
    return bird_facts(inner.bird, _birds(catalogue))

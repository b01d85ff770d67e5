"""Sky Garden at the table: the track with its chips, the standby spaces, Lucy, the
forest and the supply, the special birds, the birdcage's milestones with their line
bonuses, and each seat's aviary (areas with their birds, nest, tree and lake), funds,
egg marker, employee, event card and milestones.

Seats are named, and nobody (-1) reads "—"; a space's occupant is written out, so the
board reads the same without colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from clients.cli.catalogue import Lookup
from clients.cli.render.common import (
    NOBODY,
    enum_text,
    facts,
    optional,
    panel,
    seat_text,
    side_by_side,
    table,
    viewer,
    words,
)


def area_id(index: int) -> str:
    """An area by its printed id (index 0 is A1), as the choices name it."""
    return f"A{index + 1}"


def _birds(catalogue: Any | None) -> Lookup:
    return Lookup(catalogue.birds if catalogue else (), "bird")


def bird_name(bird: str, birds: Lookup) -> str:
    """A bird's printed name (its id in words without the catalogue)."""
    entry = birds.get(bird)
    return entry.name if entry is not None and entry.name else words(bird).title()


def _counts(items: Any, birds: Lookup) -> str:
    return ", ".join(f"{bird_name(b.bird, birds)} ×{b.count}" for b in items if b.count) or NOBODY


def _who(seat: int, lucy: bool, names: dict[int, str]) -> str:
    people = [seat_text(seat, names)] if seat >= 0 else []
    if lucy:
        people.append("Lucy")
    return ", ".join(people)


def _chip(space: Any, birds: Lookup) -> str:
    chip = space.chip
    kind = enum_text(chip, "kind")
    names = " + ".join(bird_name(b, birds) for b in chip.birds)
    if chip.face_down:
        return "face down"
    if chip.kind == 3:  # a round chip
        return f"round {chip.round}: {names}" if names else f"round {chip.round}"
    if chip.kind == 2:
        return "advert / special"
    return names or kind


def _track(view: Any, birds: Lookup, names: dict[int, str]) -> RenderableType:
    out = table("space", "section", "chip", "icons", "on it", wrap=("chip", "icons"))
    for space in view.track:
        out.add_row(
            str(space.space),
            str(space.section) if space.section else "",
            _chip(space, birds),
            ", ".join(words(i) for i in space.icons),
            _who(space.occupant_seat, space.lucy, names),
        )
    standby = "  ".join(
        f"{s.label} ({s.vp} VP): {_who(s.occupant_seat, s.lucy, names) or 'free'}"
        for s in view.standby
    )
    return panel(Group(out, Text(f"Standby: {standby}")), "Track")


def _lucy(view: Any) -> str | None:
    lucy = view.lucy
    if not lucy.present:
        return None
    standby = lucy.standby_slot
    where = f"standby slot {standby + 1}" if standby >= 0 else f"space {lucy.space}"
    return where + (" (round finished)" if lucy.finished_round else "")


def _turn(view: Any, birds: Lookup, names: dict[int, str]) -> RenderableType:
    turn = view.turn
    step = enum_text(turn, "step")
    pending = "; ".join(
        f"{words(p.kind)} {p.amount}" + (f" (area {area_id(p.area)})" if p.area >= 0 else "")
        for p in turn.pending
    )
    return facts(
        [
            ("Round", f"{view.round} of {view.rounds}"),
            ("Phase", enum_text(view, "phase")),
            ("To play", ", ".join(seat_text(s, names) for s in view.to_act) or NOBODY),
            ("Step", f"{step} on space {turn.space}" if turn.space > 0 else step),
            ("Bird in hand", bird_name(turn.pending_bird, birds) if turn.pending_bird else None),
            (
                "Chip birds",
                " or ".join(bird_name(b, birds) for b in turn.bird_choice) or None,
            ),
            ("Bonuses due", pending or None),
            ("Lucy", _lucy(view)),
            ("Solo", _solo(view)),
        ]
    )


def _solo(view: Any) -> str | None:
    """A solo game's score targets and the highest reached so far (None otherwise)."""
    solo = optional(view, "solo")
    if solo is None or not solo.targets:
        return None
    targets = ", ".join(str(t) for t in solo.targets)
    reached = f"target {solo.target_reached} reached" if solo.target_reached else "none reached"
    return f"targets {targets} · {reached}"


def _forest(view: Any, birds: Lookup) -> RenderableType:
    forest = view.forest
    chips = ", ".join(bird_name(c.bird, birds) for c in forest.chips)
    return panel(
        facts(
            [
                ("Forest", f"{forest.trees} trees · {forest.nests} nests"),
                ("Birds", _counts(forest.birds, birds)),
                ("Chips", chips or None),
                ("Supply", _counts(view.supply, birds)),
                ("Eggs", view.egg_supply),
                ("Bonus birds", ", ".join(bird_name(b, birds) for b in view.bonus_birds) or None),
            ]
        ),
        "Forest and supply",
    )


def _specials(view: Any, birds: Lookup) -> RenderableType:
    out = table("special bird", "cost", "size", "left", "ability", wrap=("ability",))
    for card in view.special_cards:
        entry = birds.get(card.bird)
        said = (entry.text or words(entry.ability)) if entry is not None else ""
        out.add_row(
            card.name or bird_name(card.bird, birds),
            str(card.cost),
            str(card.size),
            str(card.remaining),
            said,
        )
    return panel(out, "Special birds")


def _birdcage(view: Any, names: dict[int, str]) -> RenderableType:
    out = table("slot", "milestone", "claimed by", wrap=("milestone",))
    for slot in view.birdcage:
        who = ", ".join(seat_text(s, names) for s in slot.claimed_by) or NOBODY
        # Numbered from 1, as the milestone actions' labels say ("in slot 3").
        out.add_row(str(slot.slot + 1), f"{slot.tile}: {slot.condition}", who)
    lines = table("line", "slots", "early bonus", "bonus", wrap=("early bonus", "bonus"))
    for line in view.line_bonuses:
        early = line.early_bonus or NOBODY
        if line.early_bonus and not line.early_available:
            early += " (taken)"
        lines.add_row(
            line.line, " ".join(str(s + 1) for s in line.slots), early, line.regular_bonus
        )
    return panel(Group(out, lines), "Birdcage (milestones)")


def _area_row(area: Any, birds: Lookup) -> tuple[str, ...]:
    things = [
        name for name, on in (("nest", area.nest), ("tree", area.tree), ("lake", area.lake)) if on
    ]
    if area.nest_birds:
        things.append("in nest: " + ", ".join(bird_name(b, birds) for b in area.nest_birds))
    return (
        area.id + (" ★" if area.event_area else ""),
        _counts(area.birds, birds),
        ", ".join(things),
        f"{area.used}/{area.capacity}",
    )


def _seat(seat: Any, view: Any, birds: Lookup, names: dict[int, str]) -> RenderableType:
    areas = table("area", "birds", "features", "used", wrap=("birds", "features"))
    for area in seat.areas:
        areas.add_row(*_area_row(area, birds))
    event = None
    if seat.event_card:
        kept = "" if seat.event_kept else " (not kept)"
        event = (
            f"{seat.event_card}{kept}: "
            + " + ".join(bird_name(b, birds) for b in seat.event_birds)
            + f" · marker {seat.event_marker} · {seat.event_vp} VP"
        )
    score = next((s for s in view.scores if s.seat == seat.seat), None)
    rows = facts(
        [
            ("Score", f"{score.total} VP" if score is not None else None),
            ("Funds", seat.funds),
            ("Eggs", f"marker {seat.egg_marker} · {seat.egg_points} VP"),
            (
                "Employee",
                f"{seat.employee} on areas " + ", ".join(area_id(a) for a in seat.employee_areas)
                if seat.employee
                else None,
            ),
            ("Owner", f"space {seat.owner_space}" if seat.owner_space > 0 else NOBODY),
            ("Standby", f"slot {seat.standby_slot}" if seat.standby_slot >= 0 else None),
            ("Nest box", ", ".join(bird_name(b, birds) for b in seat.nest_box) or None),
            (
                "Milestones",
                f"{seat.milestones_achieved} (slots "
                + ", ".join(str(s) for s in seat.claimed_slots)
                + ")"
                if seat.claimed_slots
                else str(seat.milestones_achieved),
            ),
            ("Event", event),
            ("Dealt events", ", ".join(seat.dealt_events) or None),
            ("Extra area", seat.additional_area or None),
            ("Round done", "yes" if seat.finished_round else None),
        ]
    )
    you = " (you)" if seat.seat == viewer(view) else ""
    turn = " ◀ to play" if seat.seat in view.to_act else ""
    legend = Text("★ event area", style="dim")
    return panel(Group(rows, areas, legend), f"Aviary of {seat_text(seat.seat, names)}{you}{turn}")


def render(
    view: Any,
    catalogue: Any | None,
    *,
    width: int = 80,
    names: dict[int, str] | None = None,
    legal: Sequence[Any] = (),
) -> RenderableType:
    """The whole table (see the module docstring), your aviary last, just above the prompt."""
    names = names or {}
    birds = _birds(catalogue)
    me = viewer(view)
    seats = sorted(view.seats, key=lambda s: (s.seat == me, s.seat))
    return Group(
        panel(_turn(view, birds, names), "Sky Garden"),
        _track(view, birds, names),
        side_by_side([_forest(view, birds), _specials(view, birds)], width, each=60),
        _birdcage(view, names),
        side_by_side([_seat(s, view, birds, names) for s in seats], width, each=64),
    )


def choice_path(action: Any) -> tuple[str, ...] | None:
    """Sky Garden's choices are few: one step each."""
    return None


def choice_detail(action: Any, view: Any, catalogue: Any | None) -> str:
    """The facts of the bird a choice concerns (buying or placing one), or of an event
    card to keep (its income and points by sets collected)."""
    kind = action.action.WhichOneof("kind")
    if kind is None:
        return ""
    if kind == "keep_event":
        return event_facts(action.action.keep_event.card, catalogue)
    inner = getattr(action.action, kind)
    bird = getattr(inner, "bird", "") if "bird" in inner.DESCRIPTOR.fields_by_name else ""
    entry = _birds(catalogue).get(bird) if bird else None
    if entry is None:
        return ""
    return f"size {entry.size} · {entry.vp} VP · {entry.text or words(entry.ability)}"


def event_facts(card: str, catalogue: Any | None) -> str:
    """An event card's sets and what they pay: income and VP by sets collected."""
    entry = Lookup(catalogue.event_cards if catalogue else (), "card").get(card)
    if entry is None:
        return ""
    income = " ".join(str(i) for i in entry.income)
    points = " ".join(str(v) for v in entry.vp)
    return f"sets of {entry.set_size} · income {income} · VP {points}"

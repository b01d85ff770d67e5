"""Choosing (clients/cli/choices.py) over legal lists recorded from real services: every
step and every member leads to legal actions only, every legal action can be reached,
filters narrow by words, and the coordinates offered are the map's."""

from __future__ import annotations

import pytest

from clients.cli.choices import LIMIT, Choice, Menu, choices_of
from tests.clients.recorded import Recorded, all_positions, catalogue, positions

WITH_CHOICES = [p for p in all_positions() if p.legal is not None]


def menu_of(position: Recorded) -> tuple[Menu, list[Choice]]:
    view = position.state.view
    choices = choices_of(position.game, position.legal.actions, view, catalogue(position.game))
    return Menu(choices), choices


def reachable(menu: Menu, depth: int = 0) -> set[int]:
    """The ids every way through the menu ends at (walking every entry)."""
    assert depth < 12, "a menu that never ends"
    found: set[int] = set()
    for index in range(len(menu.entries())):
        walk = Menu(menu.all)
        walk.pool, walk.prefix, walk.chosen = list(menu.pool), menu.prefix, menu.chosen
        picked = walk.pick(walk.entries()[index])
        if picked is not None:
            found.add(picked.id)
        else:
            found |= reachable(walk, depth + 1)
    return found


@pytest.mark.parametrize("position", WITH_CHOICES, ids=[f"{p.game}-{p.name}" for p in WITH_CHOICES])
def test_every_legal_action_is_reachable_and_nothing_else(position: Recorded) -> None:
    menu, choices = menu_of(position)
    assert reachable(menu) == {c.id for c in choices}
    assert [c.id for c in choices] == [a.ref.id for a in position.legal.actions]


def test_tile_placements_go_spot_then_rotation_in_map_coordinates() -> None:
    """208-long placement lists become spots (the map's tile coordinates) and then turns."""
    many = next(p for p in positions("undertheleaves") if p.name == "2p-many")
    menu, choices = menu_of(many)
    assert len(choices) > LIMIT
    spots = menu.entries()
    assert all(e.step and e.step.startswith("spot (") for e in spots)
    assert len(spots) == len({(a.action.place_tile.x, a.action.place_tile.y)
                              for a in many.legal.actions})  # fmt: skip
    first = spots[0]
    assert menu.pick(first) is None
    x, y = (int(v) for v in first.step.removeprefix("spot (").rstrip(")").split(", "))
    picked = menu.pick(menu.entries()[2])
    assert picked is not None
    action = next(a for a in many.legal.actions if a.ref.id == picked.id).action.place_tile
    assert (action.x, action.y) == (x, y)


def test_keep_birds_is_built_one_bird_at_a_time() -> None:
    """32 "keep birds" combinations: add birds one at a time, then done."""
    start = next(p for p in positions("wingspan") if p.name == "2p-start")
    menu, choices = menu_of(start)
    assert {c.kind for c in choices} == {"keep_birds"}
    entries = menu.entries()
    assert entries[0].text == "done: Keep no birds"
    added = [e for e in entries if e.member]
    assert len(added) == 5
    assert menu.pick(added[0]) is None and menu.pick(menu.entries()[1]) is None
    done = menu.entries()[0]
    assert done.text.startswith("done: Keep ") and done.choice is not None
    assert done.choice.members == menu.chosen and len(menu.chosen) == 2


def test_typing_filters_and_a_dash_brings_everything_back() -> None:
    mid = next(p for p in positions("birdscaping") if p.name == "2p-many")
    menu, choices = menu_of(mid)
    assert menu.filter("untilt")
    assert {c.kind for c in menu.pool} == {"untilt"} and "untilt" in menu.narrowed
    assert not menu.filter("no such words here")
    assert {c.kind for c in menu.pool} == {"untilt"}
    menu.reset()
    assert len(menu.pool) == len(choices)


def test_a_food_kept_twice_is_one_member_then_its_second() -> None:
    from clients.cli.render.wingspan import counted

    assert counted(["seed", "fish", "seed"]) == {"seed", "seed #2", "fish"}
    assert counted(["fish", "seed"]) == counted(["seed", "fish"])

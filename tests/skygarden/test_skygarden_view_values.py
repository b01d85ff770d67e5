"""Sky Garden views are values: applying a decision never changes a view handed out earlier.

The service keeps the element dicts of a view's repeated message fields with
their wire bytes and reuses the bytes of an element that compares equal at the
next Apply (``ViewWire``, opted in by ``view_parts_are_values``). That is only
right when no list, dict or set of a view is a container of the engine state,
which ``apply`` mutates in place: an aliased part would change with the state,
still compare equal, and send stale bytes. Random full games (min and max
player counts, several seeds, uniform and busy play) check that directly,
through deep copies, and through the wire encoder.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from roost.skygarden.v1 import types_pb2
from skygarden_helpers import random_game_states

from services.core.convert import ViewWire
from services.skygarden.rules import ENGINE
from services.skygarden.service import SPEC

PLAYERS = (ENGINE.min_players, ENGINE.max_players)
SEEDS = (0, 1, 2)
GAMES = [(p, s, b) for p in PLAYERS for s in SEEDS for b in (False, True)]
#: Every n-th view of a game is also kept, and checked once the game is over.
KEEP_EVERY = 7


def _game(players: int, seed: int, busy: bool) -> Iterator[tuple[Any, int]]:
    """A random full game: yields ``(state, seat)`` before each decision, then
    applies the chosen action when resumed (``busy`` games build up aviaries,
    so breeding, milestones and bonuses run too)."""
    for state, seat, _action in random_game_states(players, seed, busy=busy):
        yield state, seat


def _readers(players: int) -> list[int | None]:
    return [*range(players), None]


def _containers(value: Any, path: str, out: dict[int, str]) -> None:
    """``id -> path`` of every list, dict and set reachable from ``value``
    (through tuples and the slots/attributes of plain objects too)."""
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return
    if isinstance(value, (list, dict, set)):
        if id(value) in out:
            return
        out[id(value)] = path
    if isinstance(value, dict):
        for key, item in value.items():
            _containers(item, f"{path}[{key!r}]", out)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            _containers(item, f"{path}[{index}]", out)
    else:
        names = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]
        names += list(getattr(value, "__dict__", {}))
        for name in names:
            if hasattr(value, name):
                _containers(getattr(value, name), f"{path}.{name}", out)


def test_the_service_reuses_unchanged_view_parts() -> None:
    """Sky Garden opts in to the wire reuse these tests justify."""
    assert SPEC.view_parts_are_values is True


@pytest.mark.parametrize(("players", "seed", "busy"), GAMES)
def test_views_share_no_list_or_dict_with_the_state(players: int, seed: int, busy: bool) -> None:
    """No list, dict or set inside a view, for any reader, is one of the state's."""
    for state, _seat in _game(players, seed, busy):
        in_state: dict[int, str] = {}
        _containers(state, "state", in_state)
        for reader in _readers(players):
            in_view: dict[int, str] = {}
            _containers(ENGINE.view(state, reader), "view", in_view)
            shared = [(in_view[i], in_state[i]) for i in in_view.keys() & in_state.keys()]
            assert not shared, f"view of reader {reader} aliases the state: {shared}"


@pytest.mark.parametrize(("players", "seed", "busy"), GAMES)
def test_applying_never_changes_a_view_handed_out_earlier(
    players: int, seed: int, busy: bool
) -> None:
    """The view of every reader taken before each apply still equals its deep
    copy after the apply (and a sample of them still does at the game's end)."""
    before: list[tuple[int | None, dict[str, Any], dict[str, Any]]] = []
    kept: list[tuple[int | None, dict[str, Any], dict[str, Any]]] = []
    decisions = 0
    for state, _seat in _game(players, seed, busy):
        for reader, view, snapshot in before:
            assert view == snapshot, f"decision {decisions} changed the view of reader {reader}"
        before = []
        for reader in _readers(players):
            view = ENGINE.view(state, reader)
            before.append((reader, view, copy.deepcopy(view)))
        if decisions % KEEP_EVERY == 0:
            kept += before
        decisions += 1
    for reader, view, snapshot in before + kept:
        assert view == snapshot, f"a view of reader {reader} changed during the game"
    assert decisions > 0


@pytest.mark.parametrize(("players", "seed", "busy"), GAMES)
def test_wire_bytes_with_kept_parts_match_a_fresh_build(
    players: int, seed: int, busy: bool
) -> None:
    """One kept store for the game and views encoded after every apply (the
    acting seat's, as Apply does, then a spectator's): the bytes parse to exactly
    ``View(**view)``. An aliased part would have changed with the state inside
    the kept store, compared equal to the new part and brought its stale bytes."""
    wire = ViewWire(types_pb2.View)
    assert wire.parts, "the View has repeated message fields to reuse"
    kept: dict[str, list[tuple[Any, bytes]]] = {}
    before: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for decisions, (state, seat) in enumerate(_game(players, seed, busy)):
        now = []
        for reader in (seat, None):
            view = ENGINE.view(state, reader)
            now.append((view, copy.deepcopy(view)))
            built = types_pb2.View.FromString(wire.encode(view, kept))
            assert built == types_pb2.View(**view), f"stale parts after decision {decisions}"
        for view, snapshot in before:
            assert view == snapshot
        before = now

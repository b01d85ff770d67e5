"""Reusable checks that a game's views are values (subclass per game).

The service keeps the element dicts of a view's repeated message fields with
their wire bytes and reuses the bytes of an element that compares equal at the
next Apply (``ViewWire``, opted in by ``GameSpec.view_parts_are_values``). That
is only right when no list, dict or set of a view is a container of the engine
state, which ``apply`` mutates in place, and when no view handed out is changed
later: an aliased part would change with the state, still compare equal, and
send stale bytes. Random full games (min and max player counts, several seeds)
check that directly, through deep copies, and through the wire encoder.

A game's test module subclasses :class:`ViewValues` with its ``spec`` (and may
override :meth:`ViewValues.game` to play differently).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from services.core.engine import Rng
from services.core.game_service import GameSpec
from services.core.view_wire import ViewWire

SEEDS = (0, 1, 2)
#: Every n-th view of a game is also kept, and checked once the game is over.
KEEP_EVERY = 7


def _containers(value: Any, path: str, out: dict[int, str], skip: tuple[str, ...] = ()) -> None:
    """``id -> path`` of every list, dict and set reachable from ``value``
    (through tuples and the slots/attributes of plain objects too, except the
    attributes named in ``skip``)."""
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return
    if isinstance(value, (list, dict, set)):
        if id(value) in out:
            return
        out[id(value)] = path
    if isinstance(value, dict):
        for key, item in value.items():
            _containers(item, f"{path}[{key!r}]", out, skip)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            _containers(item, f"{path}[{index}]", out, skip)
    else:
        names = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]
        names += list(getattr(value, "__dict__", {}))
        for name in names:
            if name not in skip and hasattr(value, name):
                _containers(getattr(value, name), f"{path}.{name}", out, skip)


def _games(cls: type[ViewValues]) -> list[Any]:
    """The (players, seed) games to play: the first also in make test-fast, the
    others (more random full games) only in make test."""
    engine = cls.spec.engine
    games = [(p, s) for p in (engine.min_players, engine.max_players) for s in cls.seeds]
    return [games[0], *(pytest.param(*game, marks=pytest.mark.slow) for game in games[1:])]


class ViewValues:
    """The three checks, for the game of ``spec``."""

    spec: ClassVar[GameSpec]
    #: The seeds played at the smallest and the largest player count.
    seeds: ClassVar[tuple[int, ...]] = SEEDS
    #: Attributes of state objects that keep views already handed out (a cache
    #: of read-only view dicts, not state): left out of the aliasing walk.
    view_caches: ClassVar[tuple[str, ...]] = ()
    #: Whether the game's service reuses unchanged view parts (``view_parts_are_values``).
    service_reuses_view_parts: ClassVar[bool] = True

    def game(self, players: int, seed: int) -> Iterator[tuple[Any, int]]:
        """A random full game: yields ``(state, seat)`` before each decision,
        then applies a random legal action of ``seat`` when resumed."""
        engine = self.spec.engine
        state = engine.setup(players, {}, seed)
        chooser = Rng(seed * 7919 + players)
        decisions = 0
        while not engine.is_over(state):
            seats = engine.to_act(state)
            seat = seats[chooser.below(len(seats))]
            actions = engine.legal(state, seat)
            yield state, seat
            state = engine.apply(state, seat, actions[chooser.below(len(actions))])
            decisions += 1
            assert decisions < 20_000

    def readers(self, players: int) -> list[int | None]:
        return [*range(players), None]

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if {"players", "seed"} <= set(metafunc.fixturenames):
            metafunc.parametrize(("players", "seed"), _games(type(self)))

    def test_the_service_reuses_unchanged_view_parts_where_it_pays(self) -> None:
        """The game opts in to the wire reuse these tests justify, unless the reuse
        was measured slower than building the view whole (then it opts out)."""
        assert self.spec.view_parts_are_values is self.service_reuses_view_parts

    def test_views_share_no_list_or_dict_with_the_state(self, players: int, seed: int) -> None:
        """No list, dict or set inside a view, for any reader, is one of the state's."""
        for state, _seat in self.game(players, seed):
            in_state: dict[int, str] = {}
            _containers(state, "state", in_state, self.view_caches)
            for reader in self.readers(players):
                in_view: dict[int, str] = {}
                _containers(self.spec.engine.view(state, reader), "view", in_view)
                shared = [(in_view[i], in_state[i]) for i in in_view.keys() & in_state.keys()]
                assert not shared, f"view of reader {reader} aliases the state: {shared}"

    def test_applying_never_changes_a_view_handed_out_earlier(
        self, players: int, seed: int
    ) -> None:
        """The view of every reader taken before each apply still equals its deep
        copy after the apply (and a sample of them still does at the game's end)."""
        before: list[tuple[int | None, dict[str, Any], dict[str, Any]]] = []
        kept: list[tuple[int | None, dict[str, Any], dict[str, Any]]] = []
        decisions = 0
        for state, _seat in self.game(players, seed):
            for reader, view, snapshot in before:
                assert view == snapshot, f"decision {decisions} changed reader {reader}'s view"
            before = []
            for reader in self.readers(players):
                view = self.spec.engine.view(state, reader)
                before.append((reader, view, copy.deepcopy(view)))
            if decisions % KEEP_EVERY == 0:
                kept += before
            decisions += 1
        for reader, view, snapshot in before + kept:
            assert view == snapshot, f"a view of reader {reader} changed during the game"
        assert decisions > 0

    def test_wire_bytes_with_kept_parts_match_a_fresh_build(self, players: int, seed: int) -> None:
        """One kept store for the game and views encoded after every apply (the
        acting seat's, as Apply does, then a spectator's): the bytes parse to exactly
        ``View(**view)``. An aliased part would have changed with the state inside
        the kept store, compared equal to the new part and brought its stale bytes."""
        view_class = self.spec.types.View
        wire = ViewWire(view_class)
        assert wire.parts, "the View has repeated message fields to reuse"
        kept: dict[str, list[tuple[Any, bytes]]] = {}
        for decisions, (state, seat) in enumerate(self.game(players, seed)):
            for reader in (seat, None):
                view = self.spec.engine.view(state, reader)
                built = view_class.FromString(wire.encode(view, kept))
                assert built == view_class(**view), f"stale parts after decision {decisions}"

    def test_wire_bytes_by_identity_match_a_fresh_build(self, players: int, seed: int) -> None:
        """For a game whose unchanged view parts are the very dicts handed out before
        (``view_parts_shared``): one identity-only encoder for the game, views
        encoded after every apply, and the bytes parse to exactly ``View(**view)``;
        and at least half of the parts of those views were reused, not rebuilt."""
        if not self.spec.view_parts_shared:
            pytest.skip("the game's view parts are values but not shared by identity")
        view_class = self.spec.types.View
        wire = ViewWire(view_class, shared=True)
        built_parts = total_parts = 0
        for decisions, (state, seat) in enumerate(self.game(players, seed)):
            for reader in (seat, None):
                view = self.spec.engine.view(state, reader)
                before = _remembered(wire)
                built = view_class.FromString(wire.encode(view))
                assert built == view_class(**view), f"stale parts after decision {decisions}"
                built_parts += _remembered(wire) - before
                total_parts += _count_parts(view, wire.parts)
        assert built_parts * 2 < total_parts, (built_parts, total_parts)


def _remembered(wire: ViewWire) -> int:
    """How many parts ``wire`` has built so far (it remembers each one it builds)."""
    count = 0
    stack = list(wire.parts.values())
    while stack:
        part = stack.pop()
        count += len(part.recent)
        stack += part.parts.values()
    return count


def _count_parts(value: dict[str, Any], parts: dict[str, Any]) -> int:
    """How many elements of repeated message fields ``value`` holds, at any depth."""
    count = 0
    for name, part in parts.items():
        for item in value.get(name, ()):
            count += 1 + _count_parts(item, part.parts)
    return count

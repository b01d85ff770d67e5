"""determinize: the engine contract's hidden-information sampler (``Engine.determinize``).

In Under the Leaves everything on the table is public; hidden from every seat and
spectator alike are the bag's order and which garden tiles left the game unseen at
setup. No decision is secret and no two seats decide at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.core.engine import Rng
from services.core.game_context import preview_scores
from services.undertheleaves.rules import ENGINE
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.catalogue import BAG_SIZE, GARDEN_TILES, MARKET_SIZE
from services.undertheleaves.rules.hidden import unseen_tiles
from tests.undertheleaves.undertheleaves_builder import random_decisions, with_other_bag
from tests.view_values import _containers

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]

#: Caches of view values (read-only dicts and lists shared by design between views).
VIEW_CACHES = ("view_cache",)


def positions(games: int, every: int = 5) -> Iterator[st.State]:
    """Copies of every ``every``-th state of ``games`` random games (2 to 4 players)."""
    for index, state in enumerate(random_decisions(games)):
        if index % every == 0:
            yield st.clone(state)


def previews(state: st.State, seat: int) -> list[int]:
    """The score previews the service computes (services.core.game_context.preview_scores)."""
    return preview_scores(ENGINE, "game", 3, state, seat, ENGINE.legal(state, seat))


def test_determinize_redraws_the_bag_from_the_unseen_tiles_only() -> None:
    """Engine.determinize: the bag is redrawn from the tiles nobody has seen (the bag and
    the tiles left out at setup); the table, every seat's view and legal actions, and the
    original are unchanged; the generator is reseeded."""
    checked = 0
    for state in positions(6):
        before = ENGINE.encode(state)
        for seat in (state.current, None):
            copy = ENGINE.determinize(state, seat, Rng(checked))
            assert ENGINE.encode(state) == before
            assert len(copy.bag) == len(state.bag)
            assert set(copy.bag) <= set(unseen_tiles(state))
            left_out = len(GARDEN_TILES) - BAG_SIZE[state.players]
            assert len(unseen_tiles(state)) == len(state.bag) + left_out
            assert ENGINE.view(copy, seat) == ENGINE.view(state, seat)
            if seat is not None:
                assert ENGINE.legal(copy, seat) == ENGINE.legal(state, seat)
            assert copy.rng != state.rng
            checked += 1
    assert checked > 50


def test_the_tiles_left_out_at_setup_are_unseen_too() -> None:
    """Setup: the bag holds 26/38/50 tiles for 2/3/4 players; the rest leave the game
    unseen, so a sample may put them in the bag."""
    state = ENGINE.setup(2, {}, 4)
    left_out = set(unseen_tiles(state)) - set(state.bag)
    assert len(left_out) == len(GARDEN_TILES) - BAG_SIZE[2]
    drawn = set()
    for k in range(30):
        drawn.update(ENGINE.determinize(state, 0, Rng(k)).bag)
    assert drawn & left_out
    assert len(state.market) == MARKET_SIZE


def test_states_that_differ_only_in_the_bag_sample_and_preview_the_same() -> None:
    """Engine.determinize: two states that differ only in the bag (its order and which
    tiles it holds) and the generator give the identical copy and the same previews."""
    differing = 0
    for index, state in enumerate(positions(6, every=7)):
        other = with_other_bag(state, shift=1 + index)
        differing += other.bag != state.bag
        for seat in (state.current, None):
            a = ENGINE.determinize(state, seat, Rng(5))
            b = ENGINE.determinize(other, seat, Rng(5))
            assert ENGINE.encode(a) == ENGINE.encode(b)
        if not ENGINE.is_over(state):
            assert previews(state, state.current) == previews(other, state.current)
    assert differing > 20


def test_the_copy_shares_no_mutable_part_with_the_original() -> None:
    """The copy has its own lists, dicts and gardens (boards and caches included), so
    playing it to the end changes neither the original nor a view handed out from it,
    even with the process-wide decode cache and the shared view parts in play."""
    for state in positions(3, every=11):
        if ENGINE.is_over(state):
            continue
        seat = state.current
        view = ENGINE.view(state, seat)  # fills the original's view caches
        legal = ENGINE.legal(state, seat)
        frozen = ENGINE.encode(state)
        fresh_view = ENGINE.view(st.parse(frozen), seat)
        copy = ENGINE.determinize(state, seat, Rng(9))
        mine: dict[int, str] = {}
        _containers(state, "state", mine, skip=VIEW_CACHES)
        theirs: dict[int, str] = {}
        _containers(copy, "copy", theirs, skip=VIEW_CACHES)
        assert not mine.keys() & theirs.keys(), [mine[i] for i in mine.keys() & theirs.keys()]
        chooser = Rng(3)
        while not ENGINE.is_over(copy):
            ENGINE.view(copy, copy.current)
            acting = ENGINE.to_act(copy)[0]
            options = ENGINE.legal(copy, acting)
            copy = ENGINE.decode(ENGINE.encode(copy))  # through the decode cache, as previews
            ENGINE.apply(copy, acting, options[chooser.below(len(options))])
        assert ENGINE.encode(state) == frozen
        assert ENGINE.view(state, seat) == view == fresh_view
        assert ENGINE.legal(state, seat) == legal


def test_no_decision_is_secret_or_simultaneous() -> None:
    """Under the Leaves has no secret and no simultaneous decision: one seat acts at a
    time and every action is public (so there is nothing to hide before a reveal)."""
    for state in positions(6, every=1):
        seats = ENGINE.to_act(state)
        assert len(seats) <= 1
        for seat in range(state.players):
            assert not any(action.secret for action in ENGINE.legal(state, seat))

"""The search bot in Sky Garden: the observation builder, the nests locked this turn
(remembered from the seat's earlier views, and a fallback when they are not), and
the search over real positions."""

from __future__ import annotations

import random

import pytest

from clients.bots.search import builder
from clients.bots.search.ismcts import Budget, search
from clients.bots.search.policy import SearchPolicy, same_actions
from clients.bots.search.protoview import to_values
from tests.bots.bot_positions import Position, positions, view_message

GAME = "skygarden"


def _module():  # type: ignore[no-untyped-def]
    module = builder(GAME)
    assert module is not None
    return module


def _locked(position: Position) -> bool:
    """A nest that holds birds had one put on it this turn (the view does not show it)."""
    state = position.state
    if state.turn.seat != position.seat:
        return False
    player = state.players[position.seat]
    return any(
        lock and player.areas[area].nest_birds for area, lock in enumerate(state.turn.nest_locked)
    )


@pytest.mark.parametrize("players", [1, 2, 3])
def test_the_rebuilt_state_shows_the_view_and_has_the_servers_legal_actions(
    players: int,
) -> None:
    """Over every decision of real seeded games (Event choice, every turn step, pending
    bonuses, nests locked this turn, the end), each seat's views seen in order: the
    state built from the seat's View message shows the seat exactly that View, and its
    legal actions equal the service's (kind and arguments, in order)."""
    module = _module()
    engine = module.ENGINE
    memory = module.NestMemory()
    checked = locked = 0
    for position in positions(GAME, engine, players, games_count=2, seed=40):
        built = module.build(to_values(position.view), position.seat, memory)
        assert view_message(GAME, engine, built, position.seat) == position.view
        assert same_actions(engine.legal(built, position.seat), position.actions)
        locked += _locked(position)
        checked += 1
    assert checked > 60
    if players > 1:
        assert locked > 0


def test_the_event_choice_hides_the_other_seats_cards() -> None:
    """During the secret Event choice the built state gives another seat cards the
    viewer cannot see; determinizing redraws them, and the viewer's pair is its own."""
    module = _module()
    engine = module.ENGINE
    position = next(positions(GAME, engine, 2, 1, seed=3))
    values = to_values(position.view)
    built = module.build(values, position.seat)
    own = built.players[position.seat].dealt_events
    other = built.players[1 - position.seat].dealt_events
    assert own == position.state.players[position.seat].dealt_events
    assert len(other) == 2 and not set(other) & set(own)
    assert same_actions(engine.legal(built, position.seat), position.actions)


def test_a_lock_the_memory_did_not_see_falls_back_to_greedy() -> None:
    """A view seen alone (no earlier view of the turn) cannot tell a nest locked this
    turn: the built state lists removals the server does not, the legal-list check
    notices, and the decision is played greedy on the previews."""
    module = _module()
    position = next(p for p in positions(GAME, module.ENGINE, 2, 2, seed=40) if _locked(p))
    module.MEMORY.clear()
    built = module.build(to_values(position.view), position.seat, module.NestMemory())
    assert not same_actions(module.ENGINE.legal(built, position.seat), position.actions)
    policy = SearchPolicy(GAME, Budget(playouts=4), random.Random(3))
    actions = list(position.actions)
    actions[-1].score_after = 99
    assert policy.choose(actions, position.view) == len(actions) - 1
    assert policy.fallbacks == 1
    module.MEMORY.clear()


def test_the_memory_tells_games_and_turns_apart() -> None:
    """A lock lasts until the seat's turn ends, and a view of another game (another
    birdcage) does not inherit it."""
    module = _module()
    engine = module.ENGINE
    memory = module.NestMemory()
    found = None
    previous = None
    for position in positions(GAME, engine, 2, 2, seed=40):
        values = to_values(position.view)
        locks = memory.locks(values, position.seat)
        if _locked(position) and previous is not None and not found:
            found = (values, position)
            assert locks
        previous = position
    assert found is not None
    values, position = found
    again = module.NestMemory()
    again.locks(values, position.seat)
    assert again.locks(values, position.seat) == frozenset()  # nothing gained since
    other = dict(values, birdcage=list(reversed(values["birdcage"])))
    assert memory.locks(other, position.seat) == frozenset()


def test_search_answers_every_kind_of_decision_from_the_view() -> None:
    """Over real positions of a two-player and a solo game the policy searches (no
    fallback) and its index is legal; a seeded playout budget is deterministic."""
    module = _module()
    engine = module.ENGINE
    for players in (1, 2):
        policy = SearchPolicy(GAME, Budget(playouts=6), random.Random(5))
        module.MEMORY.clear()
        chosen = 0
        for index, position in enumerate(positions(GAME, engine, players, 1, seed=11)):
            if len(position.actions) > 1:  # what a bot would see: each view, in order
                module.MEMORY.locks(to_values(position.view), position.seat)
            if index % 5 or len(position.actions) < 2:
                continue
            assert 0 <= policy.choose(position.actions, position.view) < len(position.actions)
            chosen += 1
        assert chosen >= 3 and policy.fallbacks == 0
    position = next(
        p for p in positions(GAME, engine, 2, 1, seed=11) if len(p.actions) > 4 and not _locked(p)
    )
    state = module.build(to_values(position.view), position.seat, module.NestMemory())
    runs = [
        search(engine, state, position.seat, Budget(playouts=8), random.Random(2), module.SETTINGS)
        for _ in range(2)
    ]
    assert runs[0].choice == runs[1].choice and runs[0].visits == runs[1].visits

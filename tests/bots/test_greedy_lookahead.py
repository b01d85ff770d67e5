"""The greedy bot's one-turn lookahead: its judgement in constructed positions, and
the policy answering from the seat's View message alone."""

from __future__ import annotations

import random

import pytest

from clients.bots.greedy import LOOKAHEAD, no_potential, potential_of
from clients.bots.greedy import wingspan as wingspan_potential
from clients.bots.greedy.lookahead import choose, values, worth
from clients.bots.policies import GreedyPolicy, make
from clients.bots.search import builder
from services.birdscaping.rules import ENGINE as BIRDSCAPING
from services.core.engine import Rng
from services.skygarden.rules import ENGINE as SKYGARDEN
from services.wingspan.rules import ENGINE as WINGSPAN
from tests.bots.bot_positions import positions


def _score(engine, state, seat: int) -> int:  # type: ignore[no-untyped-def]
    return next(s.total for s in engine.score(state).seats if s.seat == seat)


def _wingspan_turn_with_a_bird_to_play():  # type: ignore[no-untyped-def]
    """A Wingspan state (random play from a seed) where the seat to act starts its
    turn and can play a bird."""
    for seed in range(40):
        rng = random.Random(seed)
        state = WINGSPAN.setup(2, {}, seed)
        for _ in range(400):
            if WINGSPAN.is_over(state):
                break
            seat = WINGSPAN.to_act(state)[0]
            actions = WINGSPAN.legal(state, seat)
            kinds = {a.kind for a in actions}
            if {"play_bird", "take_action"} <= kinds:
                return state, seat, actions
            state = WINGSPAN.apply(state, seat, actions[rng.randrange(len(actions))])
    raise AssertionError("no position found")


def test_an_action_is_judged_by_the_points_of_the_whole_turn() -> None:
    """Some Wingspan decisions score nothing by themselves, only with the steps that
    follow in the same turn (a bird still to be paid for, eggs still to be placed):
    the server's one-ply preview sees no gain there; the lookahead finishes the
    turn and counts it. Such a decision turns up within a few random games."""
    found = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = WINGSPAN.setup(2, {}, seed)
        while not WINGSPAN.is_over(state) and not found:
            seat = WINGSPAN.to_act(state)[0]
            actions = WINGSPAN.legal(state, seat)
            before = _score(WINGSPAN, state, seat)
            sample = WINGSPAN.determinize(state, seat, Rng(1))
            flat = [
                i
                for i, a in enumerate(actions)
                if _score(WINGSPAN, WINGSPAN.apply(WINGSPAN.clone(sample), seat, a), seat) == before
            ]
            if flat and len(actions) > 1:
                worths = values(WINGSPAN, state, seat, actions, random.Random(1), no_potential)
                found += sum(1 for i in flat if worths[i] > before)
            state = WINGSPAN.apply(state, seat, actions[rng.randrange(len(actions))])
        if found:
            break
    assert found


def test_food_and_cards_are_worth_something_until_the_game_ends() -> None:
    state, seat, _ = _wingspan_turn_with_a_bird_to_play()
    richer = WINGSPAN.clone(state)
    richer.food[seat][0] += 1
    assert wingspan_potential.potential(richer, seat) > wingspan_potential.potential(state, seat)
    richer.round = 4
    assert wingspan_potential.potential(richer, seat) == 0.0


def test_two_birdscaping_lookahead_bots_finish_their_game() -> None:
    """Greedy against greedy ends (valuing cards in hand once made both draw, tilt
    and untilt forever, and the rules set no limit on a game's length)."""
    potential = potential_of("birdscaping")
    assert potential is no_potential
    for seed in range(3):
        rng = random.Random(seed)
        state = BIRDSCAPING.setup(2, {}, seed)
        decisions = 0
        while not BIRDSCAPING.is_over(state):
            seat = BIRDSCAPING.to_act(state)[0]
            state = BIRDSCAPING.apply(
                state,
                seat,
                BIRDSCAPING.legal(state, seat)[choose(BIRDSCAPING, state, seat, rng, potential)],
            )
            decisions += 1
            assert decisions < 600


def test_greedy_walks_the_sky_garden_track_instead_of_stopping_for_standby_points() -> None:
    """Solo Sky Garden: entering Standby scores 3 points at once and ends the seat's
    round; moving the Owner token scores little at once but opens the turn's
    actions. The previews' greedy stopped at once (3 points a game); the lookahead
    walks on."""
    state = SKYGARDEN.setup(1, {}, 1)
    rng = random.Random(1)
    while True:
        actions = SKYGARDEN.legal(state, 0)
        kinds = {a.kind for a in actions}
        if "enter_standby" in kinds and "move_owner" in kinds:
            break
        state = SKYGARDEN.apply(state, 0, actions[choose(SKYGARDEN, state, 0, rng, no_potential)])
    standby = next(i for i, a in enumerate(actions) if a.kind == "enter_standby")
    sample = SKYGARDEN.determinize(state, 0, Rng(1))
    previews = [
        _score(SKYGARDEN, SKYGARDEN.apply(SKYGARDEN.clone(sample), 0, a), 0) for a in actions
    ]
    assert previews[standby] == max(previews)  # what the previews' greedy picked
    assert actions[choose(SKYGARDEN, state, 0, rng, no_potential)].kind == "move_owner"


def test_worth_is_the_score_plus_the_potential() -> None:
    state = BIRDSCAPING.setup(2, {}, 5)
    assert worth(BIRDSCAPING, state, 0, lambda s, p: 1.5) == _score(BIRDSCAPING, state, 0) + 1.5


@pytest.mark.parametrize(("game", "players"), [("birdscaping", 2), ("birdscaping", 1)])
def test_the_greedy_policy_looks_ahead_from_the_view_alone(game: str, players: int) -> None:
    """Over real positions (View and LegalAction messages as a remote bot gets them),
    greedy rebuilds every decision and answers a legal index."""
    module = builder(game)
    assert module is not None
    policy = make("greedy", True, random.Random(2), game)
    assert isinstance(policy, GreedyPolicy) and policy.wants_view
    assert policy.lookahead is not None
    seen = 0
    for position in positions(game, module.ENGINE, players, games_count=1, seed=7):
        if len(position.actions) > 1:
            assert 0 <= policy.choose(position.actions, position.view) < len(position.actions)
            seen += 1
    assert seen > 20 and policy.lookahead.misses == 0


def test_greedy_plays_on_the_previews_where_it_does_not_look_ahead() -> None:
    policy = make("greedy", True, random.Random(2), "undertheleaves")
    assert isinstance(policy, GreedyPolicy) and not policy.wants_view
    assert potential_of("undertheleaves") is None and "undertheleaves" not in LOOKAHEAD
    assert not make("greedy", True, random.Random(2)).wants_view

"""The search bot in Sky Garden's solo game: its value against the score targets, and
legal, deterministic solo games at a fixed playout count (strength: bench.bot_strength).

Sky Garden's solo game has no AI opponent, only score targets (130, then 150). A
finished game that misses them used to be worth a loss (-1) on top of its score,
while a game still running was worth its score alone: every playout that reached
the end looked far worse than one that did not, so the search preferred whatever
kept the game going (moving birds to the Forest and back) to scoring, and ended
its solo games with a handful of points. A missed target is now worth the score
alone, as before the end, so the value never drops when the game ends.
"""

from __future__ import annotations

import random

import pytest

from clients.bots.greedy import potential_of
from clients.bots.greedy import skygarden as skygarden_potential
from clients.bots.search import skygarden
from clients.bots.search.ismcts import Budget, search, value
from clients.bots.search.policy import settings_of
from clients.bots.search.protoview import to_values
from tests.bots.bot_positions import view_message

ENGINE = skygarden.ENGINE
SCALE = skygarden.SETTINGS.scale


def _random_solo_game(seed: int):  # type: ignore[no-untyped-def]
    """The final state of a random solo game."""
    rng = random.Random(seed)
    state = ENGINE.setup(1, {}, seed)
    while not ENGINE.is_over(state):
        actions = ENGINE.legal(state, 0)
        state = ENGINE.apply(state, 0, actions[rng.randrange(len(actions))])
    return state


def test_a_missed_solo_target_is_worth_the_score_alone() -> None:
    """No cliff at the end: the final value of a solo game that misses its targets is
    the score on the same line as a running game's, from -1 (no points) to +1 (the
    highest target)."""
    final = _random_solo_game(3)
    board = ENGINE.score(final)
    assert board.final and board.solo is not None and not board.solo.won
    total = board.seats[0].total
    highest = board.solo.targets[-1]
    assert value(ENGINE, final, 0, SCALE) == pytest.approx(2 * total / highest - 1)


def test_solo_scores_short_of_the_targets_stay_apart() -> None:
    """A running solo game against score targets is valued on a straight line up to
    the highest target (150): 47 and 60 points lie 0.17 apart, where tanh(score / 30)
    put them 0.05 apart and the search could not tell its lines apart."""
    rng = random.Random(4)
    state = ENGINE.setup(1, {}, 4)
    for _ in range(8):
        actions = ENGINE.legal(state, 0)
        state = ENGINE.apply(state, 0, actions[rng.randrange(len(actions))])
    board = ENGINE.score(state)
    assert not board.final and board.solo is not None and board.solo.targets[-1] == 150
    total = board.seats[0].total
    assert value(ENGINE, state, 0, SCALE) == pytest.approx(2 * total / 150 - 1)


def _solo_game(seed: int, playouts: int, decisions: int | None = None) -> list[tuple[int, int]]:
    """A seeded solo game played by the search from the seat's rebuilt views at a fixed
    playout count: each decision's (choice, number of legal actions), asserting on the
    way that every search ran exactly ``playouts`` playouts and chose a legal action.
    Stops after ``decisions`` searched decisions, else at the end of the game."""
    state = ENGINE.setup(1, {}, seed)
    rng = random.Random(seed)
    memory = skygarden.NestMemory()
    settings = settings_of("skygarden", skygarden)
    played: list[tuple[int, int]] = []
    while not ENGINE.is_over(state) and (decisions is None or len(played) < decisions):
        actions = ENGINE.legal(state, 0)
        index = 0
        if len(actions) > 1:
            view = to_values(view_message("skygarden", ENGINE, state, 0))
            built = skygarden.build(view, 0, memory)
            result = search(ENGINE, built, 0, Budget(playouts=playouts), rng, settings)
            assert result.playouts == playouts
            assert 0 <= result.choice < len(actions)
            index = result.choice
            played.append((index, len(actions)))
        state = ENGINE.apply(state, 0, actions[index])
    if decisions is None:
        assert ENGINE.score(state).final
    return played


def test_the_solo_search_plays_a_legal_game_to_the_end() -> None:
    """A seeded solo game, every decision searched at two playouts from the seat's
    views, ends with a final score board (how well it scores is bench.bot_strength's
    to measure, docs/BENCHMARKS.md)."""
    assert len(_solo_game(1, playouts=2)) > 10


def test_the_solo_search_is_deterministic_for_a_seed_and_a_playout_count() -> None:
    """The same seed and playout count choose the same actions, decision by decision."""
    assert _solo_game(2, playouts=2, decisions=8) == _solo_game(2, playouts=2, decisions=8)


def test_sky_garden_searches_paired_with_greedys_judgement_weighted() -> None:
    """Sky Garden's playouts are one-ply and its turns long, so a few playouts are
    noisy: the candidates are compared on the same samples (paired) and greedy's
    one-turn lookahead counts for eight playouts (the builder's prior is kept); the
    playouts look at every legal action, and states are valued with greedy's
    potential (funds)."""
    settings = settings_of("skygarden", skygarden)
    assert settings.paired and settings.prior == skygarden.SETTINGS.prior == 8
    assert settings.potential is skygarden_potential.potential
    assert settings.sample >= 42  # the largest legal list seen (docs/games/skygarden.md)


def test_sky_garden_funds_are_worth_half_a_point_until_the_game_ends() -> None:
    """Funds pay for every purchase but score nothing: greedy and the search value
    each at half a point while the game runs, so a purchase for two funds has to
    bring more than a point; funds left at the end are worth nothing."""
    state = ENGINE.setup(2, {}, 3)
    before = skygarden_potential.potential(state, 0)
    state.players[0].funds += 2
    assert skygarden_potential.potential(state, 0) == pytest.approx(before + 1.0)
    assert potential_of("skygarden") is skygarden_potential.potential
    final = _random_solo_game(3)
    assert final.players[0].funds >= 0 and skygarden_potential.potential(final, 0) == 0.0

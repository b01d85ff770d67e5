"""OpenSpiel's own checks on every game and player count (clients/ai/openspiel.py).

``pyspiel.random_sim_test`` plays random games through the registered Python
game and checks OpenSpiel's invariants at every state; then the serialisation
round trips (OpenSpiel's string form and pickle), the chance node's outcome
probabilities (they sum to one), information states that never differ by
hidden information (a state and its determinization for a seat differ only
in what that seat cannot see, and give that seat the same information state
and observation), and OpenSpiel's MCTS and IS-MCTS bots choosing a legal move.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import clients.ai.openspiel  # noqa: F401  (registers the games)
from services.core.engine import Rng

CONFIGS = [
    ("undertheleaves", 2),
    ("undertheleaves", 3),
    ("undertheleaves", 4),
    ("birdscaping", 2),
    ("wingspan", 2),
    ("wingspan", 3),
    ("wingspan", 4),
    ("wingspan", 5),
    ("skygarden", 2),
    ("skygarden", 3),
    ("skygarden", 4),
]


def load(game: str, players: int) -> pyspiel.Game:
    return pyspiel.load_game(f"roost_{game}(players={players},seeds=64)")


def midgame(game: pyspiel.Game, seed: int, moves: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.apply_action(seed % 64)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


#: Long random games (several seconds each through pyspiel's checks): the slow tier.
SLOW = {("wingspan", 4), ("wingspan", 5)}


@pytest.mark.parametrize(
    ("game", "players"),
    [pytest.param(*c, marks=pytest.mark.slow) if c in SLOW else c for c in CONFIGS],
)
def test_random_simulation(game: str, players: int) -> None:
    """OpenSpiel's random simulation test: a whole random game, every invariant checked."""
    pyspiel.random_sim_test(load(game, players), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_serialisation_round_trips(game: str, players: int) -> None:
    """OpenSpiel's serialised form and pickle give back the same position."""
    spiel = load(game, players)
    state = midgame(spiel, players, 30)
    text = pyspiel.serialize_game_and_state(spiel, state)
    _spiel2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    assert copy.information_state_string() == state.information_state_string()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == str(pickle.loads(pickle.dumps(state)))


@pytest.mark.parametrize("game", ["undertheleaves", "birdscaping", "wingspan", "skygarden"])
def test_chance_outcomes_sum_to_one(game: str) -> None:
    """The start is the one chance node: every seed, equally likely, summing to 1."""
    spiel = pyspiel.load_game(f"roost_{game}")
    state = spiel.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == spiel.max_chance_outcomes() == 1 << 16
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert spiel.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_information_states_never_differ_by_hidden_information(game: str, players: int) -> None:
    """Two states differing only in what a seat cannot see (the state and its
    determinization for that seat) give it the same information state string and
    tensor and the same observation; the hidden parts really differ."""
    spiel = load(game, players)
    differed = False
    for seed in range(3):
        state = midgame(spiel, seed, 12 + 7 * seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        match = state.match
        twin_state = match.engine.determinize(match.state, seat, Rng(seed + 99))
        twin = state.clone()
        twin.match.state = twin_state
        differed |= match.engine.encode(twin_state) != match.engine.encode(match.state)
        for viewer in (seat, (seat + 1) % players):
            if viewer != seat:
                continue  # only the determinized seat's information is preserved
            assert twin.information_state_string(viewer) == state.information_state_string(viewer)
            assert np.array_equal(
                twin.information_state_tensor(viewer), state.information_state_tensor(viewer)
            )
            assert twin.observation_string(viewer) == state.observation_string(viewer)
            assert np.array_equal(twin.observation_tensor(viewer), state.observation_tensor(viewer))
    assert differed


def test_resample_keeps_the_information_state() -> None:
    """resample_from_infostate (the engine's determinize) stays in the seat's
    information set, as IS-MCTS asserts."""
    spiel = load("wingspan", 3)
    state = midgame(spiel, 1, 40)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sample = state.resample_from_infostate(seat, sampler)
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game", ["undertheleaves", "birdscaping"])
def test_openspiel_bots_run_unchanged(game: str) -> None:
    """OpenSpiel's MCTS and IS-MCTS bots (random rollouts) pick legal moves."""
    spiel = load(game, 2)
    state = midgame(spiel, 2, 6)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    mcts_bot = mcts.MCTSBot(spiel, 2.0, 8, evaluator, random_state=rng)
    assert mcts_bot.step(state) in state.legal_actions()
    is_bot = ismcts.ISMCTSBot(spiel, evaluator, 2.0, 8, random_state=rng)
    assert is_bot.step(state) in state.legal_actions()


def test_game_facts() -> None:
    """GameType and GameInfo: sequential, imperfect information, zero-sum, players a parameter."""
    spiel = pyspiel.load_game("roost_wingspan(players=3)")
    kind = spiel.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert spiel.num_players() == 3
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)
    with pytest.raises((pyspiel.SpielError, ValueError), match="2 to 2 players"):
        pyspiel.load_game("roost_birdscaping(players=3)")

"""The PettingZoo and Gymnasium environments (clients/ai/aec.py, gym.py; docs/AI.md).

PettingZoo's ``api_test`` and Gymnasium's ``check_env`` on every game and
player count; seeded episodes replay exactly; observations hold only the
seat's view (a state and its determinization for the seat observe the same);
an action outside the mask changes nothing; the vectorised env steps many
games at once; the text render names the legal actions.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import clients.ai as ai
from clients.ai.match import Match
from services.core.engine import Rng

CONFIGS = [
    ("undertheleaves", 2),
    ("undertheleaves", 3),
    ("undertheleaves", 4),
    ("birdscaping", 1),
    ("birdscaping", 2),
    ("wingspan", 2),
    ("wingspan", 3),
    ("wingspan", 4),
    ("wingspan", 5),
    ("skygarden", 1),
    ("skygarden", 2),
    ("skygarden", 3),
    ("skygarden", 4),
]


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_pettingzoo_api(game: str, players: int) -> None:
    """PettingZoo's own API test of the AEC environment."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict spaces and numpy observations
        api_test(ai.pettingzoo_env(game, players), num_cycles=40, verbose_progress=False)


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_gymnasium_env_checker(game: str, players: int) -> None:
    """Gymnasium's own environment checker (spaces, seeding, step and render)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unbounded Box warning
        check_env(ai.gym_env(game, players, render_mode="ansi"), skip_render_check=False)


def _episode(env: gymnasium.Env, seed: int, steps: int) -> list[np.ndarray]:
    obs, _ = env.reset(seed=seed)
    seen = [obs["observation"].copy()]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, _, _ = env.step(int(rng.choice(legal)))
        seen.append(obs["observation"].copy())
        if done:
            break
    return seen


@pytest.mark.parametrize("game", ["undertheleaves", "birdscaping", "wingspan", "skygarden"])
def test_seeded_episodes_are_reproducible(game: str) -> None:
    """The same seed and actions give the same observations; another seed another game."""
    first = _episode(ai.gym_env(game, 2), 11, 40)
    again = _episode(ai.gym_env(game, 2), 11, 40)
    other = _episode(ai.gym_env(game, 2), 12, 40)
    assert len(first) == len(again)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=False))


@pytest.mark.parametrize(("game", "players"), [("wingspan", 3), ("birdscaping", 2)])
def test_aec_seeded_replay(game: str, players: int) -> None:
    """PettingZoo: the same seed and actions replay the same observations and rewards."""

    def play(seed: int) -> list[float]:
        env = ai.pettingzoo_env(game, players)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace: list[float] = []
        for _ in env.agent_iter(max_iter=300):
            obs, reward, terminated, truncated, _ = env.last()
            trace.append(float(obs["observation"].sum()) + reward)
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return trace

    assert play(5) == play(5)


@pytest.mark.parametrize(("game", "players"), [(g, p) for g, p in CONFIGS if p > 1])
def test_observations_hold_no_hidden_information(game: str, players: int) -> None:
    """A seat observes a state and its determinization for that seat (other hands,
    deck and bag orders redrawn) as the same vector: nothing hidden is encoded."""
    match = Match(game, players, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(25):
        if match.over:
            break
        match.step(int(rng.choice(match.legal_indices())))
    seat = 0
    twin = Match(game, players, 3, state=match.engine.determinize(match.state, seat, Rng(7)))
    assert np.array_equal(twin.observe(seat), match.observe(seat))
    assert twin.legal_indices(seat) == match.legal_indices(seat)


def test_an_action_outside_the_mask_changes_nothing() -> None:
    """Gymnasium: an illegal index is refused with a penalty and the position kept."""
    env = ai.gym_env("undertheleaves", 2)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, done, _, info = env.step(illegal)
    assert info["illegal_action"] and reward == -1.0 and not done
    assert np.array_equal(again["observation"], obs["observation"])
    assert np.array_equal(again["action_mask"], obs["action_mask"])


def test_gym_against_the_search_bot_and_the_outcome_reward() -> None:
    """Seat 0 against Roost's search bot to the end: the last reward is the outcome."""
    env = ai.gym_env("undertheleaves", 2, opponents="search@2p")
    obs, _ = env.reset(seed=2)
    done, reward, rng = False, 0.0, np.random.default_rng(2)
    while not done:
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = info["scores"]
    expected = 1.0 if scores[0] > scores[1] else -1.0 if scores[0] < scores[1] else reward
    assert reward == expected


@pytest.mark.parametrize("game", ["undertheleaves", "wingspan"])
def test_gym_against_the_greedy_bot(game: str) -> None:
    """The greedy bot as the in-process opponent plays legal moves to the end."""
    env = ai.gym_env(game, 2, opponents="greedy")
    obs, _ = env.reset(seed=4)
    done, rng, steps = False, np.random.default_rng(4), 0
    while not done and steps < 60:
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert done or steps == 60


def test_vector_env_steps_many_games() -> None:
    """gym_vector_env: n games in one process, masks per game, autoreset."""
    envs = ai.gym_vector_env("birdscaping", 4)
    obs, _ = envs.reset(seed=0)
    assert obs["observation"].shape[0] == 4
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in obs["action_mask"]]
        obs, rewards, _done, _, _info = envs.step(np.array(actions))
        assert rewards.shape == (4,)
    envs.close()


def test_render_names_the_legal_actions() -> None:
    """render() in text: the game, the scores, the seat to act and its indexed actions."""
    env = ai.pettingzoo_env("wingspan", 2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("wingspan, 2 players")
    assert "to act" in text and "[" in text


def test_gymnasium_registry() -> None:
    """gymnasium.make("roost/<game>-v0") builds the environment."""
    env = gymnasium.make("roost/birdscaping-v0", players=2)
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].sum() > 0

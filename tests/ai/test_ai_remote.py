"""The environments on a live service (clients/ai/remote.py, policy.py), over real
gRPC and a real Redis.

Full games through the service give the same seats to act, the same legal
indices, the same observation vectors and the same returns as the in-process
engine for the same seed and moves; the remote Gymnasium env plays a whole
game against Roost's bots; PettingZoo's api_test passes on the remote AEC env;
a trained policy plays through ``roost bots --policy``'s machinery (the bot
pool loading ``clients.ai.policy:Trained``) and decides as it does in process.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from clients.ai.linear import LinearPolicy
from clients.ai.match import Match
from clients.ai.remote import RemoteTable, join_gym_env, remote_gym_env, remote_pettingzoo_env
from clients.bots.policies import load
from clients.bots.pool import BotPool, BotSeat
from tests.harness import ServerHandle, game_server

pytestmark = pytest.mark.service


@pytest.fixture(scope="module", params=["undertheleaves", "birdscaping"])
def served(request: pytest.FixtureRequest, redis_server_url: str) -> Iterator[ServerHandle]:
    spec = importlib.import_module(f"services.{request.param}.service").SPEC
    with game_server(spec, redis_server_url) as handle:
        handle.game = request.param
        yield handle


def test_remote_play_matches_in_process(served: ServerHandle) -> None:
    """Same seed, same moves: same seats, legal indices, observations and returns."""
    game = served.game
    remote = RemoteTable(game, served.address, 2, seed=21)
    local = Match(game, 2, seed=21)
    rng = random.Random(4)
    steps = 0
    try:
        while not local.over:
            assert remote.current == local.current
            seat = local.current
            assert remote.legal_indices(seat) == local.legal_indices(seat)
            for viewer in (0, 1):
                assert np.array_equal(remote.observe(viewer), local.observe(viewer))
            index = rng.choice(local.legal_indices(seat))
            local.step(index, seat)
            remote.step(index, seat)
            steps += 1
        assert remote.over
        assert remote.scores() == local.scores()
        assert remote.returns() == local.returns()
        assert steps > 20
    finally:
        remote.close()


def test_remote_gym_env_plays_a_game_against_roost_bots(served: ServerHandle) -> None:
    """remote_gym_env: seat 0 to the end against the greedy bot through the service."""
    env = remote_gym_env(served.game, served.address, 2, opponents="greedy")
    obs, _ = env.reset(seed=8)
    done, reward = False, 0.0
    rng = np.random.default_rng(8)
    while not done:
        obs, reward, done, _, _info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert reward in (-1.0, 0.0, 1.0)
    assert env.match.over
    env.close()


@pytest.mark.parametrize("seat", [0, 1])
def test_joined_game_follows_the_other_seat_through_watch(served: ServerHandle, seat: int) -> None:
    """join_gym_env: one seat of a game whose other seat a Roost bot plays in another
    thread; the env follows Watch until its seat is asked, to the end of the game (in
    Birdscaping's simultaneous draft too, where the higher seat need not wait)."""
    game = served.game
    other = 1 - seat
    host = RemoteTable(game, served.address, 2, seed=13)
    done_bot: list = []

    def bot() -> None:
        async def play() -> list:
            pool = BotPool(seed=2)
            try:
                bot_seat = BotSeat(
                    game, served.address, host.game_id, other, host.tokens[other], "random"
                )
                return await pool.play([bot_seat])
            finally:
                await pool.close()

        done_bot.extend(asyncio.run(play()))

    thread = threading.Thread(target=bot, daemon=True)
    thread.start()
    env = join_gym_env(game, served.address, host.game_id, seat, host.tokens[seat])
    obs, _ = env.reset()
    done, steps = False, 0
    rng = np.random.default_rng(3)
    while not done:
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    thread.join(60)
    assert env.match.over and steps > 5
    assert done_bot and not isinstance(done_bot[0], BaseException)
    env.close()
    host.close()


def test_remote_pettingzoo_api(served: ServerHandle) -> None:
    """PettingZoo's api_test on the AEC env backed by the service."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(remote_pettingzoo_env(served.game, served.address, 2), num_cycles=15)


def _policy(game: str, path: Path) -> LinearPolicy:
    match = Match(game, 2, 0)
    policy = LinearPolicy(game, 2, match.space.n, match.encoder.size)
    rng = np.random.default_rng(1)
    # Weights on the header and the first hashed features: enough to make the
    # choice depend on the observation, small enough to save in a moment.
    policy.W[:, :64] = rng.normal(0, 0.5, (policy.W.shape[0], 64))
    policy.b[:] = rng.normal(0, 0.1, policy.b.shape)
    policy.save(path)
    return policy


def test_trained_policy_decides_remotely_as_in_process(
    served: ServerHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """clients.ai.policy:Trained, loaded by the bots' import path, picks on the
    service's LegalAction list and View the index the policy picks in process."""
    game = served.game
    path = tmp_path / f"{game}.npz"
    policy = _policy(game, path)
    monkeypatch.setenv("ROOST_AI_POLICY", str(path))
    bot = load("clients.ai.policy:Trained")
    remote = RemoteTable(game, served.address, 2, seed=5)
    local = Match(game, 2, seed=5)
    decided = 0
    try:
        while not local.over and decided < 40:
            seat = local.current
            legal = local.legal_indices(seat)
            expected = policy.best(local.observe(seat), legal)
            messages = remote.legal_messages(seat)
            chosen = bot.choose(messages, remote.view_message(seat))
            assert remote.legal_indices(seat)[chosen] == expected
            local.step(expected, seat)
            remote.step(expected, seat)
            decided += 1
    finally:
        remote.close()


def test_trained_policy_through_the_bot_pool(
    served: ServerHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``roost bots GAME --policy clients.ai.policy:Trained`` runs: the bot pool
    plays both seats of a service game to the end, one with the trained policy."""
    game = served.game
    path = tmp_path / f"{game}-pool.npz"
    _policy(game, path)
    monkeypatch.setenv("ROOST_AI_POLICY", str(path))
    table = RemoteTable(game, served.address, 2, seed=6)

    async def play() -> list:
        pool = BotPool(seed=1)
        try:
            return await pool.play(
                [
                    BotSeat(game, served.address, table.game_id, 0, table.tokens[0], "random"),
                    BotSeat(
                        game,
                        served.address,
                        table.game_id,
                        1,
                        table.tokens[1],
                        "clients.ai.policy:Trained",
                    ),
                ]
            )
        finally:
            await pool.close()

    results = asyncio.run(play())
    assert not any(isinstance(r, BaseException) for r in results), results
    table.refresh()
    assert table.over
    table.close()

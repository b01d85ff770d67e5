"""Train a small policy on a game for a few minutes and measure it against random.

Masked policy gradient (REINFORCE with a running baseline) on the Gymnasium
environment, in numpy alone: the policy is :class:`clients.ai.linear.LinearPolicy`,
the opponents Roost's random bot, the reward the game's outcome plus the change
of the score margin (``reward="score"``), discounted over the episode.
Afterwards the policy (playing its most probable action) and a uniformly random
player each play the same seeds against the random opponent, and the win rates
are printed.

    python -m clients.ai.train --game undertheleaves --minutes 3 --out policy.npz
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from clients.ai import gym_env
from clients.ai.linear import LinearPolicy, features


def train(
    game: str,
    players: int,
    seconds: float,
    seed: int = 0,
    learning_rate: float = 0.01,
    discount: float = 0.98,
) -> tuple[LinearPolicy, int]:
    """Train for ``seconds``; returns the policy and the episodes played."""
    env = gym_env(game, players, reward="score")
    policy = LinearPolicy(
        game, players, env.action_space.n, env.observation_space["observation"].shape[0]
    )
    rng = np.random.default_rng(seed)
    baseline = 0.0
    episodes = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        obs, _ = env.reset(seed=seed + episodes)
        steps: list[tuple[np.ndarray, list[int], int]] = []
        rewards: list[float] = []
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            action = policy.sample(obs["observation"], legal, rng)
            steps.append((obs["observation"], legal, action))
            obs, reward, done, truncated, _ = env.step(action)
            rewards.append(reward)
            done = done or truncated
        ret = 0.0
        returns = []
        for reward in reversed(rewards):
            ret = reward + discount * ret
            returns.append(ret)
        returns.reverse()
        for (observation, legal, action), value in zip(steps, returns, strict=True):
            advantage = value - baseline
            baseline += 0.01 * (value - baseline)
            probs = policy.probabilities(observation, legal)
            grad = -probs
            grad[legal.index(action)] += 1.0
            f = features(observation)
            step = learning_rate * advantage * grad
            policy.W[legal] += np.outer(step, f).astype(np.float32)
            policy.b[legal] += step.astype(np.float32)
        episodes += 1
    return policy, episodes


def win_rate(game: str, players: int, policy: LinearPolicy | None, games: int, seed: int) -> float:
    """Share of ``games`` won by seat 0 (the policy, or uniform random) against random."""
    env = gym_env(game, players)
    rng = np.random.default_rng(seed)
    wins = 0.0
    for episode in range(games):
        obs, _ = env.reset(seed=10_000_000 + seed + episode)
        done = False
        reward = 0.0
        while not done:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            if policy is None:
                action = legal[int(rng.integers(len(legal)))]
            else:
                action = policy.best(obs["observation"], legal)
            obs, reward, done, _, _ = env.step(action)
        wins += reward > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="undertheleaves")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz")
    args = parser.parse_args()
    policy, episodes = train(args.game, args.players, args.minutes * 60, args.seed)
    policy.save(args.out)
    trained = win_rate(args.game, args.players, policy, args.eval_games, args.seed)
    uniform = win_rate(args.game, args.players, None, args.eval_games, args.seed)
    print(f"{args.game}: {episodes} training games in {args.minutes:g} min, saved to {args.out}")
    print(
        f"win rate against random over {args.eval_games} games: trained {trained:.0%}, "
        f"random {uniform:.0%}"
    )


if __name__ == "__main__":
    main()

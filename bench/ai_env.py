"""Speed of the AI environments in process, against OpenSpiel's own games in the same run.

For each game (two players unless ``--players``) on one core, random play:

* **env steps/s**: a :class:`clients.ai.match.Match` step as every environment
  makes it -- the legal list and its action indices (the mask), a uniform
  choice, the engine's apply;
* **observation µs/step**: encoding the acting seat's view as its vector, per step;
* **AEC steps/s**: the whole PettingZoo loop (``observe`` with the mask, ``step``);
* **OpenSpiel steps/s**: the game through pyspiel (``legal_actions``,
  ``apply_action``), as OpenSpiel's algorithms drive it.

The baselines run the same random loop through pyspiel in the same process:
OpenSpiel's Python ``python_kuhn_poker`` and its C++ ``hearts``.

    python -m bench.ai_env --seconds 2          # prints the table
    python -m bench.ai_env --seconds 2 --write  # and writes it to docs/BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

import clients.ai.openspiel  # noqa: F401  (registers the games)
from bench.report import machine, write_section
from clients.ai import pettingzoo_env
from clients.ai.match import GAMES, Match

#: Env steps per second per core asked of two-player games.
TARGETS = {"undertheleaves": 20_000, "birdscaping": 20_000, "wingspan": 10_000}


def _until(seconds: float, play_one: callable) -> tuple[int, float]:
    """Play games with ``play_one`` (returns its steps) for about ``seconds`` of this
    process's CPU time: rates are per CPU second, i.e. per core, and other processes
    on a shared machine do not count (they still cost some cache)."""
    steps = 0
    seed = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        steps += play_one(seed)
        seed += 1
    return steps, time.process_time() - started


def match_steps(game: str, players: int, seconds: float, observe: bool) -> tuple[int, float]:
    def one(seed: int) -> int:
        rng = random.Random(seed)
        match = Match(game, players, seed)
        n = 0
        out = np.zeros(match.encoder.size, np.float32)
        while not match.over:
            seat = match.current
            legal = match.legal_indices(seat)
            if observe:
                match.observe(seat, out)
            match.step(legal[rng.randrange(len(legal))], seat)
            n += 1
        return n

    return _until(seconds, one)


def aec_steps(game: str, players: int, seconds: float) -> tuple[int, float]:
    env = pettingzoo_env(game, players)

    def one(seed: int) -> int:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n

    return _until(seconds, one)


def pyspiel_steps(name: str, seconds: float) -> tuple[int, float]:
    game = pyspiel.load_game(name)

    def one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return _until(seconds, one)


def run(seconds: float, players: int, games: list[str]) -> str:
    rows = []
    rates: dict[str, float] = {}
    baselines = []
    for name, label in (
        ("python_kuhn_poker", "OpenSpiel python_kuhn_poker (Python)"),
        ("hearts", "OpenSpiel hearts (C++)"),
    ):
        steps, elapsed = pyspiel_steps(name, seconds)
        baselines.append((label, steps / elapsed))
    kuhn = baselines[0][1]
    for game in games:
        steps, elapsed = match_steps(game, players, seconds, observe=False)
        env_rate = steps / elapsed
        rates[game] = env_rate
        o_steps, o_elapsed = match_steps(game, players, seconds, observe=True)
        observe_us = max(o_elapsed / o_steps - elapsed / steps, 0.0) * 1e6
        a_steps, a_elapsed = aec_steps(game, players, seconds)
        s_steps, s_elapsed = pyspiel_steps(f"roost_{game}(players={players},seeds=1024)", seconds)
        rows.append(
            f"| {game} | {players} | {env_rate:,.0f} | {env_rate / kuhn:.2f} | {observe_us:,.0f} "
            f"| {a_steps / a_elapsed:,.0f} | {s_steps / s_elapsed:,.0f} |"
        )
    lines = [
        "## AI environments: steps per second in process",
        "",
        f"Command: `python -m bench.ai_env --seconds {seconds:g} --write` ({machine()}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores while it ran)."
        " Rates are per CPU second of the one benchmark process (`time.process_time`), so "
        "per core; other processes on a shared machine still cost cache, so read the ratios "
        "first.",
        "Random play. *env steps/s*: the legal list with its action indices (the mask) and the "
        "engine's apply, as every environment steps; *vs kuhn*: that rate ÷ OpenSpiel's Python "
        "Kuhn poker's in the same run; *observation*: encoding the acting seat's view vector, "
        "µs per step; *AEC*: the whole PettingZoo loop (observe with mask, step); "
        "*OpenSpiel*: the game through pyspiel (`legal_actions`, `apply_action`).",
        "",
        "| game | players | env steps/s | vs kuhn | observation (µs/step) | AEC steps/s "
        "| OpenSpiel steps/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "Baselines in the same run (random play through pyspiel): "
        + "; ".join(f"{label} {rate:,.0f} steps/s" for label, rate in baselines)
        + ".",
    ]
    reached = [
        f"{game} {rates[game]:,.0f} (target {target:,})"
        for game, target in TARGETS.items()
        if game in rates and players == 2
    ]
    if reached:
        lines += ["", "Targets for two players, env steps/s per core: " + "; ".join(reached) + "."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=list(GAMES))
    parser.add_argument("--write", action="store_true", help="write docs/BENCHMARKS.md")
    args = parser.parse_args()
    body = run(args.seconds, args.players, args.only)
    print(body)
    if args.write:
        write_section("ai-env", body)


if __name__ == "__main__":
    main()

"""OpenSpiel's IS-MCTS against Roost's search bot, in process.

Seat 0 (or 1 in every other game) is OpenSpiel's own ``ISMCTSBot`` with a
random-rollout evaluator, unchanged: it samples the seat's information set
through ``resample_from_infostate`` (the engine's ``determinize``). The other
seat is Roost's search bot (:mod:`clients.bots.search.ismcts`) with its game's
settings and a playout budget. Both see only their seat's information.

    python -m clients.ai.examples.ismcts_vs_search --game undertheleaves --games 4
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import clients.ai.openspiel  # noqa: F401  (registers the games)
from clients.ai.opponents import search_opponent


def play(
    game_name: str, seed: int, ismcts_seat: int, simulations: int, playouts: int
) -> list[float]:
    """One game; returns the seats' returns."""
    game = pyspiel.load_game(f"roost_{game_name}(players=2)")
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
    )
    search = search_opponent(game_name, playouts, random.Random(seed))
    state = game.new_initial_state()
    state.apply_action(seed % game.max_chance_outcomes())
    while not state.is_terminal():
        seat = state.current_player()
        action = bot.step(state) if seat == ismcts_seat else search(state.match, seat)
        state.apply_action(int(action))
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="undertheleaves")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations")
    parser.add_argument("--playouts", type=int, default=32, help="search bot playouts")
    args = parser.parse_args()
    totals = {"ismcts": 0.0, "search": 0.0}
    for seed in range(args.games):
        seat = seed % 2
        returns = play(args.game, seed, seat, args.simulations, args.playouts)
        totals["ismcts"] += returns[seat]
        totals["search"] += returns[1 - seat]
        print(f"game {seed}: IS-MCTS in seat {seat}, returns {returns}")
    print(f"mean return over {args.games} games: {totals}")


if __name__ == "__main__":
    main()

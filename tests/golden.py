"""Golden hashes of seeded random games, played through the engine contract only.

A refactor that only renames things must leave every hash identical. For each
player count, ``games`` seeded games are played: at every decision the acting
seat's legal list (kind and args), the score board, that seat's view and the
spectator's view (as sorted JSON) go into one SHA-256, and the encoded state
every ``encode_every`` decisions and at the end (so the stored form is pinned
too). The choice among seats and actions comes from a seeded ``Rng``.

Run ``python -m tests.golden <game>`` to print the hashes of a game.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from typing import Any

from services.core.engine import Rng


def _score_form(board: Any) -> list[Any]:
    return [
        [s.seat, s.total, sorted(s.categories.items()), list(s.tiebreak), s.rank]
        for s in board.seats
    ] + [board.final, sorted(board.extras.items())]


def game_hash(engine: Any, players: int, seed: int, encode_every: int = 20) -> str:
    """The SHA-256 of one seeded random game (see the module docstring)."""
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=list).encode())

    state = engine.setup(players, {}, seed)
    chooser = Rng(seed ^ 0x601D)
    decisions = 0
    digest.update(engine.encode(state))
    while not engine.is_over(state):
        seats = engine.to_act(state)
        seat = seats[chooser.below(len(seats))] if len(seats) > 1 else seats[0]
        actions = engine.legal(state, seat)
        feed([[a.kind, a.args, a.label, a.secret, a.public_label] for a in actions])
        feed(_score_form(engine.score(state)))
        feed(engine.view(state, seat))
        if decisions % 7 == 0:
            feed(engine.view(state, None))
        state = engine.apply(state, seat, actions[chooser.below(len(actions))])
        decisions += 1
        if decisions % encode_every == 0:
            digest.update(engine.encode(state))
    digest.update(engine.encode(state))
    feed(_score_form(engine.score(state)))
    return digest.hexdigest()


def game_hashes(name: str, games: int = 3) -> dict[int, str]:
    """One combined hash per player count: ``games`` seeds each."""
    engine = importlib.import_module(f"services.{name}.rules").ENGINE
    out = {}
    for players in range(engine.min_players, engine.max_players + 1):
        combined = hashlib.sha256()
        for seed in range(1, games + 1):
            combined.update(game_hash(engine, players, seed * 7919 + players).encode())
        out[players] = combined.hexdigest()
    return out


if __name__ == "__main__":
    for game in sys.argv[1:]:
        print(game, game_hashes(game))


def continued_hash(engine: Any, data: bytes, decisions: int = 40) -> str:
    """The SHA-256 of ``decisions`` seeded random decisions played on from a
    stored state (``data``, as ``encode`` wrote it), views and states included."""
    digest = hashlib.sha256()
    state = engine.decode(data)
    chooser = Rng(0x57A7E)
    for _ in range(decisions):
        if engine.is_over(state):
            break
        seats = engine.to_act(state)
        seat = seats[chooser.below(len(seats))] if len(seats) > 1 else seats[0]
        actions = engine.legal(state, seat)
        digest.update(json.dumps(engine.view(state, seat), sort_keys=True).encode())
        state = engine.apply(state, seat, actions[chooser.below(len(actions))])
        digest.update(engine.encode(state))
    return digest.hexdigest()

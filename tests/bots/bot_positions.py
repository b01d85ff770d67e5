"""Positions of real games, seen the way a remote bot sees them.

A position is the engine state, the seat to decide, the seat's View message
and its legal actions as the service sends them (``LegalAction`` messages with
typed actions), all built with the service's own converters.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from roost import games
from roost.common.v1 import common_pb2

from services.core.convert import ActionCodec, view_to_proto


@dataclass
class Position:
    """One decision of one seat in a real game."""

    state: Any
    seat: int
    view: Any
    actions: list[Any]


def messages(game: str) -> Any:
    """The game's service messages module (LegalAction and the rest)."""
    identity = games.game(game)
    return importlib.import_module(f"{identity.package}.{identity.proto_file}_pb2")


def view_message(game: str, engine: Any, state: Any, seat: int) -> Any:
    """The seat's View message, as the service builds it."""
    identity = games.game(game)
    types = importlib.import_module(f"{identity.package}.types_pb2")
    return view_to_proto(engine.view(state, seat), types.View)


def legal_messages(game: str, engine: Any, state: Any, seat: int) -> list[Any]:
    """The seat's legal actions as the service sends them."""
    m = messages(game)
    codec = ActionCodec(m.LegalAction().action.__class__)
    return [
        m.LegalAction(
            ref=common_pb2.ActionRef(id=i, label=a.label, kind=a.kind),
            action=codec.to_proto(a),
        )
        for i, a in enumerate(engine.legal(state, seat))
    ]


def positions(
    game: str, engine: Any, players: int, games_count: int, seed: int = 0
) -> Iterator[Position]:
    """Every decision of ``games_count`` random games (seeds ``seed``, ``seed + 1``, ...)."""
    for index in range(games_count):
        rng = random.Random(seed + index)
        state = engine.setup(players, {}, seed + index)
        while not engine.is_over(state):
            for seat in engine.to_act(state):
                yield Position(
                    state,
                    seat,
                    view_message(game, engine, state, seat),
                    legal_messages(game, engine, state, seat),
                )
            seat = engine.to_act(state)[0]
            actions = engine.legal(state, seat)
            state = engine.apply(state, seat, actions[rng.randrange(len(actions))])

"""Every engine's ``clone``: the copy encodes as the original does, plays on as a
decoded copy would, and deciding on it leaves the original untouched (the
engine contract; score previews try every legal action on clones)."""

from __future__ import annotations

import importlib

import pytest

from services.core.engine import Rng
from services.registry import GAMES


@pytest.mark.parametrize("name", [g.name for g in GAMES])
def test_clone_is_an_independent_copy_that_plays_as_a_decoded_one(name: str) -> None:
    engine = importlib.import_module(f"services.{name}.rules").ENGINE
    players = min(engine.max_players, max(engine.min_players, 2))
    state = engine.setup(players, {}, 11)
    chooser = Rng(5)
    checked = 0
    while not engine.is_over(state):
        seats = engine.to_act(state)
        seat = seats[chooser.below(len(seats))]
        actions = engine.legal(state, seat)
        if checked % 9 == 0:
            before = engine.encode(state)
            copy, decoded = engine.clone(state), engine.decode(before)
            assert engine.encode(copy) == before
            for action in actions[:4]:
                trial, reference = engine.clone(copy), engine.clone(decoded)
                engine.apply(trial, seat, action)
                engine.apply(reference, seat, action)
                assert engine.encode(trial) == engine.encode(reference)
                assert engine.view(trial, seat) == engine.view(reference, seat)
            assert engine.encode(state) == before == engine.encode(copy)
        checked += 1
        state = engine.apply(state, seat, actions[chooser.below(len(actions))])
    assert checked > 20

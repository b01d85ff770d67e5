"""types.proto matches the engine: every view and every legal action converts.

The proto is compiled into a temporary folder and loaded under a private module
name, so this runs without ``make proto`` and never shadows the stubs in gen/.
"""

import importlib.util

import pytest
from google.protobuf import json_format

from services.core.engine import Rng
from services.undertheleaves.rules import ENGINE

CHOICE_CARDS = {"dwellers": ["leaf_flirty", "puddle_friendly", "mushroom_collector"]}


@pytest.fixture(scope="module")
def types_pb2():
    """The generated types of this game (``make proto`` builds gen/ before the tests)."""
    return importlib.import_module("roost.undertheleaves.v1.types_pb2")


def _same_after_round_trip(view, message):
    back = json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    assert back == view


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        pytest.param(3, CHOICE_CARDS, marks=pytest.mark.slow),
        pytest.param(4, {"allow_flip": False}, marks=pytest.mark.slow),
    ],
)
def test_types_proto_every_view_and_legal_action_converts(types_pb2, players, options):
    state = ENGINE.setup(players, options, seed=40 + players)
    chooser = Rng(players)
    phases = set()
    while True:
        for seat in [None, *range(players)]:
            view = ENGINE.view(state, seat)
            _same_after_round_trip(view, json_format.ParseDict(view, types_pb2.View()))
        phases.add(view["phase"])
        if ENGINE.is_over(state):
            break
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal(state, seat)
        for action in legal:
            json_format.ParseDict({action.kind: dict(action.args)}, types_pb2.Action())
        ENGINE.apply(state, seat, legal[chooser.below(len(legal))])
    assert "PHASE_OVER" in phases
    if options is CHOICE_CARDS:
        assert "PHASE_PLACE_DWELLER" in phases

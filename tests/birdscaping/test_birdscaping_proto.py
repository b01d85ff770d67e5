"""types.proto maps the engine: every view and every legal action parses into the messages."""

from __future__ import annotations

import importlib

import pytest
from google.protobuf import json_format

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.actions import KINDS
from services.core.engine import Rng

PROTO = "roost/birdscaping/v1/types.proto"


@pytest.fixture(scope="module")
def pb2():
    """The generated types of this game (``make proto`` builds gen/ before the tests)."""
    return importlib.import_module("roost.birdscaping.v1.types_pb2")


def test_action_oneof_matches_the_engine_kinds(pb2):
    """The Action oneof has exactly the engine's action kinds."""
    oneof = pb2.Action.DESCRIPTOR.oneofs_by_name["kind"]
    assert sorted(f.name for f in oneof.fields) == sorted(KINDS)


def test_view_fields_are_exactly_the_view_keys(pb2):
    """The View message's fields are exactly the keys of ENGINE.view."""
    s = ENGINE.setup(2, {}, 1)
    assert set(ENGINE.view(s, 0)) == {f.name for f in pb2.View.DESCRIPTOR.fields}


@pytest.mark.parametrize(("players", "options"), [(2, {}), (1, {"difficulty": "hard"})])
@pytest.mark.parametrize("seed", [1, 2])
def test_views_and_actions_parse_throughout_a_random_game(pb2, players, options, seed):
    """ParseDict succeeds for the views of every seat and the spectator, and for every legal
    action, throughout a random game."""
    s = ENGINE.setup(players, options, seed)
    chooser = Rng(seed)
    while True:
        for viewer in [None, *range(players)]:
            json_format.ParseDict(ENGINE.view(s, viewer), pb2.View())
        if ENGINE.is_over(s):
            break
        seats = ENGINE.to_act(s)
        seat = seats[chooser.below(len(seats))]
        actions = ENGINE.legal(s, seat)
        for action in actions:
            message = json_format.ParseDict({action.kind: dict(action.args)}, pb2.Action())
            assert message.WhichOneof("kind") == action.kind
        ENGINE.apply(s, seat, actions[chooser.below(len(actions))])

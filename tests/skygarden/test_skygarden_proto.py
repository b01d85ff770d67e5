"""types.proto matches the engine: every view and every legal action converts."""

from __future__ import annotations

import importlib

import pytest
from google.protobuf import json_format
from skygarden_helpers import random_game_states

from services.skygarden.rules import ENGINE

PROTO = "roost/skygarden/v1/types.proto"


@pytest.fixture(scope="module")
def types_pb2():
    """The generated types of this game (``make proto`` builds gen/ before the tests)."""
    return importlib.import_module("roost.skygarden.v1.types_pb2")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_views_and_actions_convert(types_pb2, players: int) -> None:
    """ParseDict accepts every seat's and the spectator's view through a random game, and
    every legal action as ``{kind: args}``."""
    last = None
    for i, (st, seat, _action) in enumerate(random_game_states(players, 30 + players, busy=True)):
        for action in ENGINE.legal(st, seat):
            message = json_format.ParseDict({action.kind: dict(action.args)}, types_pb2.Action())
            assert message.WhichOneof("kind") == action.kind
        if i % 5 == 0:
            for viewer in [None, *range(players)]:
                json_format.ParseDict(ENGINE.view(st, viewer), types_pb2.View())
        last = st
    for viewer in [None, *range(players)]:
        view = json_format.ParseDict(ENGINE.view(last, viewer), types_pb2.View())
        assert view.phase == types_pb2.PHASE_GAME_OVER


def test_every_action_kind_is_in_the_oneof(types_pb2) -> None:
    """The engine's handlers and the proto oneof name the same action kinds."""
    from services.skygarden.rules.dispatch import APPLY_BY_KIND

    oneof = types_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"]
    assert {f.name for f in oneof.fields} == set(APPLY_BY_KIND)

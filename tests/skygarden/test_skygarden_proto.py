"""types.proto matches the engine: every view and every legal action converts."""

from __future__ import annotations

import importlib
import sys
from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import json_format
from grpc_tools import protoc
from skygarden_helpers import random_game_states

from services.skygarden.rules import ENGINE

ROOT = Path(__file__).resolve().parents[2]
PROTO = "roost/skygarden/v1/types.proto"


@pytest.fixture(scope="module")
def types_pb2(tmp_path_factory: pytest.TempPathFactory):
    """The generated module, compiled into a temporary directory and imported there."""
    out = tmp_path_factory.mktemp("sg_proto")
    well_known = str(resources.files("grpc_tools") / "_proto")
    status = protoc.main(
        ["protoc", f"-I{ROOT / 'protos'}", f"-I{well_known}", f"--python_out={out}", PROTO]
    )
    assert status == 0
    for folder in (out / "roost", out / "roost/skygarden", out / "roost/skygarden/v1"):
        (folder / "__init__.py").touch()
    # A generated ``roost`` package (gen/) may already be imported: import ours in
    # isolation, then put the previous modules back.
    saved = {k: v for k, v in sys.modules.items() if k == "roost" or k.startswith("roost.")}
    for key in saved:
        del sys.modules[key]
    sys.path.insert(0, str(out))
    try:
        module = importlib.import_module("roost.skygarden.v1.types_pb2")
    finally:
        sys.path.remove(str(out))
        for key in [k for k in sys.modules if k == "roost" or k.startswith("roost.")]:
            del sys.modules[key]
        sys.modules.update(saved)
    return module


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
    from services.skygarden.rules.engine import _HANDLERS

    oneof = types_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"]
    assert {f.name for f in oneof.fields} == set(_HANDLERS)

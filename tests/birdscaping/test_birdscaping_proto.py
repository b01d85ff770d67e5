"""types.proto maps the engine: every view and every legal action parses into the messages."""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path

import pytest
from google.protobuf import json_format

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.actions import KINDS
from services.core.engine import Rng

ROOT = Path(__file__).resolve().parents[2]
PROTO = "roost/birdscaping/v1/types.proto"


@pytest.fixture(scope="module")
def pb2(tmp_path_factory):
    """Compile types.proto into a temp dir and load the module from its file path (no
    package import, so no clash with a cached ``roost`` package from gen/)."""
    from grpc_tools import protoc

    out = tmp_path_factory.mktemp("birdscaping_proto")
    well_known = str(resources.files("grpc_tools") / "_proto")
    status = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{ROOT / 'protos'}",
            f"-I{well_known}",
            f"--python_out={out}",
            PROTO,
        ]
    )
    assert status == 0
    path = out / "roost" / "birdscaping" / "v1" / "types_pb2.py"
    spec = importlib.util.spec_from_file_location("birdscaping_types_pb2_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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

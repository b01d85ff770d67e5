"""Rematch from the CLI (docs/CLIENTS.md "Rematch", docs/CLI.md): ``roost rematch``
and ``rematch`` at the prompt of ``roost play`` once the game has ended, against
the real Under the Leaves service."""

from __future__ import annotations

import json
import re

import grpc
import pytest
from roost.undertheleaves.v1 import service_pb2 as pb
from roost.undertheleaves.v1 import service_pb2_grpc as pb_grpc

from tests.clients.conftest import Roost

# Runs the roost CLI and a stack of services as processes, like test_cli_play.
pytestmark = pytest.mark.slow


def test_a_resigned_game_is_rematched_from_the_command_and_the_prompt(
    roost: Roost, cli_stack: object
) -> None:
    created = roost("new", "undertheleaves", "--players", "2", "--names", "Ada,Bo", "--json")
    assert created.returncode == 0, created.stderr
    info = json.loads(created.stdout)
    game_id = info["game_id"]
    first = info["to_act"][0]
    other = 1 - first
    resigned = roost("play", game_id, "--seat", str(first), "--no-board", stdin="resign\n")
    assert resigned.returncode == 0, resigned.stderr[-2000:]
    assert "You resigned." in resigned.stdout

    # The other seat offers: a two-seat game ended by a resignation waits for the resigner.
    offered = roost("rematch", game_id, "--seat", str(other))
    assert offered.returncode == 0, offered.stderr[-2000:]
    resigner = ["Ada", "Bo"][first]
    assert f"waiting for {resigner} to accept" in offered.stdout, offered.stdout
    new_id = re.search(r"Rematch offered \(game (\S+), you will be seat", offered.stdout)
    assert new_id is not None, offered.stdout

    # The resigner's `roost play` on the ended game offers the rematch at its prompt.
    accepted = roost("play", game_id, "--seat", str(first), "--no-board", stdin="rematch\nq\n")
    assert accepted.returncode == 0, accepted.stderr[-2000:]
    out = accepted.stdout
    assert "rematch = offer a rematch" in out
    assert f"The rematch has started: game {new_id[1]}" in out, out
    # Rotated seats: old seat s plays (s - 1) mod 2.
    assert f"Play it with: roost play {new_id[1]} --seat {(first - 1) % 2}" in out, out

    # The offerer asks again and learns it started; its new token is in the session file.
    again = roost("rematch", game_id, "--seat", str(other))
    assert f"Play it with: roost play {new_id[1]} --seat {(other - 1) % 2}" in again.stdout
    address = roost.env["GAME_ADDR_UNDERTHELEAVES"]
    with grpc.insecure_channel(address) as channel:
        state = pb_grpc.UnderTheLeavesStub(channel).GetState(
            pb.GetStateRequest(game_id=new_id[1]), timeout=10
        )
    to_act = state.to_act[0]
    playing = roost("play", new_id[1], "--seat", str(to_act), "--no-board", stdin="q\n")
    assert playing.returncode == 0, playing.stderr[-2000:]
    assert f"game {new_id[1]} — you are seat {to_act}" in playing.stdout

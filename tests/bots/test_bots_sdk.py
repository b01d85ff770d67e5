"""The bot SDK: a policy given by import path plays a real game; the CLI accepts it."""

from __future__ import annotations

import argparse
import asyncio

import grpc
import pytest
from roost.common.v1 import common_pb2

from clients import registry
from clients.bots.examples.cautious import Cautious
from clients.bots.policies import is_kind, make
from clients.bots.pool import BotPool, BotSeat
from clients.cli.main import bot_spec, build_parser
from services.undertheleaves.service import SPEC
from tests.bots.bot_positions import messages
from tests.harness import game_server

EXAMPLE = "clients.bots.examples.cautious:Cautious"


def test_a_policy_is_loaded_by_import_path() -> None:
    assert isinstance(make(EXAMPLE, True), Cautious)
    assert is_kind(EXAMPLE) and is_kind("search@150ms") and not is_kind("clever")
    with pytest.raises(ValueError, match="cannot load policy"):
        make("clients.bots.examples.cautious:Missing", True)


def test_the_cli_takes_a_policy_path() -> None:
    assert bot_spec(f"1={EXAMPLE}") == (1, EXAMPLE)
    args = build_parser().parse_args(["bots", "GAME", "--policy", EXAMPLE])
    assert args.policy == EXAMPLE
    args = build_parser().parse_args(
        ["tournament", "--game", "undertheleaves", "--players", "2", "--bots", f"random,{EXAMPLE}"]
    )
    assert args.bots == ("random", EXAMPLE)
    with pytest.raises(argparse.ArgumentTypeError):
        bot_spec("1=clever")


def test_the_example_bot_plays_a_real_game_by_import_path(redis_server_url: str) -> None:
    """The example policy, named by its import path, plays a whole Under the Leaves game
    over gRPC against the built-in random bot."""
    with game_server(SPEC, redis_server_url) as server:
        results = asyncio.run(_play(server.address))
    assert all(not isinstance(r, BaseException) for r in results), results
    assert all(r.finished for r in results) and results[0].decisions > 5


async def _play(address: str) -> list[object]:
    channel = grpc.aio.insecure_channel(address)
    created = (
        await registry.game("undertheleaves")
        .stub(channel)
        .NewGame(
            messages("undertheleaves").NewGameRequest(
                common=common_pb2.CommonOptions(players=2, seed=5)
            )
        )
    )
    await channel.close()
    pool = BotPool(seed=2)
    try:
        seats = [
            BotSeat("undertheleaves", address, created.game_id, c.seat, c.token, kind)
            for c, kind in zip(created.credentials, (EXAMPLE, "random"), strict=True)
        ]
        return await pool.play(seats)
    finally:
        await pool.close()

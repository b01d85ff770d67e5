"""Log lines carry the game id, request id and seat bound to their call (issue 2)."""

from __future__ import annotations

import asyncio

from structlog.testing import capture_logs

from services.core.logging import bind, get_logger, merge_call_fields


def test_each_call_logs_with_its_own_bound_fields() -> None:
    log = get_logger("roost.test")

    async def call(n: int) -> None:
        bind(game_id=f"g{n}", seat=n, request_id=f"r{n}")
        await asyncio.sleep(0)  # the other call binds in between
        log.info("rpc_rejected", code="FAILED_PRECONDITION")

    async def calls() -> None:
        await asyncio.gather(call(1), call(2))  # each task has its own context

    with capture_logs(processors=[merge_call_fields]) as lines:
        asyncio.run(calls())
    assert sorted((line["game_id"], line["seat"], line["request_id"]) for line in lines) == [
        ("g1", 1, "r1"),
        ("g2", 2, "r2"),
    ]
    assert all(line["code"] == "FAILED_PRECONDITION" for line in lines)


def test_a_later_bind_replaces_and_a_line_keeps_its_own_fields() -> None:
    log = get_logger("roost.test")

    async def call() -> None:
        bind(game_id="g1", seat=0)
        bind(game_id="g2")
        log.info("game_finished", game_id="own")
        log.info("game_finished")

    with capture_logs(processors=[merge_call_fields]) as lines:
        asyncio.run(call())
    assert lines[0]["game_id"] == "own" and "seat" not in lines[0]
    assert lines[1]["game_id"] == "g2"

"""The store gate (services/core/store_gate.py): once tripped, calls waiting on
the store end at once with StoreStalled and new ones are refused; reset opens it."""

from __future__ import annotations

import asyncio

import pytest

from services.core.failures import as_service_error
from services.core.store_gate import StoreGate, StoreStalled


def test_a_trip_ends_waiting_calls_and_refuses_new_ones() -> None:
    async def scenario() -> None:
        gate = StoreGate()
        never = asyncio.get_running_loop().create_future()
        waiting = asyncio.create_task(gate.call(never))
        await asyncio.sleep(0)
        gate.trip()
        with pytest.raises(StoreStalled):
            await waiting
        with pytest.raises(StoreStalled):
            await gate.call(asyncio.sleep(0, "unused"))
        gate.reset()
        assert await gate.call(asyncio.sleep(0, "answered")) == "answered"

    asyncio.run(scenario())


def test_a_real_cancellation_is_not_turned_into_stalled() -> None:
    async def scenario() -> None:
        gate = StoreGate()
        never = asyncio.get_running_loop().create_future()
        waiting = asyncio.create_task(gate.call(never))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(scenario())


def test_stalled_is_answered_store_unavailable() -> None:
    error = as_service_error(StoreStalled("stalled"))
    assert error is not None and error.reason == "ERROR_REASON_STORE_UNAVAILABLE"
    assert error.code.name == "UNAVAILABLE"


def test_a_stop_cancelling_with_the_trip_is_not_lost() -> None:
    """The trip and a stop cancel the same task before it runs (one
    CancelledError for both): the stop's cancellation goes on."""

    async def scenario() -> None:
        gate = StoreGate()
        never = asyncio.get_running_loop().create_future()

        async def retrying() -> None:
            while True:  # a caller that retries a stalled store, as a Watch catch-up does
                try:
                    await gate.call(never)
                except StoreStalled:
                    await asyncio.sleep(0)

        task = asyncio.create_task(retrying())
        await asyncio.sleep(0)
        gate.trip()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5)

    asyncio.run(scenario())

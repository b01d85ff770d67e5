"""SharedDeadlines: many awaits bounded on one timer (the Apply lane's Redis reads)."""

from __future__ import annotations

import asyncio

import pytest

from services.core.deadlines import SharedDeadlines


class _Late(Exception):
    """The error a cut-off await raises in these tests."""


async def _value_after(seconds: float, value: str) -> str:
    await asyncio.sleep(seconds)
    return value


def test_an_await_within_its_deadline_returns_its_value() -> None:
    async def scenario() -> None:
        deadlines = SharedDeadlines(0.5, 0.05, _Late)
        waits = (deadlines.run(_value_after(0.01, str(i))) for i in range(5))
        results = await asyncio.gather(*waits)
        assert results == ["0", "1", "2", "3", "4"]
        await asyncio.sleep(0.1)
        assert deadlines._timer is None, "the timer is not re-armed once nothing waits"

    asyncio.run(scenario())


def test_an_await_past_its_deadline_raises_the_error_and_the_task_goes_on() -> None:
    async def scenario() -> None:
        deadlines = SharedDeadlines(0.1, 0.02, _Late)
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(_Late):
            await deadlines.run(_value_after(5, "never"))
        assert 0.1 <= loop.time() - started < 1.0
        # The cancellation was taken back: the task can await again undisturbed.
        assert await _value_after(0.01, "after") == "after"
        assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_only_the_late_await_is_cut_off() -> None:
    async def scenario() -> None:
        deadlines = SharedDeadlines(0.15, 0.02, _Late)
        slow = asyncio.create_task(deadlines.run(_value_after(5, "slow")))
        fast = [asyncio.create_task(deadlines.run(_value_after(0.01 * i, "ok"))) for i in range(5)]
        assert [await f for f in fast] == ["ok"] * 5
        with pytest.raises(_Late):
            await slow

    asyncio.run(scenario())


def test_a_cancellation_from_elsewhere_stays_a_cancellation() -> None:
    async def scenario() -> None:
        deadlines = SharedDeadlines(5, 0.02, _Late)
        waiting = asyncio.create_task(deadlines.run(_value_after(5, "never")))
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert not deadlines._due and not deadlines._expired

    asyncio.run(scenario())


def test_a_cut_off_that_meets_another_cancellation_stays_a_cancellation() -> None:
    async def scenario() -> None:
        deadlines = SharedDeadlines(0.0, 100, _Late)  # due at once; the check is run by hand
        waiting = asyncio.create_task(deadlines.run(_value_after(5, "never")))
        await asyncio.sleep(0)  # it is waiting now
        deadlines._check(asyncio.get_running_loop())  # the cut-off
        waiting.cancel()  # and a cancellation from elsewhere, before it runs again
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(scenario())

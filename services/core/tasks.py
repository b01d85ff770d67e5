"""Stopping background tasks for good.

On Python 3.11 a cancellation that lands just as one of redis-py's
``asyncio.wait_for`` calls completes is lost: the task runs on as if it had
never been cancelled. A polling loop stopped with one ``cancel()`` and an
``await`` can then keep a drain (and ``asyncio.run``) from ever returning, so
every stop here cancels again until the task has ended.
"""

from __future__ import annotations

import asyncio

#: How long a stop waits on a cancelled task before cancelling it again.
STOP_RETRY_SECONDS = 0.5


async def cancel_until_done(task: asyncio.Task | None) -> None:
    """Cancel ``task`` again and again until it has ended (whatever it raised)."""
    while task is not None and not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=STOP_RETRY_SECONDS)

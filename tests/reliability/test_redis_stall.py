"""A Redis stall under load fails fast and loses nothing (docs/RELIABILITY.md,
"A stalled Redis").

Redis is stopped with SIGSTOP for 4 s while players Apply (with request ids,
retrying UNAVAILABLE with the same id), every game is watched, and a reader
calls the browser port, and a client of the matchmaker queues players and
reads their tickets (Enqueue, GetTicket). ``STORE_STALL_SECONDS`` is 1 here (2 by default): the
behaviour is that of a longer stall with the default, in less time. Every
call made while Redis is stopped must be answered before it is continued (the
gate fails calls fast, instead of holding them until Redis answers), never
INTERNAL, UNKNOWN or DEADLINE_EXCEEDED (the clients' deadline is 5 s); no
acknowledged Apply is lost and none applied twice; every Watch resumes with no
version missing or repeated; health is SERVING again. The matchmaker fails
fast the same way (its Redis client passes the same gate) and loses no
acknowledged ticket.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.redis_stall import stack, stall_under_load

pytestmark = [pytest.mark.e2e, pytest.mark.reliability]

STALL_SECONDS = 4.0
STALL_DETECT_SECONDS = 1.0


def test_a_stalled_redis_fails_calls_fast_and_loses_nothing(tmp_path: Path) -> None:
    with stack(STALL_DETECT_SECONDS, tmp_path) as (address, http_port, pid, url, matchmaker):
        report = stall_under_load(
            address, http_port, pid, url, STALL_SECONDS, players=3, matchmaker=matchmaker
        )
    shown = f"{report}"  # every figure, whichever check fails
    assert not report.errors, shown
    assert report.calls_during_stall > 0, shown
    assert report.waiting_at_resume == 0, shown
    assert report.codes.get("UNAVAILABLE", 0) > 0, shown
    assert set(report.codes) <= {"OK", "UNAVAILABLE", "ABORTED"}, shown
    assert report.applies_acknowledged > 0, shown
    assert (report.lost, report.doubled) == (0, 0), shown
    assert report.watch_gaps == 0, shown
    assert report.watchers_caught_up, shown
    assert report.health_back, shown
    assert report.matchmaker_calls_during_stall > 0, shown
    assert report.matchmaker_codes.get("UNAVAILABLE", 0) > 0, shown
    assert set(report.matchmaker_codes) <= {"OK", "UNAVAILABLE"}, shown
    assert report.tickets_acknowledged > 0, shown
    assert report.tickets_missing == 0, shown
    log = (tmp_path / "services.undertheleaves.log").read_text()
    assert "Traceback" not in log
    assert '"event": "store_unreachable"' in log and '"event": "store_reachable"' in log
    mm_log = (tmp_path / "services.matchmaking.log").read_text()
    assert "Traceback" not in mm_log
    assert '"event": "store_unreachable"' in mm_log and '"event": "store_reachable"' in mm_log

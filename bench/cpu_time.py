"""CPU time of running processes, read from ``/proc`` (Linux).

``cpu_seconds(pid)`` is the user + system time the process and every live
descendant have used so far (their threads included); a difference of two
readings is what they spent in between. Where ``/proc`` is missing it
returns None, and the figures that need it are left out.
"""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (field 3 onwards)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def _children(pid: int) -> list[int]:
    """Live processes whose parent is ``pid``."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` and its live descendants; None
    without /proc or when the process is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    # utime and stime are fields 14 and 15 of stat (indexes 11 and 12 here).
    total = (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND
    for child in _children(pid):
        total += cpu_seconds(child) or 0.0
    return total

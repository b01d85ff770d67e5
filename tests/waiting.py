"""Waiting on conditions, never on the clock: a test polls what it needs to see, with a
deadline generous enough for a loaded machine (load average 10 on 2 cores)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

#: Seconds a test waits for a condition before it fails: generous, since a passing
#: test returns as soon as the condition holds.
DEADLINE = 120.0


def wait_until(check: Callable[[], T], what: str, timeout: float = DEADLINE) -> T:
    """Poll ``check`` until it returns something truthy (returned); fail after ``timeout``."""
    end = time.monotonic() + timeout
    delay = 0.02
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > end:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(delay)
        delay = min(delay * 2, 0.25)


def _socket_inodes(pid: int) -> set[int]:
    inodes = set()
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return inodes
    for name in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def connections(pid: int, port: int) -> set[int]:
    """Socket inodes of the established TCP connections that process ``pid`` holds to a
    server on local ``port`` (Linux /proc); a new connection has a new inode."""
    owned = _socket_inodes(pid)
    found: set[int] = set()
    for table in ("tcp", "tcp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        try:
            lines = path.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            established = fields[3] == "01"
            inode = int(fields[9])
            if established and remote_port == port and inode in owned:
                found.add(inode)
    return found

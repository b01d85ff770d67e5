"""bench/tournament.py's CPU figures: CPU time read from /proc, per decision in the table."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.cpu_time import cpu_seconds
from bench.tournament import section

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

BUSY = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"


def test_cpu_seconds_counts_a_process_and_its_children() -> None:
    """A parent that only waits is charged its busy child's CPU while the child runs."""
    parent = subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, sys; subprocess.run([sys.executable, '-c', sys.argv[1] + "
         "'import time; time.sleep(5)'])", BUSY],
    )  # fmt: skip
    try:
        used = 0.0
        for _ in range(100):
            used = cpu_seconds(parent.pid) or 0.0
            if used >= 0.3:
                break
            time.sleep(0.05)
        assert used >= 0.3
    finally:
        parent.kill()
        parent.wait()


def test_cpu_seconds_of_a_gone_process_is_none() -> None:
    assert cpu_seconds(2**22 + 12345) is None  # above the kernel's largest pid
    assert cpu_seconds(os.getpid()) is not None


def test_the_table_shows_cpu_per_decision_of_each_process() -> None:
    report = {
        "game": "undertheleaves", "players": 2, "games_finished": 4, "games_requested": 4,
        "concurrency": 2, "bots": ["random"], "games_per_second": 5.0,
        "decisions_per_second": 250.0, "decisions": 200, "errors_by_code": {},
        "rpc_latency": {"Apply": {"calls": 200, "p50_ms": 1.0, "p95_ms": 2.0, "p99_ms": 3.0}},
        "cpu_ms_per_decision": {"service": 0.91, "client": 0.5, "redis": None},
        "command": "roost tournament --game undertheleaves",
    }  # fmt: skip
    text = section([report], [], load=3.5)
    assert "| 0.91 / 0.50 / - | 0.23 | - |" in text  # 0.91 ms x 250 decisions/s
    report["cpu_ms_per_decision"]["redis"] = 0.09  # 1.5 ms a decision, 50 decisions a game
    cores = os.cpu_count() or 1
    assert f"| 0.23 | {cores * 1000 / 1.5 / 50:.1f} |" in section([report], [])
    assert "load average was 3.5" in text

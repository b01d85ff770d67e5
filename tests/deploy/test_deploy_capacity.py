"""The memory benchmark behind docs/DEPLOY.md's capacity figures runs and adds up.

A small run of ``bench/redis_memory.py`` (five live and five finished games of
Under the Leaves, a real Redis and the real service process) must produce the
figures the docs quote, in a plausible order: a game grows as it is played, and
the two ways of measuring (``used_memory`` and ``MEMORY USAGE``) agree.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.deploy.manifests import ROOT


@pytest.mark.slow
def test_the_memory_benchmark_measures_bytes_per_game() -> None:
    command = ["--games", "5", "--players", "2", "--only", "undertheleaves", "--no-write"]
    result = subprocess.run(
        [sys.executable, "-m", "bench.redis_memory", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    table = result.stdout.split("## Redis memory per game", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| undertheleaves | 2 |")]
    assert len(rows) == 2, table  # the figures and how many games a maxmemory holds
    cells = [float(c.replace(",", "")) for c in rows[0].strip("|").split("|")[1:]]
    _players, decisions, new, live, finished = cells[:5]
    keys_live, hash_kib, stream_kib, result_b, result_key_b = cells[5:]
    assert decisions > 10
    # MEMORY USAGE is exact per key: a game grows as it is played.
    assert 0 < hash_kib < keys_live < hash_kib + stream_kib < 1024
    assert 100 < result_key_b < 64 * 1024
    # used_memory (medians, noisier): the same order of magnitude.
    for used in (new, live, finished):
        assert 0 < used < 1024
    assert 0.5 < finished / (hash_kib + stream_kib) < 1.5
    assert 0.5 < result_b / result_key_b < 1.5
    assert "Command: `python -m bench.redis_memory --games 5 --players 2 --only" in table
    assert re.search(r"dev 256 MiB, prod 1,024 MiB", table)

"""The archive on PostgreSQL, and a replica killed between a game's end and its
archive write (docs/RECORDS.md, issue 30; real Redis, real gRPC, real databases)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis
from roost.common.v1 import common_pb2

from services.core.records.archive import Archive
from services.core.records.archiving_store import pending_key
from services.core.redis_server import free_port
from services.core.store import events_key, game_key
from services.undertheleaves.service import SPEC
from tests.harness import game_server
from tests.records.postgres import postgres_server
from tests.records.test_records_service import reads, wait_archived
from tests.service_contract import Client

pytestmark = pytest.mark.service

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def raw_redis(redis_server_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server_url)
    yield client
    client.close()


def test_the_archive_on_postgresql_answers_with_the_same_bytes(
    redis_server_url: str, raw_redis: redis.Redis
) -> None:
    """ARCHIVE_URL=postgresql://...: a game archived there answers every read
    from a fresh replica after its Redis keys are gone; its migration is
    idempotent (a second replica opens the same schema)."""
    with postgres_server() as url:
        with game_server(SPEC, redis_server_url, archive_url=url) as first:
            client = Client(first, SPEC)
            created = client.new_game(3, seed=31)
            client.play_random(created, random.Random(3))
            tokens = {c.seat: c.token for c in created.credentials}
            before = reads(client, created.game_id, tokens)
            archive = Archive(url)
            wait_archived(archive, created.game_id)
        raw_redis.delete(game_key(created.game_id), events_key(created.game_id))
        with game_server(SPEC, redis_server_url, archive_url=url) as second:
            assert reads(Client(second, SPEC), created.game_id, tokens) == before
        assert [r.game_id for r in archive.list_games(game="undertheleaves")] == [created.game_id]
        archive.close()


def test_a_replica_killed_before_its_archive_write_is_caught_up_once(
    redis_server_url: str, raw_redis: redis.Redis, tmp_path: Path
) -> None:
    """A service process SIGKILLed after the write that ended a game but before
    its archive write (held up by a lock on the SQLite file): the game stays
    marked in Redis, and another replica's drain archives it exactly once."""
    db = tmp_path / "archive.sqlite3"
    url = f"sqlite:///{db}"
    Archive(url).close()  # the schema, before the lock
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_server_url,
        "ARCHIVE_URL": url,
        "ARCHIVE_POLL_SECONDS": "3600",
        "PORT": str(port),
        "METRICS_PORT": "0",
        "CONNECT_PORT": "0",
        "HOST": "127.0.0.1",
        "LOG_LEVEL": "warning",
        "PYTHONPATH": f"{ROOT}:{ROOT / 'gen'}",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "services.undertheleaves"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    lock = sqlite3.connect(db, timeout=1)
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(channel).result(timeout=30)
        lock.execute("BEGIN EXCLUSIVE")  # every archive write now waits
        client = Client.__new__(Client)
        client.channel = channel
        client.stub = SPEC.grpc_module.UnderTheLeavesStub(channel)
        client.m = SPEC.messages
        created = client.new_game(2, seed=77)
        client.play_random(created, random.Random(7))
        assert client.state(created.game_id).status == common_pb2.GAME_STATUS_FINISHED
        marked = raw_redis.zscore(pending_key("undertheleaves"), created.game_id)
        assert marked is not None, "the ending write left no pending mark"
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        lock.rollback()
        lock.close()
    archive = Archive(url)
    assert not archive.has(created.game_id)
    with game_server(SPEC, redis_server_url, archive_url=url, archive_poll_seconds=0.1):
        wait_archived(archive, created.game_id)
        deadline = time.monotonic() + 30
        while raw_redis.zscore(pending_key("undertheleaves"), created.game_id) is not None:
            assert time.monotonic() < deadline, "the pending mark was never removed"
            time.sleep(0.02)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT count(*) FROM games WHERE game_id = ?", (created.game_id,))
        assert rows.fetchone()[0] == 1
    archive.close()

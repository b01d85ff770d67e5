"""One Under the Leaves service process for the browser-port and stall tests.

Started as deployed (``python -m services.undertheleaves``) on a Redis
database of its own, with its log (``info``) in a file; a live game with two
decisions played is the state a test compares before and after. ``stop()``
sends SIGTERM and returns the exit code the service gave within its grace.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import grpc
import redis
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2 as pb
from roost.undertheleaves.v1 import service_pb2_grpc as pb_grpc

from services.core.redis_server import free_port
from services.core.tokens import TOKEN_METADATA_KEY
from tests.matchmaking.stack import ROOT, wait_healthy, with_db

SERVICE = "roost.undertheleaves.v1.UnderTheLeaves"
#: Traces of a failure the service did not turn into a status.
CRASH_MARKS = ("Traceback", "KeyError", "Task exception was never retrieved", "Exception in")


@dataclass
class Game:
    game_id: str
    tokens: list[str]
    version: int
    to_act: list[int]


@dataclass
class BrowserService:
    process: subprocess.Popen[bytes]
    port: int
    http_port: int
    log: Path
    raw: redis.Redis
    grace: float
    game: Game

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def snapshot(self, skip: tuple[str, ...] = ()) -> dict[bytes, bytes]:
        """Every stored key's serialized value (``DUMP``), but the games in ``skip``."""
        keys = [k for k in self.raw.keys("*") if not any(g.encode() in k for g in skip)]
        return {key: self.raw.dump(key) or b"" for key in sorted(keys)}

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def crashes(self) -> list[str]:
        """Log lines with a trace of an unhandled failure."""
        return [
            line for line in self.log_text().splitlines() if any(m in line for m in CRASH_MARKS)
        ]

    def stub(self, channel: grpc.Channel) -> pb_grpc.UnderTheLeavesStub:
        return pb_grpc.UnderTheLeavesStub(channel)

    def new_game(self, decisions: int = 0) -> Game:
        """A two-player game, ``decisions`` decisions in (over the gRPC port)."""
        with grpc.insecure_channel(self.address) as channel:
            return new_game(self.stub(channel), decisions)

    def stop(self, timeout: float) -> int | None:
        """SIGTERM; the exit code, or None when it had not exited after ``timeout``."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


def new_game(stub: pb_grpc.UnderTheLeavesStub, decisions: int = 0) -> Game:
    created = stub.NewGame(
        pb.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=11)), timeout=10
    )
    game = Game(
        created.game_id,
        [c.token for c in sorted(created.credentials, key=lambda c: c.seat)],
        created.version,
        list(created.to_act),
    )
    for _ in range(decisions):
        apply_first(stub, game)
    return game


def apply_first(stub: pb_grpc.UnderTheLeavesStub, game: Game, request_id: str = "") -> None:
    """The first legal action of the first seat asked (advances ``game``)."""
    md = ((TOKEN_METADATA_KEY, game.tokens[game.to_act[0]]),)
    reply = stub.Apply(
        pb.ApplyRequest(
            game_id=game.game_id,
            expected_version=game.version,
            action_id=0,
            request_id=request_id,
        ),
        metadata=md,
        timeout=10,
    )
    game.version, game.to_act = reply.version, list(reply.to_act)


def start_service(
    redis_url: str, db: int, log: Path, env: Mapping[str, str], grace: float = 2.0
) -> BrowserService:
    """Start the process on free ports and wait until it is healthy."""
    port, http_port = free_port(), free_port()
    url = with_db(redis_url, db)
    raw = redis.Redis.from_url(url)
    raw.flushdb()
    full_env = {
        **os.environ,
        "REDIS_URL": url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "CONNECT_PORT": str(http_port),
        "METRICS_PORT": "0",
        "LOG_LEVEL": "info",
        "GRACE_SECONDS": str(grace),
        "PYTHONUNBUFFERED": "1",
        **env,
    }
    handle = log.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "services.undertheleaves"],
        env=full_env, cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT,
    )  # fmt: skip
    handle.close()
    try:
        wait_healthy(f"127.0.0.1:{port}", SERVICE, process, timeout=60)
        service = BrowserService(process, port, http_port, log, raw, grace, Game("", [], 0, []))
        service.game = service.new_game(decisions=2)
    except Exception:
        process.kill()
        process.wait()
        raise
    return service

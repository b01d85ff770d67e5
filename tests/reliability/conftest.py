"""Fixtures of the reliability tests: every service as a real process.

The four game services and a matchmaker run as ``python -m services.<name>``
(as deployed) over a real Redis of their own, with their logs at ``info``
written to files, so a test can read what an operator would read. A few live
games per game service are the state the fuzz must leave as it is.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from roost.common.v1 import common_pb2
from roost.matchmaking.v1 import matchmaking_pb2 as mm
from roost.matchmaking.v1 import matchmaking_pb2_grpc as mm_grpc

from services.core.redis_server import free_port, start_local_redis
from services.core.tokens import TOKEN_METADATA_KEY
from services.registry import GAMES, by_name
from tests.matchmaking.stack import FAST_MM, ROOT, Proc, wait_healthy, with_db
from tests.reliability import fuzz

#: The game RPCs whose accepted call changes a stored game: a decision, the
#: end of a game (resign, abort) and a rematch's acceptances.
WRITES = frozenset({"Apply", "Resign", "Abort", "OfferRematch", "AcceptRematch"})
#: Databases of the fleet's own Redis: the games', the matchmaker's.
GAMES_DB = 0
MATCHMAKER_DB = 1
#: Decisions played in the first live game of each service before the fuzz.
OPENING_DECISIONS = 3


@dataclass
class Fleet:
    """The running services, their log files, the live games and the counts."""

    processes: dict[str, Proc]
    logs: dict[str, Path]
    raw: redis.Redis
    world: fuzz.World
    tally: fuzz.Tally
    channels: dict[str, grpc.Channel] = field(default_factory=dict)
    stored: list[Any] = field(default_factory=list)
    #: Requests a test made on its own channel rather than through :meth:`send`.
    direct_requests: int = 0
    #: Log lines written before the first request: start-up and the live games' setup.
    setup_lines: int = 0

    def channel(self, server: str) -> grpc.Channel:
        """A (kept) channel to ``server``."""
        if server not in self.channels:
            self.channels[server] = grpc.insecure_channel(self.processes[server].address)
        return self.channels[server]

    def send(
        self, kind: str, target: fuzz.Target, body: bytes, md: tuple[tuple[str, str], ...] = ()
    ) -> fuzz.Outcome:
        """Send ``body`` to ``target``, count it, and check the invariants: never
        INTERNAL or UNKNOWN; a Roost rejection carries a rich status; the live
        games' stored bytes change only by an accepted write (:data:`WRITES`)."""
        # A body that does not parse is answered at once, however busy the
        # machine: its stream gets the unary deadline, not the short one.
        wait = 10.0 if kind == "raw-undecodable" else fuzz.STREAM_SECONDS
        outcome = fuzz.call(self.channel(target.server), target, body, md, stream_seconds=wait)
        self.tally.add(kind, target, outcome.code)
        shown = body[:120]
        assert outcome.code not in fuzz.FORBIDDEN, (
            f"{target.path} answered {outcome.code.name} to {shown!r} (metadata {md})"
        )
        if target.roost and outcome.code in RICH:
            assert outcome.domain == "roost.games" and outcome.reason, (
                f"{target.path} answered {outcome.code.name} without ErrorInfo to {shown!r}"
            )
        after = fuzz.snapshot(self.raw, self.world.game_ids())
        if not (outcome.code == grpc.StatusCode.OK and target.method in WRITES):
            assert after == self.stored, (
                f"{target.path} ({outcome.code.name}) changed a live game's stored state: "
                f"{shown!r} (metadata {md})"
            )
        self.stored = after
        return outcome

    def log_lines(self) -> int:
        """The lines the services have logged so far."""
        texts = (path.read_text(errors="replace") for path in self.logs.values())
        return sum(len(text.splitlines()) for text in texts)

    def check_logs(self) -> int:
        """Assert the services wrote structured JSON lines only, no traceback,
        and at most one line per request sent after the setup; the number of lines."""
        requests = sum(self.tally.counts.values()) + self.direct_requests
        lines = -self.setup_lines
        for server, path in self.logs.items():
            text = path.read_text(errors="replace")
            assert "Traceback" not in text, f"{server} logged a traceback:\n{text[-3000:]}"
            for line in filter(None, text.splitlines()):
                try:
                    json.loads(line)
                except ValueError:
                    pytest.fail(f"{server} wrote a line that is not JSON: {line[:300]}")
                lines += 1
        assert lines <= requests, f"{lines} log lines for {requests} requests"
        return lines


#: Codes a Roost service answers with a rich status (ErrorInfo in roost.games).
RICH = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.ALREADY_EXISTS,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.ABORTED,
    grpc.StatusCode.OUT_OF_RANGE,
}


def _launch(name: str, env: dict[str, str], log: Path) -> Proc:
    """Start ``python -m services.<name>`` on a free port, its output to ``log``."""
    port = free_port()
    full_env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "METRICS_PORT": "0",
        "CONNECT_PORT": "off",
        "LOG_LEVEL": "info",
        "GRACE_SECONDS": "1",
        "PYTHONUNBUFFERED": "1",
        **env,
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", by_name(name).module],
            env=full_env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Proc(name, f"127.0.0.1:{port}", process, full_env)


def _await(proc: Proc) -> None:
    try:
        wait_healthy(proc.address, by_name(proc.name).service_name, proc.process, timeout=60)
    except Exception:
        proc.stop()
        raise


def _open_game(proc: Proc, decisions: int) -> fuzz.LiveGame:
    """A two-player game on ``proc``, played ``decisions`` decisions in."""
    pb = fuzz.game_module(proc.name)
    short = by_name(proc.name).service_name.rsplit(".", 1)[1]
    with grpc.insecure_channel(proc.address) as channel:
        stub = getattr(importlib.import_module(f"{pb.__name__}_grpc"), f"{short}Stub")(channel)
        created = stub.NewGame(
            pb.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=7)), timeout=10
        )
        tokens = [c.token for c in sorted(created.credentials, key=lambda c: c.seat)]
        version, to_act = created.version, list(created.to_act)
        for _ in range(decisions):
            if not to_act:
                break
            md = ((TOKEN_METADATA_KEY, tokens[to_act[0]]),)
            reply = stub.Apply(
                pb.ApplyRequest(game_id=created.game_id, expected_version=version, action_id=0),
                metadata=md,
                timeout=10,
            )
            version, to_act = reply.version, list(reply.to_act)
    return fuzz.LiveGame(proc.name, created.game_id, tokens)


def _queue_ticket(proc: Proc) -> str:
    """A ticket waiting for a second player (it expires after the heartbeat timeout)."""
    with grpc.insecure_channel(proc.address) as channel:
        reply = mm_grpc.MatchmakerStub(channel).Enqueue(
            mm.EnqueueRequest(
                ticket_id="fuzz-ticket-0001",
                game=GAMES[0].name,
                player_counts=[4],
                party=[mm.Player(player_id="fuzz-live")],
            ),
            timeout=10,
        )
    return reply.ticket.ticket_id


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    """Every service as a process, two live games per game service, over a
    Redis of their own (a real server on a free port): the session's Redis is
    shared with tests that kill its client connections, which the fleet's logs
    would show."""
    logs_dir = tmp_path_factory.mktemp("reliability-logs")
    own_redis = start_local_redis()
    games_url = with_db(own_redis.url, GAMES_DB)
    mm_url = with_db(own_redis.url, MATCHMAKER_DB)
    raw = redis.Redis.from_url(games_url)
    raw.flushdb()
    redis.Redis.from_url(mm_url).flushdb()
    logs = {g.name: logs_dir / f"{g.name}.log" for g in GAMES}
    logs["matchmaking"] = logs_dir / "matchmaking.log"
    processes: dict[str, Proc] = {}
    try:
        for entry in GAMES:
            processes[entry.name] = _launch(entry.name, {"REDIS_URL": games_url}, logs[entry.name])
        for entry in GAMES:
            _await(processes[entry.name])
        addresses = {f"GAME_ADDR_{n.upper()}": p.address for n, p in processes.items()}
        processes["matchmaking"] = _launch(
            "matchmaking", {**FAST_MM, **addresses, "REDIS_URL": mm_url}, logs["matchmaking"]
        )
        _await(processes["matchmaking"])
        games = []
        for entry in GAMES:
            games.append(_open_game(processes[entry.name], OPENING_DECISIONS))
            games.append(_open_game(processes[entry.name], 0))
        world = fuzz.World(games, [_queue_ticket(processes["matchmaking"])])
        running = Fleet(processes, logs, raw, world, fuzz.TALLY)
        running.stored = fuzz.snapshot(raw, world.game_ids())
        running.setup_lines = running.log_lines()
        yield running
        for channel in running.channels.values():
            channel.close()
        if running.tally.counts:  # whatever ran last: still no traceback
            running.check_logs()
    finally:
        for proc in processes.values():
            proc.stop()
        raw.close()
        own_redis.stop()
        if fuzz.TALLY.counts:
            figures = json.dumps(fuzz.TALLY.as_json(), indent=2)
            (tmp_path_factory.getbasetemp() / "fuzz_counts.json").write_text(figures)
            report = os.environ.get("ROOST_FUZZ_REPORT")
            if report:
                Path(report).write_text(figures)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The fuzz's requests by status code, for docs/RELIABILITY.md."""
    if not fuzz.TALLY.counts:
        return
    figures = fuzz.TALLY.as_json()
    terminalreporter.section("fuzz: requests by status code")
    terminalreporter.write_line(f"requests: {figures['requests']}")
    for kind in ("structured", "raw-undecodable", "raw-decodable"):
        counts = fuzz.TALLY.by_code(kind)
        if counts:
            line = ", ".join(f"{code} {n}" for code, n in counts.items())
            terminalreporter.write_line(f"{kind}: {line}")

"""A Redis stall under load: every call answered fast, nothing lost or doubled.

    python -m bench.redis_stall [--stall 10] [--stall-detect 2] [--players 4] [--write]

Starts a local Redis, one Under the Leaves service process and a matchmaker
process (``--stall-detect`` is their ``STORE_STALL_SECONDS``), and runs, on
threads: players that each play games seat after seat (``Legal``, then
``Apply`` with a request id, retried with the same id while UNAVAILABLE, a 5 s
deadline on every call), one Watch per
game that resumes from its last version whenever it is cut, and a reader of
``GetState`` on the browser port (Connect JSON over HTTP/1.1), and a client of
the matchmaker that queues players and reads their tickets back
(bench/stall_matchmaker.py). Once under way,
Redis is stopped with SIGSTOP for ``--stall`` seconds, then continued.

Reported: the calls made while Redis was stopped and how fast each was
answered (the slowest, and how many were still waiting when Redis came back),
every status code seen, Applies acknowledged against the versions stored (lost
or doubled), Watch gaps or repeats, whether health came back to SERVING, and
the matchmaker's calls during the stall and tickets lost.
``--write`` puts the figures in docs/RELIABILITY.md. The reliability test
(tests/reliability/test_redis_stall.py) runs the same with a short stall.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import redis
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2 as pb
from roost.undertheleaves.v1 import service_pb2_grpc as pb_grpc

from bench.processes import health_status, service_process
from bench.report import machine, write_section
from bench.stall_matchmaker import MATCHMAKER, missing_tickets, queue_players
from services.core.redis_server import free_port, start_local_redis
from services.core.store import events_key

ROOT = Path(__file__).resolve().parent.parent
SERVICE = "roost.undertheleaves.v1.UnderTheLeaves"
FINISHED = common_pb2.GAME_STATUS_FINISHED
#: Connect's HTTP statuses of the codes a call may end with here.
HTTP_CODES = {200: "OK", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
#: A call made this long or more before Redis came back and answered only after
#: it was held by the stall (a call made just before is answered just after).
HELD = 1.0
#: Every call's deadline, as a client with a 5 s budget sets it.
DEADLINE = 5.0


@dataclass
class Call:
    """One call's start and end (monotonic seconds) and status name."""

    start: float
    end: float
    code: str
    port: str


@dataclass
class Load:
    """What the clients saw."""

    calls: list[Call] = field(default_factory=list)
    #: game id -> versions acknowledged by Apply (in order).
    acknowledged: dict[str, list[int]] = field(default_factory=dict)
    #: game id -> versions the Watch received (in order, every stream).
    watched: dict[str, list[int]] = field(default_factory=dict)
    #: ticket id -> player id of every acknowledged matchmaker Enqueue.
    tickets: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, start: float, code: str, port: str = "grpc") -> None:
        with self.lock:
            self.calls.append(Call(start, time.monotonic(), code, port))


def _timed(load: Load, method: Any, request: Any, port: str = "grpc", **kwargs: Any) -> Any:
    """One gRPC call, recorded; raises its RpcError."""
    start = time.monotonic()
    try:
        reply = method(request, timeout=DEADLINE, **kwargs)
    except grpc.RpcError as error:
        load.record(start, error.code().name, port)
        raise
    load.record(start, "OK", port)
    return reply


def play(address: str, load: Load, stop: threading.Event, seed: int) -> None:
    """Play games one decision at a time until ``stop``; a new game when one ends."""
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.UnderTheLeavesStub(channel)
        while not stop.is_set():
            try:
                _play_one(stub, load, stop, seed)
            except grpc.RpcError as error:
                if error.code() not in {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.ABORTED}:
                    load.errors.append(f"{error.code().name}: {error.details()}")
                    return
                stop.wait(0.1)
            except Exception as error:  # a bug of this client: reported, not hidden
                load.errors.append(f"{type(error).__name__}: {error}")
                return
            seed += 1000


def _play_one(stub: Any, load: Load, stop: threading.Event, seed: int) -> None:
    created = _timed(
        load, stub.NewGame, pb.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=seed))
    )
    game_id = created.game_id
    tokens = {c.seat: c.token for c in created.credentials}
    with load.lock:
        load.acknowledged[game_id] = []
    watcher = threading.Thread(target=watch, args=(stub, game_id, tokens[0], load, stop))
    watcher.start()
    try:
        _decide_all(stub, load, stop, game_id, tokens, list(created.to_act))
    finally:
        watcher.join(30)


def _decide_all(
    stub: Any, load: Load, stop: threading.Event, game_id: str, tokens: dict[int, str],
    to_act: list[int],
) -> None:  # fmt: skip
    """Decide for the first seat asked until the game ends (or ``stop``)."""
    status = common_pb2.GAME_STATUS_IN_PROGRESS
    while not stop.is_set() and status != FINISHED and to_act:
        metadata = (("x-seat-token", tokens[to_act[0]]),)
        try:
            legal = _timed(load, stub.Legal, pb.LegalRequest(game_id=game_id), metadata=metadata)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            stop.wait(0.1)
            continue
        request = pb.ApplyRequest(
            game_id=game_id, expected_version=legal.version, action_id=0,
            request_id=uuid.uuid4().hex,
        )  # fmt: skip
        while True:  # the same request id until it is answered
            try:
                reply = _timed(load, stub.Apply, request, metadata=metadata)
                break
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.UNAVAILABLE:
                    raise
                stop.wait(0.1)
        with load.lock:
            load.acknowledged[game_id].append(reply.version)
        to_act, status = list(reply.to_act), reply.status
        stop.wait(0.02)


def watch(stub: Any, game_id: str, token: str, load: Load, stop: threading.Event) -> None:
    """Watch ``game_id`` from its start, resuming after the last version on any cut."""
    last = 0
    with load.lock:
        load.watched[game_id] = []
    while not stop.is_set():
        call = stub.Watch(
            pb.WatchRequest(game_id=game_id, from_version=last), metadata=(("x-seat-token", token),)
        )
        cancel = threading.Thread(target=lambda c=call: (stop.wait(), c.cancel()), daemon=True)
        cancel.start()
        try:
            for event in call:
                version = event.event.version
                with load.lock:
                    load.watched[game_id].append(version)
                last = version
            return  # the game ended: the stream ends by itself
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.CANCELLED and stop.is_set():
                return
            if error.code() not in {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED}:
                load.errors.append(f"watch {error.code().name}: {error.details()}")
                return
        stop.wait(0.2)


def browser_reader(http_port: int, load: Load, stop: threading.Event) -> None:
    """GetState of the first game over the browser port (Connect JSON, HTTP/1.1)."""
    while not stop.is_set():
        with load.lock:
            games = list(load.acknowledged)
        if not games:
            stop.wait(0.05)
            continue
        body = json.dumps({"gameId": games[0]}).encode()
        start = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", http_port), timeout=DEADLINE) as sock:
                sock.sendall(
                    f"POST /{SERVICE}/GetState HTTP/1.1\r\nhost: x\r\ncontent-type: "
                    f"application/json\r\nconnect-timeout-ms: {int(DEADLINE * 1000)}\r\n"
                    f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
                    + body
                )
                reply = b""
                while chunk := sock.recv(65536):
                    reply += chunk
            status = int(reply.split(b" ", 2)[1])
            code = {200: "OK", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}.get(
                status, str(status)
            )
        except (OSError, ValueError, IndexError):
            code = "NO_ANSWER"
        load.record(start, code, "browser")
        stop.wait(0.05)


@dataclass
class StallReport:
    stall_seconds: float
    calls_during_stall: int
    slowest_during_stall: float
    waiting_at_resume: int
    first_unavailable_after: float | None
    codes: dict[str, int]
    applies_acknowledged: int
    lost: int
    doubled: int
    watch_gaps: int
    #: Every Watch delivered the versions acknowledged after the stall.
    watchers_caught_up: bool
    health_back: bool
    errors: list[str]
    #: The matchmaker's calls made while Redis was stopped, and the slowest answer.
    matchmaker_calls_during_stall: int = 0
    matchmaker_slowest_during_stall: float = 0.0
    matchmaker_codes: dict[str, int] = field(default_factory=dict)
    tickets_acknowledged: int = 0
    #: Acknowledged tickets no longer readable (for their game and player).
    tickets_missing: int = 0


def check_store(url: str, load: Load) -> tuple[int, int]:
    """(lost, doubled): acknowledged versions missing from the stored stream, and
    stored decisions beyond the acknowledged ones (a write applied twice)."""
    raw = redis.Redis.from_url(url)
    lost = doubled = 0
    for game_id, versions in load.acknowledged.items():
        stored = [int(i.split(b"-")[0]) for i, _ in raw.xrange(events_key(game_id))]
        lost += len(set(versions) - set(stored))
        doubled += max(0, len(stored) - 1 - len(set(versions)))
    raw.close()
    return lost, doubled


def watch_gaps(load: Load) -> int:
    """Versions missing or repeated in what the Watches delivered (per game,
    up to the last one delivered)."""
    gaps = 0
    for versions in load.watched.values():
        if versions:
            gaps += len(versions) - len(set(versions)) + (max(versions) - len(set(versions)))
    return gaps


def applies(load: Load) -> int:
    with load.lock:
        return sum(map(len, load.acknowledged.values()))


def caught_up(load: Load, target: dict[str, int]) -> bool:
    """Every game's Watch has delivered at least its version in ``target``."""
    with load.lock:
        return all(max(load.watched.get(g, []), default=0) >= v for g, v in target.items())


def matchmaker_back(address: str, load: Load, tickets_before: int, settle: float) -> bool:
    """Wait until the matchmaker's health is SERVING and it has acknowledged
    two more tickets than before Redis came back; whether it did."""
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline:
        if len(load.tickets) >= tickets_before + 2 and health_status(address) == 1:
            return True
        time.sleep(0.1)
    return False


def stall_under_load(
    address: str, http_port: int, redis_pid: int, redis_url: str, stall: float,
    players: int = 4, settle: float = 30.0, matchmaker: str | None = None,
) -> StallReport:  # fmt: skip
    """Run the load, stop Redis for ``stall`` seconds once it is under way, and
    report (see the module docstring); ``matchmaker``: its address, when run."""
    load, stop = Load(), threading.Event()
    threads = [
        threading.Thread(target=play, args=(address, load, stop, 100 + n)) for n in range(players)
    ]
    threads.append(threading.Thread(target=browser_reader, args=(http_port, load, stop)))
    if matchmaker is not None:
        threads.append(
            threading.Thread(target=queue_players, args=(matchmaker, load, stop, _timed))
        )
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline and applies(load) < 3 * players:
        time.sleep(0.05)
    stopped = time.monotonic()
    os.kill(redis_pid, signal.SIGSTOP)
    try:
        time.sleep(stall)
    finally:
        os.kill(redis_pid, signal.SIGCONT)
    resumed = time.monotonic()
    after = sum(map(len, load.acknowledged.values()))
    tickets_before = len(load.tickets)
    deadline = time.monotonic() + settle
    while (
        time.monotonic() < deadline
        and sum(map(len, load.acknowledged.values())) < after + 3 * players
    ):
        time.sleep(0.05)
    with load.lock:
        target = {g: max(v, default=0) for g, v in load.acknowledged.items()}
    deadline = time.monotonic() + settle
    while time.monotonic() < deadline and not caught_up(load, target):
        time.sleep(0.05)
    health_deadline = time.monotonic() + settle
    health_back = False
    while time.monotonic() < health_deadline and not health_back:
        health_back = health_status(address) == 1
        time.sleep(0.1)
    if matchmaker is not None:  # its health too, and tickets queued again
        health_back = health_back and matchmaker_back(matchmaker, load, tickets_before, settle)
    stop.set()
    for thread in threads:
        thread.join(60)
    during = [c for c in load.calls if stopped <= c.start < resumed]
    unavailable = [
        c.end - stopped for c in load.calls if c.code == "UNAVAILABLE" and c.end >= stopped
    ]
    lost, doubled = check_store(redis_url, load)
    queued = [c for c in during if c.port == "matchmaker"]
    return StallReport(
        stall_seconds=stall,
        calls_during_stall=len(during),
        slowest_during_stall=max((c.end - c.start for c in during), default=0.0),
        waiting_at_resume=sum(1 for c in during if c.start < resumed - HELD and c.end >= resumed),
        first_unavailable_after=min(unavailable, default=None),
        codes=dict(Counter(c.code for c in load.calls)),
        applies_acknowledged=sum(map(len, load.acknowledged.values())),
        lost=lost,
        doubled=doubled,
        watch_gaps=watch_gaps(load),
        watchers_caught_up=caught_up(load, target),
        health_back=health_back,
        errors=load.errors,
        matchmaker_calls_during_stall=len(queued),
        matchmaker_slowest_during_stall=max((c.end - c.start for c in queued), default=0.0),
        matchmaker_codes=dict(Counter(c.code for c in load.calls if c.port == "matchmaker")),
        tickets_acknowledged=len(load.tickets),
        tickets_missing=missing_tickets(matchmaker, load.tickets) if matchmaker else 0,
    )


@contextmanager
def stack(stall_detect: float, tmp: Path) -> Iterator[tuple[str, int, int, str, str]]:
    """A local Redis, the service and a matchmaker for it: (address, browser
    port, Redis pid, Redis URL, matchmaker address)."""
    local = start_local_redis()
    http_port = free_port()
    try:
        with service_process(
            "services.undertheleaves", SERVICE, local.url, tmp, HOST="127.0.0.1",
            CONNECT_PORT=str(http_port), GRACE_SECONDS="2", STORE_STALL_SECONDS=str(stall_detect),
        ) as service, service_process(
            "services.matchmaking", MATCHMAKER, local.url, tmp, HOST="127.0.0.1",
            CONNECT_PORT="off", GRACE_SECONDS="2", STORE_STALL_SECONDS=str(stall_detect),
            MM_GAMES="undertheleaves", GAME_ADDR_UNDERTHELEAVES=service.address,
        ) as matchmaker:  # fmt: skip
            yield service.address, http_port, local.process.pid, local.url, matchmaker.address
            matchmaker.terminate()
            service.terminate()
    finally:
        os.kill(local.process.pid, signal.SIGCONT)
        local.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stall", type=float, default=10.0)
    parser.add_argument("--stall-detect", type=float, default=2.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="roost-stall-"))
    with stack(args.stall_detect, tmp) as (address, http_port, pid, url, matchmaker):
        report = stall_under_load(
            address, http_port, pid, url, args.stall, args.players, matchmaker=matchmaker
        )
    lines = [
        f"Redis stopped (SIGSTOP) for {report.stall_seconds:g} s under load, "
        f"STORE_STALL_SECONDS={args.stall_detect:g} ({machine()}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"`python -m bench.redis_stall --stall {args.stall:g} "
        f"--stall-detect {args.stall_detect:g}`):",
        "",
        "| figure | value |",
        "|---|---|",
        f"| calls made while Redis was stopped | {report.calls_during_stall} |",
        f"| slowest answer to one of them | {report.slowest_during_stall:.2f} s |",
        f"| of them held until Redis came back (made over {HELD:g} s before) | "
        f"{report.waiting_at_resume} |",
        f"| first UNAVAILABLE after the stall began | "
        f"{report.first_unavailable_after or 0:.2f} s |",
        f"| status codes seen | {', '.join(f'{k} {v}' for k, v in sorted(report.codes.items()))} |",
        f"| Applies acknowledged / lost / applied twice | {report.applies_acknowledged} / "
        f"{report.lost} / {report.doubled} |",
        f"| Watch versions missing or repeated | {report.watch_gaps} |",
        f"| every Watch resumed to the latest version | "
        f"{'yes' if report.watchers_caught_up else 'no'} |",
        f"| health SERVING again afterwards | {'yes' if report.health_back else 'no'} |",
        f"| matchmaker calls made while Redis was stopped / slowest answer | "
        f"{report.matchmaker_calls_during_stall} / "
        f"{report.matchmaker_slowest_during_stall:.2f} s |",
        f"| matchmaker status codes seen | "
        f"{', '.join(f'{k} {v}' for k, v in sorted(report.matchmaker_codes.items()))} |",
        f"| tickets acknowledged / lost | {report.tickets_acknowledged} / "
        f"{report.tickets_missing} |",
    ]
    text = "\n".join(lines)
    print(text)
    if report.errors:
        print("errors:", report.errors[:5])
    if args.write:
        write_section("redis-stall", text, ROOT / "docs" / "RELIABILITY.md")


if __name__ == "__main__":
    main()

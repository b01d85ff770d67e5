"""The matchmaker's logs name a ticket by a short hash, never by its id.

A ticket id is a bearer secret: GetTicket or WatchTicket with it returns the
seat tokens of its assignment. The test runs a real matchmaker process at debug
level, captures everything it writes, takes tickets through every RPC and every
outcome (matched, bot-filled and played to the end, cancelled, refused, unknown),
and then looks for each ticket id and each seat token in the output.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import grpc
import pytest
import redis
from roost.matchmaking.v1 import matchmaking_pb2 as pb

from services.core.redis_server import free_port
from services.matchmaking.service import SERVICE_NAME
from services.matchmaking.tickets import TICKET_REF_LENGTH, ticket_ref
from tests.matchmaking.mmclient import MmClient, UtlClient
from tests.matchmaking.stack import FAST_MM, ROOT, Stack, wait_healthy, with_db

#: A Redis database of its own, so no other test's matchmaker takes these tickets.
LOG_TEST_DB = 7
ASSIGNED = pb.TICKET_STATUS_ASSIGNED


def test_ticket_ref_is_a_short_stable_hash() -> None:
    ref = ticket_ref("test-0123456789abcdef")
    assert len(ref) == TICKET_REF_LENGTH and int(ref, 16) >= 0
    assert ref == ticket_ref("test-0123456789abcdef") != ticket_ref("test-0123456789abcdeg")
    assert ticket_ref("") == ""


def test_no_ticket_id_or_seat_token_reaches_the_logs(
    mm_stack: Stack, utl: UtlClient, tmp_path: Path
) -> None:
    url = with_db(mm_stack.redis_url, LOG_TEST_DB)
    redis.Redis.from_url(url).flushdb()
    port = free_port()
    output = tmp_path / "matchmaker.log"
    env = {
        **os.environ,
        **FAST_MM,
        **mm_stack.game_env(),
        "REDIS_URL": url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "METRICS_PORT": "0",
        "CONNECT_PORT": "off",
        "LOG_LEVEL": "debug",
        "GRACE_SECONDS": "1",
    }
    with output.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "services.matchmaking"],
            env=env,
            cwd=ROOT,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    address = f"127.0.0.1:{port}"
    secrets: list[str] = []
    created: list[str] = []
    try:
        wait_healthy(address, SERVICE_NAME, process)
        mm = MmClient([address])
        # Two tickets matched with each other, then read, heartbeaten and (too late) cancelled.
        pair = [mm.enqueue(), mm.enqueue()]
        finals = [mm.final(t.ticket_id) for t in pair]
        assert [f.status for f in finals] == [ASSIGNED, ASSIGNED]
        mm.get(pair[0].ticket_id)
        mm.stub().Heartbeat(pb.HeartbeatRequest(ticket_id=pair[0].ticket_id), timeout=10)
        with pytest.raises(grpc.RpcError) as closed:
            mm.stub().Cancel(pb.CancelRequest(ticket_id=pair[0].ticket_id), timeout=10)
        assert closed.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        # A ticket whose id the matchmaker generates, bot-filled and played to the end.
        solo = mm.stub().Enqueue(
            pb.EnqueueRequest(
                game="undertheleaves",
                player_counts=[2],
                party=[pb.Player(player_id=f"p-{uuid.uuid4().hex[:8]}")],
                bot_fill=pb.BotFill(enabled=True, after_ms=100, kind=pb.BOT_KIND_RANDOM),
            ),
            timeout=10,
        )
        solo_final = mm.final(solo.ticket.ticket_id)
        assert solo_final.status == ASSIGNED
        (seat,) = solo_final.assignment.seats
        utl.play_seat_to_end(solo_final.assignment.game_id, seat.token)
        # A ticket cancelled while queued.
        queued = mm.enqueue(counts=(4,))
        mm.stub().Cancel(pb.CancelRequest(ticket_id=queued.ticket_id), timeout=10)
        # Ids the matchmaker refuses or does not know.
        unknown = f"test-{uuid.uuid4().hex}"
        with pytest.raises(grpc.RpcError) as missing:
            mm.get(unknown)
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        refused = f"test-{uuid.uuid4().hex}"
        with pytest.raises(grpc.RpcError) as bad_game:
            mm.enqueue(ticket_id=refused, game="no-such-game")
        assert bad_game.value.code() == grpc.StatusCode.INVALID_ARGUMENT

        created = [t.ticket_id for t in pair] + [solo.ticket.ticket_id, queued.ticket_id]
        secrets = [*created, unknown, refused]
        secrets += [s.token for f in [*finals, solo_final] for s in f.assignment.seats]
        wait_for_line(output, "game_rated")
        mm.cleanup()
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    text = output.read_text()
    events = {json.loads(line).get("event") for line in text.splitlines() if line.startswith("{")}
    assert {"ticket_queued", "match_assigned", "rpc_rejected", "game_rated"} <= events, events
    leaked = [secret for secret in secrets if secret in text]
    assert not leaked, f"ticket ids or seat tokens in the matchmaker's logs: {leaked}"
    for ticket_id in created:
        assert f'"{ticket_ref(ticket_id)}"' in text, f"no line names ticket {ticket_id}"
    for line in text.splitlines():
        if line.startswith("{"):
            assert not {"ticket_id", "tickets", "token"} & set(json.loads(line)), line


def wait_for_line(path: Path, event: str, timeout: float = 15.0) -> None:
    """Wait until the log at ``path`` has a line of ``event``."""
    deadline = time.monotonic() + timeout
    while f'"event": "{event}"' not in path.read_text():
        assert time.monotonic() < deadline, f"no {event} line within {timeout} s"
        time.sleep(0.05)

"""Bring your own identity, guests, fair seats and limits (docs/CLIENTS.md,
"Who is playing"), over real gRPC and the Connect port, against a test
identity provider (a local JWKS server, keys generated per run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis
from cryptography.hazmat.primitives.asymmetric import ec
from roost.common.v1 import common_pb2
from roost.matchmaking.v1 import matchmaking_pb2 as pb
from roost.matchmaking.v1 import matchmaking_pb2_grpc as pb_grpc
from roost.undertheleaves.v1 import service_pb2 as utl
from roost.undertheleaves.v1 import service_pb2_grpc as utl_grpc

from services.matchmaking import keys as mm_keys
from tests.identity.identity_stack import (
    IdentityStack,
    bearer,
    connect_call,
    connect_reason,
    identity_stack,
    rich,
)
from tests.matchmaking.stack import with_db

pytestmark = pytest.mark.service
GAME = "undertheleaves"
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.fixture(scope="module")
def ids(redis_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[IdentityStack]:
    key = Path(tmp_path_factory.mktemp("guest")) / "guest_key.pem"
    with identity_stack(redis_server_url, str(key)) as running:
        yield running


@pytest.fixture(scope="module")
def mm(ids: IdentityStack) -> Iterator[pb_grpc.MatchmakerStub]:
    with grpc.insecure_channel(ids.mm.address) as channel:
        yield pb_grpc.MatchmakerStub(channel)


@pytest.fixture(scope="module")
def strict(ids: IdentityStack) -> Iterator[pb_grpc.MatchmakerStub]:
    with grpc.insecure_channel(ids.strict.address) as channel:
        yield pb_grpc.MatchmakerStub(channel)


def user() -> str:
    return f"u-{uuid.uuid4().hex[:10]}"


def enqueue_request(player: str, counts: tuple[int, ...] = (2,), ticket_id: str = "",
                    table: pb.Table | None = None) -> pb.EnqueueRequest:  # fmt: skip
    request = pb.EnqueueRequest(
        ticket_id=ticket_id or f"id-{uuid.uuid4().hex}",
        game=GAME,
        player_counts=list(counts),
        party=[pb.Player(player_id=player)],
    )
    if table is not None:
        request.table.CopyFrom(table)
    return request


def failure(call, *args, **kwargs) -> tuple[grpc.StatusCode, str, int | None]:
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, timeout=10, **kwargs)
    return (caught.value.code(), *rich(caught.value))


def tokens(ids: IdentityStack, subject: str, case: str) -> str:
    """A token of ``case`` for ``subject``."""
    idp = ids.idp
    if case == "valid":
        return idp.token(subject)
    if case == "expired":
        return idp.token(subject, expires_in=-120)
    if case == "wrong_issuer":
        return idp.token(subject, issuer="https://elsewhere.test")
    if case == "wrong_audience":
        return idp.token(subject, audience="someone-else")
    if case == "wrong_signature":
        return idp.token(subject, key=ec.generate_private_key(ec.SECP256R1()))
    if case == "alg_none":
        return idp.unsigned(subject)
    raise AssertionError(case)


BAD = ["expired", "wrong_issuer", "wrong_audience", "wrong_signature", "alg_none"]


@pytest.mark.parametrize("transport", ["grpc", "connect"])
@pytest.mark.parametrize("case", ["valid", *BAD])
def test_bearer_tokens_are_verified_against_the_providers_keys(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub, transport: str, case: str
) -> None:
    """A token is accepted only when signed by a published key, for the
    configured issuer and audience, unexpired, and never with alg none."""
    player = user()
    token = tokens(ids, player, case)
    request = enqueue_request(player, counts=(4,))
    if transport == "grpc":
        if case == "valid":
            reply = mm.Enqueue(request, metadata=bearer(token), timeout=10)
            assert reply.created and reply.ticket.party[0].player_id == player
            mm.Cancel(pb.CancelRequest(ticket_id=request.ticket_id), metadata=bearer(token))
        else:
            code, reason, _ = failure(mm.Enqueue, request, metadata=bearer(token))
            assert (code, reason) == (
                grpc.StatusCode.UNAUTHENTICATED,
                "ERROR_REASON_IDENTITY_INVALID",
            )
        return
    body = {"ticketId": request.ticket_id, "game": GAME, "playerCounts": [4],
            "party": [{"playerId": player}]}  # fmt: skip
    status, reply = connect_call(ids.mm_connect_port, "Enqueue", body, token)
    if case == "valid":
        assert status == 200 and reply["created"] is True
        connect_call(ids.mm_connect_port, "Cancel", {"ticketId": request.ticket_id}, token)
    else:
        assert (status, reply["code"]) == (401, "unauthenticated")
        assert connect_reason(reply) == "ERROR_REASON_IDENTITY_INVALID"


def test_rotated_keys_are_fetched_when_a_token_names_a_new_key(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub
) -> None:
    """Key rotation: a token signed by a key published after the last fetch is accepted."""
    player = user()
    ids.idp.rotate()
    token = ids.idp.token(player)
    request = enqueue_request(player, counts=(4,))
    assert mm.Enqueue(request, metadata=bearer(token), timeout=10).created
    mm.Cancel(pb.CancelRequest(ticket_id=request.ticket_id), metadata=bearer(token), timeout=10)
    status, reply = connect_call(ids.mm_connect_port, "GetTicket",
                                 {"ticketId": request.ticket_id}, token)  # fmt: skip
    assert status == 200 and reply["ticket"]["status"] == "TICKET_STATUS_CANCELLED"


def test_nobody_queues_reads_or_cancels_as_another_identity(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub
) -> None:
    """A stated player id that is not the verified one is PERMISSION_DENIED;
    the victim's ticket is unchanged."""
    alice, bob = user(), user()
    alice_token, bob_token = ids.idp.token(alice), ids.idp.token(bob)
    denied = (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_IDENTITY_MISMATCH")
    code, reason, _ = failure(mm.Enqueue, enqueue_request(bob), metadata=bearer(alice_token))
    assert (code, reason) == denied
    ticket = mm.Enqueue(enqueue_request(bob, counts=(4,)), metadata=bearer(bob_token)).ticket
    as_alice = bearer(alice_token)
    for call, request in [
        (mm.GetTicket, pb.GetTicketRequest(ticket_id=ticket.ticket_id)),
        (mm.Cancel, pb.CancelRequest(ticket_id=ticket.ticket_id)),
        (mm.Heartbeat, pb.HeartbeatRequest(ticket_id=ticket.ticket_id)),
    ]:
        assert failure(call, request, metadata=as_alice)[:2] == denied
    with pytest.raises(grpc.RpcError) as caught:
        next(iter(mm.WatchTicket(pb.WatchTicketRequest(ticket_id=ticket.ticket_id),
                                 metadata=as_alice, timeout=10)))  # fmt: skip
    assert (caught.value.code(), rich(caught.value)[0]) == denied
    reused = enqueue_request(alice, counts=(4,), ticket_id=ticket.ticket_id)
    assert failure(mm.Enqueue, reused, metadata=as_alice)[:2] == denied
    status, body = connect_call(ids.mm_connect_port, "Cancel",
                                {"ticketId": ticket.ticket_id}, alice_token)  # fmt: skip
    assert status == 403 and connect_reason(body) == "ERROR_REASON_IDENTITY_MISMATCH"
    still = mm.GetTicket(
        pb.GetTicketRequest(ticket_id=ticket.ticket_id), metadata=bearer(bob_token)
    )
    assert still.ticket.status == pb.TICKET_STATUS_QUEUED
    mm.Cancel(pb.CancelRequest(ticket_id=ticket.ticket_id), metadata=bearer(bob_token))


def test_guests_get_a_token_from_roost_and_play_with_it(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub
) -> None:
    """IssueGuestToken signs a guest; the guest queues as itself, renews its
    token keeping its id, and the game services accept the token too."""
    issued = mm.IssueGuestToken(pb.IssueGuestTokenRequest(), timeout=10)
    assert issued.player_id.startswith("guest-") and issued.expires_ms > time.time() * 1000
    request = enqueue_request(issued.player_id, counts=(4,))
    assert mm.Enqueue(request, metadata=bearer(issued.token), timeout=10).created
    mm.Cancel(pb.CancelRequest(ticket_id=request.ticket_id), metadata=bearer(issued.token))
    renewed = mm.IssueGuestToken(pb.IssueGuestTokenRequest(), metadata=bearer(issued.token))
    assert renewed.player_id == issued.player_id
    with grpc.insecure_channel(ids.game.address) as channel:
        game = utl_grpc.UnderTheLeavesStub(channel)
        reply = game.NewGame(utl.NewGameRequest(common=common_pb2.CommonOptions(players=2)),
                             metadata=bearer(issued.token), timeout=10)  # fmt: skip
        assert reply.game_id


def test_strict_matchmaker_requires_an_identity_and_verified_players_for_rated_games(
    ids: IdentityStack, strict: pb_grpc.MatchmakerStub
) -> None:
    """IDENTITY_REQUIRED: anonymous calls are UNAUTHENTICATED; MM_RATED_REQUIRES_VERIFIED:
    guests are refused rated games, provider identities are not."""
    player = user()
    code, reason, _ = failure(strict.Enqueue, enqueue_request(player))
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "ERROR_REASON_IDENTITY_REQUIRED")
    guest = strict.IssueGuestToken(pb.IssueGuestTokenRequest(), timeout=10)
    code, reason, _ = failure(strict.Enqueue, enqueue_request(guest.player_id),
                              metadata=bearer(guest.token))  # fmt: skip
    assert (code, reason) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "ERROR_REASON_VERIFIED_IDENTITY_REQUIRED",
    )
    token = ids.idp.token(player)
    request = enqueue_request(player, counts=(4,))
    assert strict.Enqueue(request, metadata=bearer(token), timeout=10).created
    strict.Cancel(pb.CancelRequest(ticket_id=request.ticket_id), metadata=bearer(token))


def test_no_identity_takes_two_seats_of_a_matched_game(mm: pb_grpc.MatchmakerStub) -> None:
    """Tickets of the same player ids are never matched against each other."""
    players = [user() for _ in range(3)]
    tickets = []
    for _round in range(4):
        for player in players:
            tickets.append(mm.Enqueue(enqueue_request(player, counts=(2,)), timeout=10).ticket)
    games: dict[str, list[str]] = {}
    deadline = time.monotonic() + 30
    pending = {t.ticket_id for t in tickets}
    while pending and time.monotonic() < deadline:
        for ticket_id in sorted(pending):
            ticket = mm.GetTicket(pb.GetTicketRequest(ticket_id=ticket_id), timeout=10).ticket
            if ticket.status == pb.TICKET_STATUS_ASSIGNED:
                pending.discard(ticket_id)
                games.setdefault(ticket.assignment.game_id, []).extend(
                    s.player_id for s in ticket.assignment.seats
                )
        time.sleep(0.05)  # polling the tickets' state, not ordering
    for ticket_id in pending:
        mm.Cancel(pb.CancelRequest(ticket_id=ticket_id), timeout=10)
    assert len(games) >= 4
    for seated in games.values():
        assert len(seated) == len(set(seated)), seated


def wait_accepted(call, request, metadata, delay_ms: int):
    """Call again after the stated delay until accepted (a generous deadline)."""
    deadline = time.monotonic() + 30
    while True:
        time.sleep(delay_ms / 1000)
        try:
            return call(request, metadata=metadata, timeout=10)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or time.monotonic() > deadline:
                raise
            delay_ms = rich(error)[1] or delay_ms


def test_open_tickets_per_identity_stop_at_the_limit(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub
) -> None:
    """MM_MAX_OPEN_TICKETS=2: the third is RESOURCE_EXHAUSTED with a RetryInfo
    until one of the two closes."""
    player = user()
    auth = bearer(ids.idp.token(player))
    first = mm.Enqueue(enqueue_request(player, counts=(4,)), metadata=auth, timeout=10).ticket
    mm.Enqueue(enqueue_request(player, counts=(4,)), metadata=auth, timeout=10)
    third = enqueue_request(player, counts=(4,))
    code, reason, retry = failure(mm.Enqueue, third, metadata=auth)
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_LIMIT_OPEN_TICKETS")
    assert retry and retry > 0
    mm.Cancel(pb.CancelRequest(ticket_id=first.ticket_id), metadata=auth, timeout=10)
    assert mm.Enqueue(third, metadata=auth, timeout=10).created


def test_private_tables_per_identity_resume_after_the_stated_delay(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub
) -> None:
    """MM_MAX_PRIVATE_TABLES=2 per window: the third table waits RetryInfo."""
    player = user()
    auth = bearer(ids.idp.token(player))

    def table() -> pb.EnqueueRequest:
        seats = [pb.TableSeat(player_id=player), pb.TableSeat(bot=pb.BOT_KIND_RANDOM)]
        return enqueue_request(player, table=pb.Table(seats=seats))

    for _ in range(2):
        mm.Enqueue(table(), metadata=auth, timeout=10)
    request = table()
    code, reason, retry = failure(mm.Enqueue, request, metadata=auth)
    assert (code, reason) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_LIMIT_PRIVATE_TABLES",
    )
    assert retry and retry > 0
    assert wait_accepted(mm.Enqueue, request, auth, retry).created


def test_new_games_per_identity_resume_after_the_stated_delay(ids: IdentityStack) -> None:
    """LIMIT_NEW_GAMES=3 per window on a game service; anonymous NewGame is not counted."""
    auth = bearer(ids.idp.token(user()))
    request = utl.NewGameRequest(common=common_pb2.CommonOptions(players=2))
    with grpc.insecure_channel(ids.game.address) as channel:
        game = utl_grpc.UnderTheLeavesStub(channel)
        for _ in range(3):
            game.NewGame(request, metadata=auth, timeout=10)
        code, reason, retry = failure(game.NewGame, request, metadata=auth)
        assert (code, reason) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "ERROR_REASON_LIMIT_NEW_GAMES",
        )
        for _ in range(4):
            game.NewGame(request, timeout=10)
        assert wait_accepted(game.NewGame, request, auth, retry or 100).game_id


def test_failed_token_checks_per_peer_stop_at_the_limit(
    ids: IdentityStack, strict: pb_grpc.MatchmakerStub
) -> None:
    """LIMIT_FAILED_TOKENS=3: after three refused tokens even a good one is
    RESOURCE_EXHAUSTED until the stated delay has passed."""
    player = user()
    for case in ["expired", "wrong_signature", "alg_none"]:
        code, reason, _ = failure(strict.GetRatings, pb.GetRatingsRequest(game=GAME),
                                  metadata=bearer(tokens(ids, player, case)))  # fmt: skip
        assert reason == "ERROR_REASON_IDENTITY_INVALID"
    good = bearer(ids.idp.token(player))
    request = pb.GetRatingsRequest(game=GAME, player_ids=[player])
    code, reason, retry = failure(strict.GetRatings, request, metadata=good)
    assert (code, reason) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_LIMIT_FAILED_TOKENS",
    )
    assert retry and retry > 0
    assert wait_accepted(strict.GetRatings, request, good, retry).ratings


def test_the_guest_key_and_provider_settings_are_documented() -> None:
    """docs/DEPLOY.md names every identity setting."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "DEPLOY.md").read_text()
    names = ["IDENTITY_JWKS_URL", "IDENTITY_ISSUER", "IDENTITY_AUDIENCE", "IDENTITY_REQUIRED",
             "GUEST_KEY_FILE", "MM_RATED_REQUIRES_VERIFIED", "LIMIT_NEW_GAMES",
             "LIMIT_FAILED_TOKENS", "MM_MAX_OPEN_TICKETS", "MM_MAX_PRIVATE_TABLES"]  # fmt: skip
    for name in names:
        assert name in text, name


def test_cli_login_keeps_a_guest_identity_and_queues_as_it(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub, tmp_path: Path
) -> None:
    """`roost login` stores a guest token between sessions; `roost queue` plays
    as that guest (bearer token sent, player id its subject); a second login renews it."""
    env = {**os.environ, "ROOST_HOME": str(tmp_path), "MATCHMAKER_ADDR": ids.mm.address,
           "GAME_ADDR_UNDERTHELEAVES": ids.game.address}  # fmt: skip
    cli = [sys.executable, "-m", "clients.cli.main"]
    run = subprocess.run([*cli, "login"], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    stored = json.loads((tmp_path / "identity.json").read_text())
    assert stored["guest"] and stored["player_id"].startswith("guest-")
    again = subprocess.run([*cli, "login"], env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "identity.json").read_text())["player_id"] == stored["player_id"]
    queue = [*cli, "queue", GAME, "--players", "2", "--bots", "--bot-wait", "0", "--json",
             "--timeout", "30"]  # fmt: skip
    run = subprocess.run(queue, env=env, capture_output=True, text=True, timeout=90)
    assert run.returncode == 0, run.stderr
    assert stored["player_id"] in run.stdout


def test_matches_whose_seats_never_act_are_aborted_and_unsupervised(
    ids: IdentityStack, mm: pb_grpc.MatchmakerStub
) -> None:
    """MM_NO_SHOW_MS: a matched game nobody plays ends ABORTED (the game's Abort)
    and leaves the matchmaker's supervised set."""
    first = mm.Enqueue(enqueue_request(user(), counts=(2,)), timeout=10).ticket
    mm.Enqueue(enqueue_request(user(), counts=(2,)), timeout=10)
    deadline = time.monotonic() + 30
    ticket = first
    while ticket.status != pb.TICKET_STATUS_ASSIGNED and time.monotonic() < deadline:
        time.sleep(0.05)  # polling the ticket's state
        ticket = mm.GetTicket(pb.GetTicketRequest(ticket_id=first.ticket_id), timeout=10).ticket
    assert ticket.status == pb.TICKET_STATUS_ASSIGNED
    game_id, match_id = ticket.assignment.game_id, ticket.assignment.match_id
    live = redis.Redis.from_url(with_db(ids.redis_url, 5))
    with grpc.insecure_channel(ids.game.address) as channel:
        game = utl_grpc.UnderTheLeavesStub(channel)
        request = utl.GetStateRequest(game_id=game_id)
        while time.monotonic() < deadline:
            status = game.GetState(request, timeout=10).status
            if status == common_pb2.GAME_STATUS_ABORTED and not live.sismember(
                mm_keys.live(GAME), match_id
            ):
                break
            time.sleep(0.1)  # polling the game's state
        assert game.GetState(request, timeout=10).status == common_pb2.GAME_STATUS_ABORTED
    assert not live.sismember(mm_keys.live(GAME), match_id)


def test_wrong_seat_tokens_per_peer_stop_at_the_limit(ids: IdentityStack) -> None:
    """LIMIT_FAILED_SEAT_TOKENS=3: once a peer passes it, even the right seat
    token is RESOURCE_EXHAUSTED until the stated delay has passed."""
    with grpc.insecure_channel(ids.game.address) as channel:
        game = utl_grpc.UnderTheLeavesStub(channel)
        created = game.NewGame(utl.NewGameRequest(common=common_pb2.CommonOptions(players=2)),
                               timeout=10)  # fmt: skip
        legal = utl.LegalRequest(game_id=created.game_id)
        right = (("x-seat-token", created.credentials[0].token),)
        wrong = (("x-seat-token", "not-a-seat-token"),)
        codes = []
        for _ in range(20):
            codes.append(failure(game.Legal, legal, metadata=wrong))
            if codes[-1][0] == EXHAUSTED:
                break
        assert codes[0][:2] == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_TOKEN_INVALID")
        assert codes[-1][:2] == (EXHAUSTED, "ERROR_REASON_LIMIT_FAILED_TOKENS")
        code, reason, retry = failure(game.Legal, legal, metadata=right)
        assert (code, reason) == (EXHAUSTED, "ERROR_REASON_LIMIT_FAILED_TOKENS")
        assert wait_accepted(game.Legal, legal, right, retry or 100).version >= 1

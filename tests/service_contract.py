"""The service contract every game must honour, as a reusable test suite.

A game's service test subclasses :class:`ServiceContract`, names its spec and
player counts, and implements :meth:`ServiceContract.secret_sequences` (what a
reader must never see). Everything goes through real gRPC sockets to a real
Redis.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import grpc
import pytest
import redis
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status
from roost.common.v1 import common_pb2

from services.core.game_service import GameSpec, catalogue_version
from services.core.store import events_key, game_key
from tests.harness import ServerHandle, game_server

FINISHED = common_pb2.GAME_STATUS_FINISHED


def error_reason(error: grpc.RpcError) -> str:
    """The ErrorInfo reason of a rich error status ('' when absent)."""
    status = rpc_status.from_call(error)
    if status is None:
        return ""
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


def field_violations(error: grpc.RpcError) -> list[str]:
    """Fields named by a BadRequest detail."""
    status = rpc_status.from_call(error)
    fields: list[str] = []
    for detail in status.details if status else []:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields.extend(v.field for v in bad.field_violations)
    return fields


class Client:
    """A thin test client over a game's generated stub."""

    def __init__(self, handle: ServerHandle, spec: GameSpec) -> None:
        self.channel = handle.channel()
        short = spec.service_name.rsplit(".", 1)[1]
        self.stub = getattr(spec.grpc_module, f"{short}Stub")(self.channel)
        self.m = spec.messages

    @staticmethod
    def md(token: str | None) -> list[tuple[str, str]]:
        """Call metadata carrying a seat token."""
        return [("x-seat-token", token)] if token else []

    def new_game(self, players: int, seed: int = 0, **options: Any) -> Any:
        """NewGame with options given as engine option names."""
        request = self.m.NewGameRequest(
            common=common_pb2.CommonOptions(players=players, seed=seed),
        )
        if options:
            json_format.ParseDict(options, request.options)
        return self.stub.NewGame(request, timeout=30)

    def legal(self, game_id: str, token: str | None) -> Any:
        """Legal for the token's seat."""
        return self.stub.Legal(self.m.LegalRequest(game_id=game_id), metadata=self.md(token))

    def apply(
        self,
        game_id: str,
        token: str | None,
        version: int,
        action_id: int | None = None,
        action: Any = None,
        request_id: str = "",
    ) -> Any:
        """Apply by id or typed action."""
        request = self.m.ApplyRequest(
            game_id=game_id, expected_version=version, request_id=request_id
        )
        if action is not None:
            request.action.CopyFrom(action)
        elif action_id is not None:
            request.action_id = action_id
        return self.stub.Apply(request, metadata=self.md(token), timeout=30)

    def state(self, game_id: str, token: str | None = None) -> Any:
        """GetState as the token's seat (spectator without)."""
        return self.stub.GetState(self.m.GetStateRequest(game_id=game_id), metadata=self.md(token))

    def score(self, game_id: str, token: str | None = None) -> Any:
        """Score (a token is checked like the other reads do)."""
        return self.stub.Score(self.m.ScoreRequest(game_id=game_id), metadata=self.md(token))

    def log(self, game_id: str, token: str | None = None, from_version: int = 0) -> Any:
        """GetLog as the token's seat."""
        return self.stub.GetLog(
            self.m.GetLogRequest(game_id=game_id, from_version=from_version),
            metadata=self.md(token),
        )

    def watch(self, game_id: str, token: str | None = None, from_version: int = 0, view=False):
        """A Watch stream iterator."""
        return self.stub.Watch(
            self.m.WatchRequest(game_id=game_id, from_version=from_version, include_view=view),
            metadata=self.md(token),
            timeout=120,
        )

    def catalogue(self, if_version: str = "") -> Any:
        """GetCatalogue (no game, no token)."""
        return self.stub.GetCatalogue(self.m.GetCatalogueRequest(if_version=if_version), timeout=30)

    def play_random(self, created: Any, rng: random.Random, max_steps: int = 100_000) -> int:
        """Play ``created`` to the end with random legal choices; return the final version."""
        tokens = {c.seat: c.token for c in created.credentials}
        game_id = created.game_id
        version = created.version
        to_act = list(created.to_act)
        pending: dict[int, list[Any]] = {}
        for _ in range(max_steps):
            if not to_act:
                return version
            seat = rng.choice(to_act)
            actions = pending.pop(seat, None)
            if actions is None:
                actions = list(self.legal(game_id, tokens[seat]).actions)
            choice = rng.randrange(len(actions))
            reply = self.apply(game_id, tokens[seat], version, action_id=choice)
            version = reply.version
            to_act = list(reply.to_act)
            pending = {seat: list(reply.next_actions)} if reply.next_actions else {}
        raise AssertionError("game did not end")


class ServiceContract:
    """Subclass in a game's test folder; see the module docstring."""

    spec: ClassVar[GameSpec]
    player_counts: ClassVar[tuple[int, ...]]
    full_games_per_count: ClassVar[int] = 1
    #: True when the first legal action's score effect involves no chance.
    preview_is_exact: ClassVar[bool] = True

    #: Which fields of View and Action name a catalogue entry: ``"Message.field"``
    #: or ``"field"`` (any message) -> the Catalogue's repeated field holding it.
    catalogue_refs: ClassVar[dict[str, str]] = {}
    #: Values of those fields that name no entry (documented in catalogue.proto).
    catalogue_non_ids: ClassVar[frozenset[Any]] = frozenset()

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """Sequences (deck/bag order, other hands) that ``reader`` must never see."""
        raise NotImplementedError

    def expected_assumed(self) -> dict[str, set[Any]]:
        """Catalogue kind -> the ids the rules data marks as assumed (read from the data)."""
        raise NotImplementedError

    # ------------------------------------------------------------- fixtures

    @pytest.fixture(scope="class")
    def server(self, redis_server_url: str) -> Iterator[ServerHandle]:
        with game_server(type(self).spec, redis_server_url) as handle:
            yield handle

    @pytest.fixture(scope="class")
    def client(self, server: ServerHandle) -> Client:
        return Client(server, type(self).spec)

    @pytest.fixture(scope="class")
    def raw_redis(self, redis_server_url: str) -> Iterator[redis.Redis]:
        client = redis.Redis.from_url(redis_server_url)
        yield client
        client.close()

    # -------------------------------------------------------------- helpers

    def snapshot(self, raw: redis.Redis, game_id: str) -> tuple[Any, ...]:
        """Everything stored for a game, to prove a rejection changed nothing."""
        return (
            raw.hgetall(game_key(game_id)),
            raw.xrange(events_key(game_id)),
        )

    def engine_state(self, raw: redis.Redis, game_id: str) -> Any:
        """The engine's full state as stored (for secrecy checks)."""
        return self.spec.engine.decode(raw.hget(game_key(game_id), "state"))

    def assert_rejected(
        self,
        raw: redis.Redis,
        game_id: str,
        call: Callable[[], Any],
        code: grpc.StatusCode,
        reason: str,
    ) -> grpc.RpcError:
        """``call`` fails with ``code``/``reason`` and the stored game is byte-identical."""
        before = self.snapshot(raw, game_id)
        with pytest.raises(grpc.RpcError) as caught:
            call()
        assert caught.value.code() == code, caught.value.details()
        assert error_reason(caught.value) == reason
        assert self.snapshot(raw, game_id) == before
        return caught.value

    def assert_no_secrets(self, message: Any, state: Any, reader: int | None) -> None:
        """No secret sequence appears in ``message`` (any list in it), nor the generator state."""
        as_dict = json_format.MessageToDict(message, preserving_proto_field_name=True)
        lists = list(_lists_in(as_dict))
        for secret in self.secret_sequences(state, reader):
            if len(secret) < 3:
                continue
            for values in lists:
                assert not _contains_run(values, secret), (
                    f"reader {reader} sees a secret sequence {secret[:6]}..."
                )
        rng_state = _rng_state(state)
        if rng_state is not None:
            assert str(rng_state) not in json.dumps(as_dict)

    # ---------------------------------------------------------------- tests

    def test_health_and_reflection(self, server: ServerHandle) -> None:
        """Server bootstrap: health per service name answers SERVING and List
        names every service; reflection answers as v1alpha and as v1."""
        with server.channel() as channel:
            health = health_pb2_grpc.HealthStub(channel)
            reply = health.Check(health_pb2.HealthCheckRequest(service=self.spec.service_name))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            listed = health.List(health_pb2.HealthListRequest())
            assert {"", self.spec.service_name} <= set(listed.statuses)
            assert all(
                s.status == health_pb2.HealthCheckResponse.SERVING for s in listed.statuses.values()
            )
            request = reflection_pb2.ServerReflectionRequest(list_services="")
            for path in (
                "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            ):
                call = channel.stream_stream(
                    path,
                    request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                    response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
                )
                answer = next(iter(call(iter([request]))))
                names = {s.name for s in answer.list_services_response.service}
                assert {
                    self.spec.service_name,
                    "grpc.health.v1.Health",
                    "grpc.reflection.v1.ServerReflection",
                } <= names
            symbol = reflection_pb2.ServerReflectionRequest(
                file_containing_symbol="grpc.reflection.v1.ServerReflection"
            )
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            described = next(iter(stub.ServerReflectionInfo(iter([symbol]))))
            assert described.file_descriptor_response.file_descriptor_proto

    @pytest.mark.slow
    def test_full_random_games_through_the_service(self, client: Client) -> None:
        """Random full games of every player count run to the end through Apply."""
        for players in self.player_counts:
            for index in range(self.full_games_per_count):
                created = client.new_game(players, seed=1000 + 17 * players + index)
                final_version = client.play_random(created, random.Random(players * 31 + index))
                state = client.state(created.game_id)
                assert state.status == FINISHED
                assert state.version == final_version
                board = client.score(created.game_id).scoreboard
                assert board.final
                assert len(board.seats) == players
                # A solo game may be lost (ScoreBoard.solo): then it has no winner.
                lost_solo = board.HasField("solo") and not board.solo.won
                assert bool(board.winners) != lost_solo
                for seat_score in board.seats:
                    assert seat_score.total == sum(c.points for c in seat_score.categories)

    def test_legal_apply_state_score_log_behave(self, client: Client) -> None:
        """Legal lists ids and labels; Apply returns the new version, view and next actions."""
        created = client.new_game(self.player_counts[0], seed=7)
        tokens = {c.seat: c.token for c in created.credentials}
        assert created.version == 1
        seat = created.to_act[0]
        legal = client.legal(created.game_id, tokens[seat])
        assert legal.version == 1
        assert legal.actions
        assert [a.ref.id for a in legal.actions] == list(range(len(legal.actions)))
        assert all(a.ref.label and a.ref.kind for a in legal.actions)
        reply = client.apply(created.game_id, tokens[seat], 1, action_id=0, request_id="r1")
        assert reply.version == 2
        assert reply.event.version == 2
        assert reply.event.seat == seat
        if seat in reply.to_act:
            assert reply.next_actions
        state = client.state(created.game_id, tokens[seat])
        assert state.version == 2
        assert state.viewer_seat == seat
        spectator = client.state(created.game_id)
        assert spectator.viewer_seat == -1
        log = client.log(created.game_id)
        assert [e.event.version for e in log.entries] == [1, 2]
        # Apply builds its reply's event directly: it is the stored event as the seat reads it.
        assert client.log(created.game_id, tokens[seat]).entries[1].event == reply.event
        assert log.entries[0].event.kind == "new_game"
        assert log.seed == 0, "the seed is secret while the game runs"
        board = client.score(created.game_id).scoreboard
        assert not board.final
        assert len(board.seats) == self.player_counts[0]

    def test_one_rpc_per_decision_next_actions_are_the_callers_legal_actions(
        self, client: Client
    ) -> None:
        """ApplyResponse.next_actions is exactly what Legal lists for the caller
        whenever the caller is still asked to decide (empty otherwise); with
        omit_view the reply carries no view, with with_score_preview the next
        actions carry the same previews as Legal's."""
        players = 2 if 2 in self.player_counts else self.player_counts[0]
        created = client.new_game(players, seed=77)
        tokens = {c.seat: c.token for c in created.credentials}
        version, to_act = created.version, list(created.to_act)
        rng = random.Random(77)
        for step in range(40):
            if not to_act:
                break
            seat = rng.choice(to_act)
            legal = client.legal(created.game_id, tokens[seat])
            request = client.m.ApplyRequest(
                game_id=created.game_id,
                expected_version=version,
                action_id=rng.randrange(len(legal.actions)),
                omit_view=step % 2 == 0,
                with_score_preview=step % 3 == 0,
            )
            reply = client.stub.Apply(request, metadata=client.md(tokens[seat]), timeout=30)
            assert reply.HasField("view") != request.omit_view
            now = client.stub.Legal(
                client.m.LegalRequest(
                    game_id=created.game_id, with_score_preview=request.with_score_preview
                ),
                metadata=client.md(tokens[seat]),
            )
            assert now.version == reply.version
            if seat in reply.to_act:
                assert list(reply.next_actions) == list(now.actions)
            else:
                assert not reply.next_actions and not now.actions
            version, to_act = reply.version, list(reply.to_act)

    def test_watch_include_legal_carries_the_seats_actions_when_it_comes_to_act(
        self, client: Client
    ) -> None:
        """A seat's Watch with include_legal carries the seat's legal actions (as
        Legal lists them at the event's version) on each event after which the
        seat is asked; a spectator's and an unasked seat's events carry none."""
        created = client.new_game(self.player_counts[0], seed=31)
        tokens = {c.seat: c.token for c in created.credentials}
        seat = created.to_act[0]
        stream = client.stub.Watch(
            client.m.WatchRequest(game_id=created.game_id, include_legal=True),
            metadata=client.md(tokens[seat]),
            timeout=60,
        )
        first = next(stream)
        assert first.event.version == 1
        assert list(first.legal) == list(client.legal(created.game_id, tokens[seat]).actions)
        reply = client.apply(created.game_id, tokens[seat], 1, action_id=0)
        second = next(stream)
        stream.cancel()
        assert second.event.version == 2
        if seat in reply.to_act:
            assert list(second.legal) == list(reply.next_actions)
        else:
            assert not second.legal
        spectator = client.stub.Watch(
            client.m.WatchRequest(game_id=created.game_id, include_legal=True), timeout=60
        )
        assert not next(spectator).legal
        spectator.cancel()

    def test_every_kind_sent_is_a_field_of_the_action_oneof(self, client: Client) -> None:
        """ActionRef.kind and Event.kind are the names of the game's Action oneof
        fields (Event.kind is "new_game" for creation, empty when redacted), in
        Legal, Apply's reply and next actions, GetLog and Watch."""
        oneof = self.spec.types.Action.DESCRIPTOR.oneofs[0]
        names = {f.name for f in oneof.fields}
        created = client.new_game(self.player_counts[0], seed=8)
        tokens = {c.seat: c.token for c in created.credentials}
        version, to_act = created.version, list(created.to_act)
        rng = random.Random(8)
        sent: set[str] = set()
        for _ in range(60):
            if not to_act:
                break
            seat = rng.choice(to_act)
            legal = client.legal(created.game_id, tokens[seat])
            sent.update(a.ref.kind for a in legal.actions)
            reply = client.apply(
                created.game_id, tokens[seat], version, rng.randrange(len(legal.actions))
            )
            sent.add(reply.event.kind)
            sent.update(a.ref.kind for a in reply.next_actions)
            version, to_act = reply.version, list(reply.to_act)
        for reader in (None, *tokens.values()):
            for entry in client.log(created.game_id, reader).entries:
                if entry.event.version == 1:
                    assert entry.event.kind == "new_game"
                elif entry.event.redacted:
                    assert entry.event.kind == ""
                else:
                    sent.add(entry.event.kind)
                    assert entry.action.WhichOneof(oneof.name) == entry.event.kind
        for item in client.watch(created.game_id, from_version=1):
            if item.event.kind:
                sent.add(item.event.kind)
            if item.event.version == version:
                break
        assert sent and sent <= names, sent - names

    def test_zeros_that_matter_are_present_in_proto3_json(self, client: Client) -> None:
        """Field presence: seat 0, action id 0 and the viewer's seat (one name,
        ``viewer_seat``, in every game's View, equal to GetStateResponse's) are
        written when 0, so a JSON client sees them; a spectator's is -1."""
        created = client.new_game(self.player_counts[0], seed=4)
        tokens = {c.seat: c.token for c in created.credentials}
        as_json = json_format.MessageToDict
        assert as_json(created.credentials[0])["seat"] == 0
        assert as_json(created.seats[0])["seat"] == 0
        state = client.state(created.game_id, tokens[0])
        assert as_json(state)["viewerSeat"] == 0
        assert as_json(state.view)["viewerSeat"] == 0
        assert as_json(client.state(created.game_id).view)["viewerSeat"] == -1
        seat = created.to_act[0]
        legal = client.legal(created.game_id, tokens[seat])
        assert as_json(legal.actions[0].ref)["id"] == 0
        reply = client.apply(created.game_id, tokens[seat], 1, action_id=0)
        assert as_json(reply.event)["seat"] == seat
        board = client.score(created.game_id).scoreboard
        assert as_json(board.seats[0])["seat"] == 0

    def test_score_preview_changes_nothing(self, client: Client, raw_redis: redis.Redis) -> None:
        """Legal with a score preview fills score_after and writes nothing."""
        created = client.new_game(self.player_counts[0], seed=12)
        seat = created.to_act[0]
        token = created.credentials[seat].token
        before = self.snapshot(raw_redis, created.game_id)
        legal = client.stub.Legal(
            self.spec.messages.LegalRequest(game_id=created.game_id, with_score_preview=True),
            metadata=client.md(token),
        )
        assert self.snapshot(raw_redis, created.game_id) == before
        assert len(legal.actions) == len(client.legal(created.game_id, token).actions)
        reply = client.apply(created.game_id, token, 1, action_id=0)
        board = client.score(created.game_id).scoreboard
        if self.preview_is_exact:
            assert board.seats[seat].total == legal.actions[0].score_after
        assert reply.version == 2

    def test_typed_action_equals_action_id(self, client: Client) -> None:
        """Apply accepts the typed action as well as its id."""
        created = client.new_game(self.player_counts[0], seed=11)
        seat = created.to_act[0]
        token = created.credentials[seat].token
        legal = client.legal(created.game_id, token)
        chosen = legal.actions[len(legal.actions) // 2]
        reply = client.apply(created.game_id, token, 1, action=chosen.action)
        assert reply.event.label == chosen.ref.label or reply.event.redacted is False

    def test_watch_streams_events_and_resumes(self, client: Client) -> None:
        """Watch streams every event after from_version and resumes from any version."""
        created = client.new_game(self.player_counts[0], seed=5)
        tokens = {c.seat: c.token for c in created.credentials}
        version = created.version
        to_act = list(created.to_act)
        for _ in range(3):
            reply = client.apply(created.game_id, tokens[to_act[0]], version, action_id=0)
            version, to_act = reply.version, list(reply.to_act)
        stream = client.watch(created.game_id, from_version=0)
        seen = [next(stream).event.version for _ in range(4)]
        stream.cancel()
        assert seen == [1, 2, 3, 4]
        resumed = client.watch(created.game_id, from_version=2, view=True)
        first = next(resumed)
        assert first.event.version == 3
        received: list[int] = []

        def read_one() -> None:
            received.append(next(resumed).event.version)

        reader = threading.Thread(target=read_one)
        reader.start()
        client.apply(created.game_id, tokens[to_act[0]], version, action_id=0)
        reader.join(10)
        resumed.cancel()
        assert received[-1] in (4, 5)

    def test_watch_of_a_finished_game_from_its_end_ends_at_once(self, client: Client) -> None:
        """Watch semantics: a finished game watched from its last version (or
        later) ends at once instead of hanging until the deadline."""
        created = client.new_game(self.player_counts[0], seed=1200)
        final_version = client.play_random(created, random.Random(12))
        for from_version in (final_version, final_version + 5):
            stream = client.watch(created.game_id, from_version=from_version)
            assert list(stream) == []
        tail = list(client.watch(created.game_id, from_version=final_version - 1))
        assert [r.event.version for r in tail] == [final_version]
        assert tail[0].event.status == FINISHED

    def test_watch_beyond_the_current_version_is_out_of_range(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """Watch semantics: from_version beyond a live game's version is OUT_OF_RANGE."""
        created = client.new_game(self.player_counts[0], seed=1201)
        with pytest.raises(grpc.RpcError) as caught:
            next(iter(client.watch(created.game_id, from_version=created.version + 1)))
        assert caught.value.code() == grpc.StatusCode.OUT_OF_RANGE
        assert error_reason(caught.value) == "ERROR_REASON_VERSION_OUT_OF_RANGE"

    def test_score_checks_a_presented_token(self, client: Client, raw_redis: redis.Redis) -> None:
        """Score reads like the other reads: no token is a spectator, a seat's
        token is accepted, a bad token is PERMISSION_DENIED."""
        created = client.new_game(self.player_counts[0], seed=1202)
        assert client.score(created.game_id).version == created.version
        assert client.score(created.game_id, created.credentials[0].token).version == 1
        self.assert_rejected(
            raw_redis, created.game_id, lambda: client.score(created.game_id, "not-a-token"),
            grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_TOKEN_INVALID",
        )  # fmt: skip

    def test_stale_version_is_aborted(self, client: Client, raw_redis: redis.Redis) -> None:
        """A stale expected_version is ABORTED and changes nothing."""
        created = client.new_game(self.player_counts[0], seed=3)
        seat = created.to_act[0]
        token = created.credentials[seat].token
        client.apply(created.game_id, token, 1, action_id=0)
        self.assert_rejected(
            raw_redis,
            created.game_id,
            lambda: client.apply(created.game_id, token, 1, action_id=0),
            grpc.StatusCode.ABORTED,
            "ERROR_REASON_STALE_VERSION",
        )

    def test_retried_request_id_is_applied_once(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """A retry with the same request id returns the first result and applies once."""
        created = client.new_game(self.player_counts[0], seed=9)
        seat = created.to_act[0]
        token = created.credentials[seat].token
        request_id = uuid.uuid4().hex
        first = client.apply(created.game_id, token, 1, action_id=0, request_id=request_id)
        second = client.apply(created.game_id, token, 1, action_id=0, request_id=request_id)
        assert first == second
        assert len(client.log(created.game_id).entries) == 2
        self.assert_rejected(
            raw_redis,
            created.game_id,
            lambda: client.apply(created.game_id, token, 1, action_id=1, request_id=request_id),
            grpc.StatusCode.ALREADY_EXISTS,
            "ERROR_REASON_REQUEST_ID_REUSED",
        )

    def test_concurrent_applies_one_wins(self, client: Client) -> None:
        """Two writers on the same version: exactly one wins, the other is ABORTED."""
        created = client.new_game(self.player_counts[0], seed=21)
        seat = created.to_act[0]
        token = created.credentials[seat].token
        outcomes: list[str] = []

        def attempt() -> None:
            try:
                client.apply(created.game_id, token, 1, action_id=0)
                outcomes.append("ok")
            except grpc.RpcError as error:
                outcomes.append(error.code().name)

        threads = [threading.Thread(target=attempt) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert outcomes.count("ok") == 1
        assert outcomes.count("ABORTED") == 3
        assert client.state(created.game_id).version == 2

    def test_tokens_are_checked(self, client: Client, raw_redis: redis.Redis) -> None:
        """A missing token is UNAUTHENTICATED, a wrong one PERMISSION_DENIED, and so
        is a valid token of another game (even one the service has just seen)."""
        created = client.new_game(self.player_counts[0], seed=4)
        game_id = created.game_id
        self.assert_rejected(
            raw_redis, game_id, lambda: client.apply(game_id, None, 1, action_id=0),
            grpc.StatusCode.UNAUTHENTICATED, "ERROR_REASON_TOKEN_MISSING",
        )  # fmt: skip
        self.assert_rejected(
            raw_redis, game_id, lambda: client.apply(game_id, "not-a-token", 1, action_id=0),
            grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_TOKEN_INVALID",
        )  # fmt: skip
        self.assert_rejected(
            raw_redis, game_id, lambda: client.legal(game_id, None),
            grpc.StatusCode.UNAUTHENTICATED, "ERROR_REASON_TOKEN_MISSING",
        )  # fmt: skip
        other = client.new_game(self.player_counts[0], seed=4)
        # Used on its own game first (the service then remembers it with that game):
        client.legal(other.game_id, other.credentials[0].token)
        self.assert_rejected(
            raw_redis, game_id,
            lambda: client.apply(game_id, other.credentials[0].token, 1, action_id=0),
            grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_TOKEN_INVALID",
        )  # fmt: skip

    def test_out_of_turn_and_illegal_and_unknown(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """Out of turn, an unknown action id and an illegal typed action: FAILED_PRECONDITION."""
        created = client.new_game(self.player_counts[-1], seed=6)
        game_id = created.game_id
        tokens = {c.seat: c.token for c in created.credentials}
        waiting = [s for s in tokens if s not in created.to_act]
        if waiting:
            self.assert_rejected(
                raw_redis, game_id,
                lambda: client.apply(game_id, tokens[waiting[0]], 1, action_id=0),
                grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_NOT_YOUR_TURN",
            )  # fmt: skip
        seat = created.to_act[0]
        legal = client.legal(game_id, tokens[seat]).actions
        self.assert_rejected(
            raw_redis, game_id,
            lambda: client.apply(game_id, tokens[seat], 1, action_id=len(legal)),
            grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_UNKNOWN_ACTION",
        )  # fmt: skip
        illegal = self.illegal_action(legal)
        self.assert_rejected(
            raw_redis, game_id, lambda: client.apply(game_id, tokens[seat], 1, action=illegal),
            grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_ILLEGAL_ACTION",
        )  # fmt: skip

    def test_rejections_mid_game_leave_the_game_as_played_in_process(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """The service keeps the state object it last wrote and applies in place:
        after every decision a stale version, an unknown id and an illegal typed
        action are rejected, and the game still ends byte-identical to the same
        decisions played in process (nothing of a rejected call stays behind)."""
        engine, players, seed = self.spec.engine, self.player_counts[0], 77
        created = client.new_game(players, seed=seed)
        game_id, version = created.game_id, created.version
        tokens = {c.seat: c.token for c in created.credentials}
        state = engine.setup(players, {}, seed)
        chooser = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            actions = engine.legal(state, seat)
            legal = client.legal(game_id, tokens[seat]).actions
            token = tokens[seat]
            rejected = (
                (grpc.StatusCode.ABORTED, {"version": version + 1, "action_id": 0}),
                (
                    grpc.StatusCode.FAILED_PRECONDITION,
                    {"version": version, "action_id": len(legal)},
                ),
                (
                    grpc.StatusCode.FAILED_PRECONDITION,
                    {"version": version, "action": self.illegal_action(legal)},
                ),
            )
            for code, arguments in rejected:
                with pytest.raises(grpc.RpcError) as caught:
                    client.apply(game_id, token, **arguments)
                assert caught.value.code() == code
            choice = chooser.randrange(len(actions))
            version = client.apply(game_id, tokens[seat], version, action_id=choice).version
            state = engine.apply(state, seat, actions[choice])
        assert raw_redis.hget(game_key(game_id), "state") == engine.encode(state)

    def test_reads_follow_the_stored_version_not_the_process_memory(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """GetState, Legal and Score read the state this process wrote last in place
        while it is the stored version, and decode the stored one as soon as
        another writer (another replica) has moved the game on."""
        engine, players = self.spec.engine, self.player_counts[0]
        created = client.new_game(players, seed=31)
        game_id, tokens = created.game_id, {c.seat: c.token for c in created.credentials}
        seat = created.to_act[0]
        version = client.apply(game_id, tokens[seat], created.version, action_id=0).version
        in_memory = client.state(game_id, tokens[seat])
        state = self.engine_state(raw_redis, game_id)
        assert in_memory.view == self.spec.types.View(**engine.view(state, seat))
        # Another replica applies the next decision and stores it.
        mover = engine.to_act(state)[0]
        state = engine.apply(state, mover, engine.legal(state, mover)[-1])
        raw_redis.hset(
            game_key(game_id), mapping={"version": version + 1, "state": engine.encode(state)}
        )
        for reader in (seat, mover, None):
            read = client.state(game_id, None if reader is None else tokens[reader])
            assert read.version == version + 1
            assert read.view == self.spec.types.View(**engine.view(state, reader))
        if not engine.is_over(state):
            to_act = engine.to_act(state)[0]
            legal = client.legal(game_id, tokens[to_act])
            assert legal.version == version + 1
            assert [a.ref.label for a in legal.actions] == [
                a.label for a in engine.legal(state, to_act)
            ]
        totals = [s.total for s in engine.score(state).seats]
        assert [s.total for s in client.score(game_id).scoreboard.seats] == totals

    def illegal_action(self, legal: list[Any]) -> Any:
        """A typed action that is not in the legal list: a legal one with a field
        pushed out of range, else an action of a kind that is not legal now."""
        legal_actions = [entry.action for entry in legal]
        for entry in legal:
            action = type(entry.action)()
            action.CopyFrom(entry.action)
            sub = getattr(action, action.WhichOneof("kind"))
            for field in sub.DESCRIPTOR.fields:
                if field.is_repeated:
                    continue
                if field.type == field.TYPE_INT32:
                    setattr(sub, field.name, 9999)
                elif field.type == field.TYPE_STRING:
                    setattr(sub, field.name, "no-such-thing")
                else:
                    continue
                if action not in legal_actions:
                    return action
        action_class = type(legal[0].action)
        legal_kinds = {a.WhichOneof("kind") for a in legal_actions}
        for field in action_class.DESCRIPTOR.oneofs_by_name["kind"].fields:
            if field.name not in legal_kinds:
                action = action_class()
                getattr(action, field.name).SetInParent()
                return action
        raise AssertionError("override illegal_action for this game")

    def test_finished_games_expire_sooner_than_idle_ones(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """Redis design: idle games expire after IDLE_TTL, finished ones after GAME_TTL."""
        created = client.new_game(self.player_counts[0], seed=31)
        assert 3600 < raw_redis.ttl(game_key(created.game_id)) <= 7200
        client.play_random(created, random.Random(8))
        for key in (game_key(created.game_id), events_key(created.game_id)):
            assert 0 < raw_redis.ttl(key) <= 3600

    def test_acting_after_the_end(self, client: Client, raw_redis: redis.Redis) -> None:
        """After the end every Apply is FAILED_PRECONDITION / GAME_OVER."""
        created = client.new_game(self.player_counts[0], seed=77)
        version = client.play_random(created, random.Random(5))
        token = created.credentials[0].token
        self.assert_rejected(
            raw_redis, created.game_id, lambda: client.apply(created.game_id, token, version, 0),
            grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_GAME_OVER",
        )  # fmt: skip
        log = client.log(created.game_id)
        assert log.seed == 77, "the seed is revealed once the game has ended"
        assert len(client.legal(created.game_id, token).actions) == 0

    def test_malformed_requests_are_invalid_argument(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """Malformed requests are INVALID_ARGUMENT with the offending field."""
        created = client.new_game(self.player_counts[0], seed=8)
        game_id = created.game_id
        token = created.credentials[created.to_act[0]].token
        m = self.spec.messages
        cases = [
            (m.ApplyRequest(expected_version=1, action_id=0), "game_id"),
            (m.ApplyRequest(game_id=game_id, action_id=0), "expected_version"),
            (m.ApplyRequest(game_id=game_id, expected_version=1), "choice"),
            (m.ApplyRequest(game_id=game_id, expected_version=1, action_id=-1), "action_id"),
            (m.ApplyRequest(game_id=game_id, expected_version=1, request_id="x" * 200,
                            action_id=0), "request_id"),
            (m.ApplyRequest(game_id="bad id!", expected_version=1, action_id=0), "game_id"),
        ]  # fmt: skip
        for request, field in cases:
            error = self.assert_rejected(
                raw_redis, game_id,
                lambda r=request: client.stub.Apply(r, metadata=client.md(token)),
                grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_REQUEST",
            )  # fmt: skip
            assert field_violations(error) == [field]
        with pytest.raises(grpc.RpcError) as caught:
            client.new_game(self.spec.engine.max_players + 1)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_reason(caught.value) == "ERROR_REASON_INVALID_OPTIONS"
        with pytest.raises(grpc.RpcError) as caught:
            client.stub.NewGame(m.NewGameRequest())
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    def test_unknown_game_is_not_found(self, client: Client) -> None:
        """An unknown game id is NOT_FOUND on every method."""
        for call in (
            lambda: client.state("0" * 24),
            lambda: client.score("0" * 24),
            lambda: client.log("0" * 24),
            lambda: client.apply("0" * 24, "t", 1, action_id=0),
        ):
            with pytest.raises(grpc.RpcError) as caught:
                call()
            assert caught.value.code() == grpc.StatusCode.NOT_FOUND
            assert error_reason(caught.value) == "ERROR_REASON_GAME_NOT_FOUND"

    def test_no_view_or_log_leaks_hidden_data(self, client: Client, raw_redis: redis.Redis) -> None:
        """No seat's view of another, no spectator view and no log entry carries secrets."""
        players = self.player_counts[-1]
        created = client.new_game(players, seed=99)
        tokens = {c.seat: c.token for c in created.credentials}
        rng = random.Random(3)
        version = created.version
        to_act = list(created.to_act)
        for step in range(60):
            if not to_act:
                break
            state = self.engine_state(raw_redis, created.game_id)
            for reader in [None, *tokens]:
                token = tokens.get(reader) if reader is not None else None
                self.assert_no_secrets(client.state(created.game_id, token), state, reader)
                if step % 10 == 0:
                    self.assert_no_secrets(client.log(created.game_id, token), state, reader)
            seat = rng.choice(to_act)
            legal = client.legal(created.game_id, tokens[seat]).actions
            reply = client.apply(created.game_id, tokens[seat], version, rng.randrange(len(legal)))
            version = reply.version
            to_act = list(reply.to_act)
        stream = client.watch(created.game_id, from_version=0, view=True)
        state = self.engine_state(raw_redis, created.game_id)
        for _ in range(version):
            self.assert_no_secrets(next(stream), state, None)
        stream.cancel()

    # ------------------------------------------------------------ catalogue

    def test_catalogue_has_every_id_views_and_actions_mention(self, client: Client) -> None:
        """Random games: every card/tile/dweller/... id in any seat's or a
        spectator's view, and in every legal action, is in the catalogue."""
        entries = catalogue_ids(client.catalogue().catalogue)
        assert set(self.catalogue_refs.values()) <= set(entries), "a ref names no catalogue field"
        seen: dict[str, set[Any]] = {}
        rng = random.Random(16)
        for game in range(2):
            players = rng.choice(self.player_counts)
            created = client.new_game(players, seed=1600 + game)
            tokens = {c.seat: c.token for c in created.credentials}
            game_id, version, to_act = created.game_id, created.version, list(created.to_act)
            _references(created.view, self.catalogue_refs, seen)
            for step in range(100_000):
                if step % 7 == 0 or not to_act:
                    for token in [None, *tokens.values()]:
                        _references(client.state(game_id, token).view, self.catalogue_refs, seen)
                if not to_act:
                    break
                seat = rng.choice(to_act)
                actions = list(client.legal(game_id, tokens[seat]).actions)
                for legal in actions:
                    _references(legal.action, self.catalogue_refs, seen)
                reply = client.apply(
                    game_id, tokens[seat], version, action_id=rng.randrange(len(actions))
                )
                _references(reply.view, self.catalogue_refs, seen)
                version, to_act = reply.version, list(reply.to_act)
        assert set(seen) == set(self.catalogue_refs.values()), "a kind was never met"
        for kind, ids in seen.items():
            missing = ids - entries[kind] - self.catalogue_non_ids
            assert not missing, f"{kind}: {sorted(missing)[:10]} not in the catalogue"

    def test_catalogue_version_is_stable_across_calls_and_processes(self, client: Client) -> None:
        """The version is a content hash: the same in every call and in a fresh process."""
        first, second = client.catalogue(), client.catalogue()
        assert first.version == second.version
        assert len(first.version) == 32
        assert first.catalogue == second.catalogue
        assert catalogue_version(first.catalogue) == first.version
        module = type(self).spec.catalogue.__module__  # type: ignore[union-attr]
        script = (
            "from services.core.game_service import catalogue_version; "
            f"from {module} import build; print(catalogue_version(build()))"
        )
        other = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "12345"},
        )
        assert other.stdout.strip() == first.version

    def test_catalogue_if_version(self, client: Client) -> None:
        """The current if_version: not_modified, no catalogue, the same version;
        any other (or none): the whole catalogue."""
        full = client.catalogue()
        assert not full.not_modified and full.HasField("catalogue")
        same = client.catalogue(if_version=full.version)
        assert same.not_modified and same.version == full.version
        assert not same.HasField("catalogue")
        stale = client.catalogue(if_version="0" * 32)
        assert not stale.not_modified and stale.catalogue == full.catalogue

    def test_catalogue_flags_what_the_data_marks_assumed(self, client: Client) -> None:
        """Every entry names its provenance; ``assumed`` is set exactly on the
        entries the rules data marks as assumed."""
        catalogue = client.catalogue().catalogue
        flagged: dict[str, set[Any]] = {}
        for kind, entry in _entries(catalogue):
            assert entry.source, f"{kind} {_entry_id(entry)} has no provenance"
            assert entry.assumed == ("assumed" in entry.source.lower()), (kind, _entry_id(entry))
            if entry.assumed:
                flagged.setdefault(kind, set()).add(_entry_id(entry))
        expected = {kind: ids for kind, ids in self.expected_assumed().items() if ids}
        assert flagged == expected


def _entries(catalogue: Any) -> Iterator[tuple[str, Any]]:
    """(kind, entry) for every entry of a Catalogue message (its repeated
    fields of messages with an ``assumed`` flag)."""
    for kind in _kinds(catalogue):
        for entry in getattr(catalogue, kind):
            yield kind, entry


def _kinds(catalogue: Any) -> list[str]:
    """The Catalogue's fields that list entries."""
    return [
        field.name
        for field in catalogue.DESCRIPTOR.fields
        if field.is_repeated
        and field.message_type is not None
        and "assumed" in field.message_type.fields_by_name
    ]


def _entry_id(entry: Any) -> Any:
    """An entry's id: its field number 1."""
    return getattr(entry, entry.DESCRIPTOR.fields_by_number[1].name)


def catalogue_ids(catalogue: Any) -> dict[str, set[Any]]:
    """Catalogue kind -> the ids of its entries."""
    ids: dict[str, set[Any]] = {kind: set() for kind in _kinds(catalogue)}
    for kind, entry in _entries(catalogue):
        ids[kind].add(_entry_id(entry))
    return ids


def _references(message: Any, refs: dict[str, str], seen: dict[str, set[Any]]) -> None:
    """Collect into ``seen`` the catalogue ids ``message`` names (recursively)."""
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        if field.message_type is not None:
            for item in values:
                _references(item, refs, seen)
            continue
        kind = refs.get(f"{field.containing_type.name}.{field.name}") or refs.get(field.name)
        if kind is None:
            continue
        for item in values:
            if item == "" or (isinstance(item, int) and item < 0):
                continue
            seen.setdefault(kind, set()).add(item)


def _lists_in(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, dict):
        for inner in value.values():
            yield from _lists_in(inner)
    elif isinstance(value, list):
        scalars = [v for v in value if not isinstance(v, dict | list)]
        if scalars:
            yield scalars
        for inner in value:
            yield from _lists_in(inner)


def _contains_run(values: list[Any], secret: list[Any]) -> bool:
    text = [str(v) for v in values]
    needle = [str(v) for v in secret]
    n = len(needle)
    return any(text[i : i + n] == needle for i in range(len(text) - n + 1))


def _rng_state(state: Any) -> int | None:
    rng = getattr(state, "rng", None)
    if rng is None and isinstance(state, dict):
        rng = state.get("rng")
    return getattr(rng, "state", rng) if rng is not None else None

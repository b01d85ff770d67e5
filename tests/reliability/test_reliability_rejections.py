"""Named rejections at the edge, through the deployed processes.

Each kind of undecodable body on every RPC of every server; a typed action or a
matchmaker field holding a number its enum does not define; values so long
that echoing them would break the status. Each is INVALID_ARGUMENT with the
rich status, and the live games' stored bytes stay as they were.
"""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from roost.matchmaking.v1 import matchmaking_pb2 as mm
from roost.wingspan.v1 import service_pb2 as ws
from roost.wingspan.v1 import types_pb2 as ws_types

from services.core.tokens import TOKEN_METADATA_KEY
from tests.reliability import fuzz
from tests.reliability.conftest import Fleet

pytestmark = pytest.mark.reliability

#: One body of each kind, none of which parses as any request.
BODIES = {
    "random bytes": b"\xde\xad\xbe\xef\xff\xff",
    "truncated": b"\x0a\x05ab",
    "wire type 7": b"\x0f",
    "field number 0": b"\x00\x01",
    "unterminated varint": b"\x80",
    "unterminated groups": b"\x0b" * 200,
}
TARGETS = fuzz.roost_targets() + fuzz.platform_targets()


def _rich(error: grpc.RpcError) -> tuple[error_details_pb2.ErrorInfo, list[str]]:
    """The ErrorInfo of a rich status and the fields its BadRequest names."""
    status = rpc_status.from_call(error)
    assert status is not None, error.details()
    info, fields = error_details_pb2.ErrorInfo(), []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            detail.Unpack(info)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [v.field for v in bad.field_violations]
    return info, fields


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_each_kind_of_undecodable_body_is_invalid_argument(
    fleet: Fleet, target: fuzz.Target
) -> None:
    kinds = dict(BODIES)
    paths = fuzz._string_paths(target.request)
    if paths:  # invalid UTF-8 in a string field (the first one, however deep)
        kinds["invalid UTF-8"] = fuzz._nest(paths[0], b"\xc3\x28")
    # (an empty message type may let a body through: grpc's HealthListRequest takes "\x00\x01")
    kinds = {kind: body for kind, body in kinds.items() if not target.decodes(body)}
    assert len(kinds) >= len(BODIES) - 1
    for kind, body in kinds.items():
        outcome = fleet.send("raw-undecodable", target, body)
        assert outcome.code == grpc.StatusCode.INVALID_ARGUMENT, (kind, outcome)
        assert (outcome.reason, outcome.domain) == ("ERROR_REASON_INVALID_REQUEST", "roost.games")


def _wingspan_seat_to_act(fleet: Fleet) -> tuple[str, int, str]:
    """The first live Wingspan game: its id, version and the token of a seat to act."""
    game = next(g for g in fleet.world.games if g.server == "wingspan")
    stub = fleet.channel("wingspan").unary_unary(
        "/roost.wingspan.v1.Wingspan/GetState",
        request_serializer=ws.GetStateRequest.SerializeToString,
        response_deserializer=ws.GetStateResponse.FromString,
    )
    state = stub(ws.GetStateRequest(game_id=game.game_id), timeout=10)
    assert state.to_act, "the live game is waiting for someone"
    return game.game_id, state.version, game.tokens[state.to_act[0]]


@pytest.mark.parametrize(
    ("action", "field"),
    [
        (ws_types.Action(keep_food=ws_types.KeepFood(foods=[1, 99])), "action.keep_food.foods"),
        (
            ws_types.Action(play_bird=ws_types.PlayBird(bird=1, habitat=99)),
            "action.play_bird.habitat",
        ),
        (
            ws_types.Action(take_action=ws_types.TakeAction(habitat=-1)),
            "action.take_action.habitat",
        ),
    ],
    ids=["repeated", "singular", "negative"],
)
def test_an_unknown_enum_number_in_a_typed_action_is_invalid_argument(
    fleet: Fleet, action: ws_types.Action, field: str
) -> None:
    """From a seat asked to decide, at the current version: the number no enum
    defines is named, and nothing is written."""
    game_id, version, token = _wingspan_seat_to_act(fleet)
    request = ws.ApplyRequest(game_id=game_id, expected_version=version, action=action)
    apply = fuzz.Target("wingspan", "roost.wingspan.v1.Wingspan", "Apply", request.DESCRIPTOR)
    outcome = fleet.send("structured", apply, request.SerializeToString(),
                         ((TOKEN_METADATA_KEY, token),))  # fmt: skip
    assert outcome.code == grpc.StatusCode.INVALID_ARGUMENT
    fleet.direct_requests += 1
    with pytest.raises(grpc.RpcError) as caught:
        fleet.channel("wingspan").unary_unary(
            apply.path, request_serializer=ws.ApplyRequest.SerializeToString
        )(request, metadata=((TOKEN_METADATA_KEY, token),), timeout=10)
    info, fields = _rich(caught.value)
    assert info.reason == "ERROR_REASON_INVALID_REQUEST"
    assert fields == [field]
    assert "is not a value of roost.wingspan.v1." in caught.value.details()


def _matchmaker(fleet: Fleet, method: str, request: object) -> grpc.RpcError:
    call = fleet.channel("matchmaking").unary_unary(
        f"/roost.matchmaking.v1.Matchmaker/{method}",
        request_serializer=lambda m: m.SerializeToString(),
    )
    fleet.direct_requests += 1
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=10)
    return caught.value


def test_an_unknown_bot_kind_is_invalid_argument(fleet: Fleet) -> None:
    request = mm.EnqueueRequest(
        ticket_id="fuzz-bot-kind-0001",
        game="wingspan",
        player_counts=[2],
        party=[mm.Player(player_id="kind-tester")],
        bot_fill=mm.BotFill(enabled=False, kind=99),
    )
    error = _matchmaker(fleet, "Enqueue", request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    info, fields = _rich(error)
    assert (info.reason, fields) == ("ERROR_REASON_INVALID_REQUEST", ["bot_fill.kind"])


@pytest.mark.parametrize(
    ("method", "request_", "reason"),
    [
        ("GetTicket", mm.GetTicketRequest(ticket_id="t" * 100_000), "ERROR_REASON_INVALID_REQUEST"),
        ("Cancel", mm.CancelRequest(ticket_id="💥" * 5_000), "ERROR_REASON_INVALID_REQUEST"),
        ("Leaderboard", mm.LeaderboardRequest(game="g" * 100_000), "ERROR_REASON_UNKNOWN_GAME"),
    ],
    ids=["ticket id", "ticket id emoji", "game name"],
)
def test_a_huge_value_gets_its_status_not_resource_exhausted(
    fleet: Fleet, method: str, request_: object, reason: str
) -> None:
    """A status that echoes what the client sent stays small enough to arrive
    (else the client sees RESOURCE_EXHAUSTED without details)."""
    error = _matchmaker(fleet, method, request_)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    info, _fields = _rich(error)
    assert info.reason == reason
    assert len(error.details()) <= 300

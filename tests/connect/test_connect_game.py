"""A game service over its browser port: the Connect protocol (binary and JSON)
and gRPC-Web, over HTTP/1.1 and HTTP/2, through real sockets to a real Redis;
the same handlers, errors, seat tokens and Watch stream as over gRPC; CORS.

Everything goes through the generated Connect client of the game's proto
(``service_connect.py``), a raw HTTP request, or the gRPC stub for comparison.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from grpc_status import rpc_status
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2 as m
from roost.undertheleaves.v1.service_connect import UnderTheLeavesClient

from services.undertheleaves.service import SPEC
from tests.connect.connect_support import (
    browser_count,
    error_info,
    http_client,
    raw,
    rpc_count,
    run,
)
from tests.harness import ServerHandle, game_server
from tests.service_contract import Client

SERVICE = SPEC.service_name
ALLOWED = "https://play.example.com"
PROTOCOLS = {
    "connect": ProtocolType.CONNECT,
    "grpc-web": ProtocolType.GRPC_WEB,
    "grpc": ProtocolType.GRPC,
}


@pytest.fixture(scope="module")
def server(redis_server_url: str) -> Iterator[ServerHandle]:
    """Under the Leaves with its browser port on a free port."""
    with game_server(
        SPEC, redis_server_url, connect_port=0, cors_allowed_origins=(ALLOWED, "http://localhost:*")
    ) as handle:
        yield handle


@pytest.fixture(scope="module")
def grpc_client(server: ServerHandle) -> Iterator[Client]:
    client = Client(server, SPEC)
    yield client
    client.channel.close()


def client(server: ServerHandle, protocol: str, http: str = "1.1", **kw: Any) -> Any:
    assert server.http_base is not None
    return UnderTheLeavesClient(
        server.http_base, protocol=PROTOCOLS[protocol], http_client=http_client(http), **kw
    )


def seat(token: str) -> dict[str, str]:
    return {"x-seat-token": token}


async def play_one_turn(c: Any) -> tuple[Any, Any, Any]:
    """NewGame → Legal → Apply → GetState as the seat to act."""
    new = await c.new_game(m.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=7)))
    first = new.to_act[0]
    token = next(cr.token for cr in new.credentials if cr.seat == first)
    legal = await c.legal(m.LegalRequest(game_id=new.game_id), headers=seat(token))
    assert legal.actions, "the seat to act has choices"
    applied = await c.apply(
        m.ApplyRequest(game_id=new.game_id, expected_version=legal.version, action_id=0),
        headers=seat(token),
    )
    state = await c.get_state(m.GetStateRequest(game_id=new.game_id), headers=seat(token))
    return new, applied, state


@pytest.mark.parametrize("http", ["1.1", "2"])
@pytest.mark.parametrize("protocol", ["connect", "grpc-web"])
def test_a_turn_over_each_protocol_and_http_version(
    server: ServerHandle, protocol: str, http: str
) -> None:
    before = browser_count(
        service=SERVICE, method="Apply", protocol=protocol, http_version=http, code="OK"
    )
    before_all = rpc_count("game", "Apply", "OK")

    async def go() -> tuple[Any, Any, Any]:
        async with client(server, protocol, http) as c:
            return await play_one_turn(c)

    new, applied, state = run(go())
    assert new.version == 1 and applied.version == 2
    assert applied.event.version == 2
    assert state.version == 2 and state.viewer_seat == new.to_act[0]
    # Counted by protocol and HTTP version, and with every other call in roost_rpcs_total.
    assert (
        browser_count(
            service=SERVICE, method="Apply", protocol=protocol, http_version=http, code="OK"
        )
        == before + 1
    )
    assert rpc_count("game", "Apply", "OK") >= before_all + 1


def test_grpc_itself_over_http2_on_the_browser_port(server: ServerHandle) -> None:
    """The runtime speaks gRPC too (HTTP/2 only: it needs trailers)."""

    async def go() -> tuple[Any, Any, Any]:
        async with client(server, "grpc", "2") as c:
            return await play_one_turn(c)

    _new, applied, _state = run(go())
    assert applied.version == 2


def test_connect_json_codec(server: ServerHandle) -> None:
    async def go() -> tuple[Any, Any, Any]:
        async with client(server, "connect", codec=google_protobuf_json_codec()) as c:
            return await play_one_turn(c)

    _new, applied, _state = run(go())
    assert applied.version == 2


def test_connect_json_by_hand(server: ServerHandle) -> None:
    """Plain HTTP/1.1 and JSON, as a browser's fetch() would send it."""
    reply = raw(
        f"{server.http_base}/{SERVICE}/NewGame",
        body=json.dumps({"common": {"players": 2}}).encode(),
        headers={"content-type": "application/json", "connect-protocol-version": "1"},
    )
    assert reply.status == 200
    assert reply.headers["content-type"] == "application/json"
    assert b"\n" not in reply.body  # compact JSON
    body = json.loads(reply.body)
    assert body["version"] == "1" and len(body["credentials"]) == 2
    reply = raw(
        f"{server.http_base}/{SERVICE}/GetState",
        body=json.dumps({"gameId": body["gameId"]}).encode(),
        headers={"content-type": "application/json", "x-seat-token": "not a token"},
    )
    assert reply.status == 403
    error = json.loads(reply.body)
    assert error["code"] == "permission_denied"
    assert error["details"][0]["type"] == "google.rpc.ErrorInfo"


def test_the_seat_token_header_is_the_seat(server: ServerHandle) -> None:
    async def go() -> list[int]:
        async with client(server, "grpc-web") as c:
            new = await c.new_game(m.NewGameRequest(common=common_pb2.CommonOptions(players=2)))
            request = m.GetStateRequest(game_id=new.game_id)
            seats = []
            for credential in new.credentials:
                state = await c.get_state(request, headers=seat(credential.token))
                seats.append(state.viewer_seat)
            spectator = await c.get_state(request)
            return [*seats, spectator.viewer_seat]

    assert run(go()) == [0, 1, -1]


@pytest.mark.parametrize("protocol", ["connect", "grpc-web"])
def test_errors_are_the_grpc_errors(
    server: ServerHandle, grpc_client: Client, protocol: str
) -> None:
    """Same code, message and ErrorInfo (reason, domain, metadata) as over gRPC."""
    new = grpc_client.new_game(2)
    stale = m.ApplyRequest(game_id=new.game_id, expected_version=5, action_id=0)
    token = new.credentials[new.to_act[0]].token

    def over_grpc(call: Any, request: Any, token: str | None) -> tuple[str, str, Any]:
        with pytest.raises(grpc.RpcError) as caught:
            call(request, metadata=grpc_client.md(token))
        status = rpc_status.from_call(caught.value)
        assert status is not None
        info = next(d for d in status.details if d.Is(error_info_descriptor()))
        return caught.value.code().name, caught.value.details(), unpack(info)

    async def over_http(name: str, request: Any, token: str | None) -> tuple[str, str, Any]:
        async with client(server, protocol) as c:
            with pytest.raises(ConnectError) as caught:
                await getattr(c, name)(request, headers=seat(token) if token else None)
        return caught.value.code.name, caught.value.message, error_info(caught.value)

    cases = [
        ("legal", grpc_client.stub.Legal, m.LegalRequest(game_id=new.game_id), "bad-token"),
        ("legal", grpc_client.stub.Legal, m.LegalRequest(game_id=new.game_id), None),
        ("apply", grpc_client.stub.Apply, stale, token),
        ("get_state", grpc_client.stub.GetState, m.GetStateRequest(game_id="nope"), None),
        ("get_state", grpc_client.stub.GetState, m.GetStateRequest(), None),
    ]
    for name, call, request, tok in cases:
        code, message, info = run(over_http(name, request, tok))
        assert (code, message, info) == over_grpc(call, request, tok), name
    expected = {"PERMISSION_DENIED", "UNAUTHENTICATED", "ABORTED", "NOT_FOUND"}
    assert expected <= {run(over_http(n, r, t))[0] for n, _c, r, t in cases}


def error_info_descriptor() -> Any:
    from google.rpc import error_details_pb2

    return error_details_pb2.ErrorInfo.DESCRIPTOR


def unpack(any_detail: Any) -> Any:
    from google.rpc import error_details_pb2

    info = error_details_pb2.ErrorInfo()
    any_detail.Unpack(info)
    return info


def test_an_undecodable_body_is_invalid_request(server: ServerHandle) -> None:
    reply = raw(
        f"{server.http_base}/{SERVICE}/GetState",
        body=b"\xff\xff\xff",
        headers={"content-type": "application/proto"},
    )
    assert reply.status == 400
    error = json.loads(reply.body)
    assert error["code"] == "invalid_argument"
    assert error["message"].startswith("the request body does not decode")


@pytest.mark.parametrize("protocol", ["connect", "grpc-web"])
def test_watch_streams_an_apply_made_over_grpc(
    server: ServerHandle, grpc_client: Client, protocol: str
) -> None:
    new = grpc_client.new_game(2, seed=3)
    first = new.to_act[0]
    token = next(c.token for c in new.credentials if c.seat == first)
    subscribed = threading.Event()

    async def watch() -> list[Any]:
        events = []
        async with client(server, protocol) as c:
            stream = c.watch(m.WatchRequest(game_id=new.game_id, from_version=1), timeout_ms=10_000)
            # The first event can only come from the Apply below.
            subscribed.set()
            async with contextlib.aclosing(stream):
                async for reply in stream:
                    events.append(reply.event)
                    break
        return events

    def apply_when_subscribed() -> None:
        subscribed.wait(10)
        grpc_client.apply(new.game_id, token, 1, action_id=0)

    applier = threading.Thread(target=apply_when_subscribed)
    applier.start()
    events = run(watch())
    applier.join(10)
    assert [e.version for e in events] == [2]
    assert events[0].seat == first


def test_watch_of_a_missing_game_ends_with_the_grpc_error(server: ServerHandle) -> None:
    async def go() -> ConnectError:
        async with client(server, "grpc-web") as c:
            with pytest.raises(ConnectError) as caught:
                async for _ in c.watch(m.WatchRequest(game_id="0" * 24)):
                    pass
        return caught.value

    error = run(go())
    assert error.code == Code.NOT_FOUND
    assert error_info(error).reason == "ERROR_REASON_GAME_NOT_FOUND"


def test_grpc_health_check_over_connect(server: ServerHandle) -> None:
    reply = raw(
        f"{server.http_base}/grpc.health.v1.Health/Check",
        body=json.dumps({"service": SERVICE}).encode(),
        headers={"content-type": "application/json"},
    )
    assert reply.status == 200
    assert json.loads(reply.body) == {"status": "SERVING"}


def preflight(server: ServerHandle, origin: str) -> Any:
    return raw(
        f"{server.http_base}/{SERVICE}/Legal",
        method="OPTIONS",
        headers={
            "origin": origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type,connect-protocol-version,x-seat-token",
        },
    )


@pytest.mark.parametrize("origin", [ALLOWED, "http://localhost:5173"])
def test_cors_preflight_from_an_allowed_origin(server: ServerHandle, origin: str) -> None:
    reply = preflight(server, origin)
    assert reply.status == 200
    assert reply.headers["access-control-allow-origin"] == origin
    allowed = {h.strip() for h in reply.headers["access-control-allow-headers"].split(",")}
    assert {"x-seat-token", "connect-protocol-version", "content-type"} <= allowed
    assert "POST" in reply.headers["access-control-allow-methods"]


@pytest.mark.parametrize("origin", ["https://evil.example.com", "http://localhost.evil.com:1"])
def test_cors_preflight_from_another_origin_is_refused(server: ServerHandle, origin: str) -> None:
    reply = preflight(server, origin)
    assert reply.status == 400
    assert "access-control-allow-origin" not in reply.headers


def test_cors_headers_on_a_call_expose_the_grpc_web_status(server: ServerHandle) -> None:
    reply = raw(
        f"{server.http_base}/{SERVICE}/GetState",
        body=b"\x00\x00\x00\x00\x00",  # one empty gRPC-Web message frame
        headers={"content-type": "application/grpc-web+proto", "origin": ALLOWED},
    )
    assert reply.status == 200
    assert reply.headers["access-control-allow-origin"] == ALLOWED
    exposed = reply.headers["access-control-expose-headers"]
    assert "grpc-status" in exposed and "grpc-status-details-bin" in exposed
    # gRPC-Web sends the status in a trailer frame (flag 0x80) at the end of the body.
    assert reply.body[0] == 0x80
    trailer = reply.body[5:].decode().lower()
    assert f"grpc-status: {grpc.StatusCode.INVALID_ARGUMENT.value[0]}" in trailer
    assert "grpc-status-details-bin" in trailer


def test_an_unknown_path_is_not_found(server: ServerHandle) -> None:
    reply = raw(f"{server.http_base}/nope.v1.Nope/Call", body=b"{}",
                headers={"content-type": "application/json"})  # fmt: skip
    assert reply.status == 404


#: Bodies no request message decodes from (a wire type 7; a varint that never
#: ends; a length past the end), and one that decodes as an unknown field of some.
UNDECODABLE = [b"\x0f\x01", b"\x08" + b"\xff" * 11, b"\x0a\x7fab"]
ODD = b"\x12\x02\xc3\x28"


def _codes(reply: Any, streaming: bool) -> str:
    """The status a Connect reply carries: ``ok`` or the error's code."""
    if reply.status == 200 and not streaming:
        return "ok"
    text = reply.body.decode(errors="replace")
    match = re.search(r'"code":\s*"([a-z_]+)"', text)
    return match[1] if match else "ok"


def _grpc_web_code(reply: Any) -> int:
    match = re.search(rb"grpc-status: (\d+)", reply.body)
    assert match, reply.body
    return int(match[1])


@pytest.mark.parametrize("method", [m.name for m in SPEC.messages.DESCRIPTOR.services_by_name[
    SERVICE.rsplit(".", 1)[1]].methods])  # fmt: skip
def test_no_body_makes_any_rpc_fail_internally(server: ServerHandle, method: str) -> None:
    """Bodies that do not decode, in each protocol and codec: INVALID_ARGUMENT as
    on the gRPC port; nothing ends INTERNAL or UNKNOWN."""
    url = f"{server.http_base}/{SERVICE}/{method}"
    streaming = method == "Watch"

    def framed(body: bytes) -> bytes:
        return b"\x00" + len(body).to_bytes(4, "big") + body

    for body in [*UNDECODABLE, ODD]:
        expected = {"invalid_argument"} if body != ODD else None
        for codec, data in (("proto", body), ("json", b"{" + body)):
            content_type = f"application/connect+{codec}" if streaming else f"application/{codec}"
            reply = raw(url, body=framed(data) if streaming else data,
                        headers={"content-type": content_type})  # fmt: skip
            code = _codes(reply, streaming)
            assert code not in {"internal", "unknown"}, (method, codec, body)
            if expected is not None or codec == "json":
                assert code == "invalid_argument", (method, codec, body, reply.body)
        reply = raw(url, body=framed(body), headers={"content-type": "application/grpc-web+proto"})
        code = _grpc_web_code(reply)
        assert code not in {grpc.StatusCode.INTERNAL.value[0], grpc.StatusCode.UNKNOWN.value[0]}
        if expected is not None:
            assert code == grpc.StatusCode.INVALID_ARGUMENT.value[0], (method, body)


def test_a_websocket_upgrade_is_refused(server: ServerHandle) -> None:
    assert server.http_base is not None
    host, port = server.http_base.removeprefix("http://").split(":")
    request = (
        f"GET /{SERVICE}/Watch HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\n"
        "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(request.encode())
        status_line = sock.recv(4096).split(b"\r\n", 1)[0]
    assert status_line.split()[1] == b"403"

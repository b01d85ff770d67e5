"""How the browser port is set up: its settings, the bridge's coverage of every
RPC of every service, and its drain."""

from __future__ import annotations

import asyncio
import importlib
import socket
import threading
import time
from typing import Any

import grpc
import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType
from connectrpc.request import Headers, RequestContext
from roost import games
from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2 as m
from roost.undertheleaves.v1.service_connect import UnderTheLeavesClient

from services import launcher
from services.core.config import (
    CONNECT_PORT_OFFSET,
    DEFAULT_CORS_ORIGINS,
    Settings,
    connect_port_from_env,
)
from services.core.connect_apps import connect_module, snake_case
from services.core.connect_bridge import BridgedContext, connect_code
from services.core.http_gateway import HttpGateway, browser_app, origin_rules
from services.core.metrics import LIMITS
from services.undertheleaves.service import SPEC
from tests.connect.connect_support import error_info, run
from tests.harness import game_server


def test_the_browser_port_defaults_to_the_grpc_port_plus_2000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CONNECT_PORT", raising=False)
    assert connect_port_from_env(50051) == (52051, False)
    assert connect_port_from_env(0) == (None, False)
    assert connect_port_from_env(64000) == (None, False)  # no such port: not served
    monkeypatch.setenv("CONNECT_PORT", "8080")
    assert connect_port_from_env(50051) == (8080, True)
    monkeypatch.setenv("CONNECT_PORT", "off")
    assert connect_port_from_env(50051) == (None, True)


def test_cors_origins_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CORS_ALLOWED_ORIGINS", raising=False)
    assert Settings.from_env(50051).cors_allowed_origins == DEFAULT_CORS_ORIGINS
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", " https://a.example , https://*.b.example ")
    settings = Settings.from_env(50051)
    assert settings.cors_allowed_origins == ("https://a.example", "https://*.b.example")
    assert settings.connect_port == 52051


def test_origin_patterns() -> None:
    exact, regex = origin_rules(["*", "https://a.example", "http://localhost:*"])
    assert exact == ["*", "https://a.example"]
    assert regex is not None
    import re

    assert re.fullmatch(regex, "http://localhost:5173")
    assert not re.fullmatch(regex, "http://localhost.evil.example:1")
    assert origin_rules(["https://a.example"]) == (["https://a.example"], None)


@pytest.mark.parametrize("identity", [games.MATCHMAKER, *games.GAMES], ids=lambda i: i.name)
def test_every_rpc_of_every_service_has_its_generated_connect_endpoint(identity: Any) -> None:
    """The bridge names each RPC as the generated Connect stubs do."""
    grpc_module = importlib.import_module(f"{identity.package}.{identity.proto_file}_pb2_grpc")
    messages = importlib.import_module(f"{identity.package}.{identity.proto_file}_pb2")
    service = messages.DESCRIPTOR.services_by_name[identity.service]
    protocol = getattr(connect_module(grpc_module), identity.service)
    for method in service.methods:
        assert hasattr(protocol, snake_case(method.name)), method.full_name


def test_status_codes_map_by_name() -> None:
    assert connect_code(grpc.StatusCode.CANCELLED) is Code.CANCELED
    for code in set(grpc.StatusCode) - {grpc.StatusCode.OK, grpc.StatusCode.CANCELLED}:
        assert connect_code(code).name == code.name


def test_a_drain_ends_watch_streams_on_the_browser_port(redis_server_url: str) -> None:
    """As over gRPC: UNAVAILABLE with ERROR_REASON_DRAINING, so clients resume elsewhere."""
    with game_server(SPEC, redis_server_url, connect_port=0) as server:
        assert server.http_base is not None

        def drain_soon() -> None:
            time.sleep(0.3)
            asyncio.run_coroutine_threadsafe(server.running.drain(0.5), server.loop).result(10)

        async def go() -> ConnectError:
            async with UnderTheLeavesClient(server.http_base, protocol=ProtocolType.GRPC_WEB) as c:
                new = await c.new_game(m.NewGameRequest(common=common_pb2.CommonOptions(players=2)))
                threading.Thread(target=drain_soon).start()
                with pytest.raises(ConnectError) as caught:
                    async for _ in c.watch(m.WatchRequest(game_id=new.game_id, from_version=1)):
                        pass
            return caught.value

        error = run(go())
    assert error.code == Code.UNAVAILABLE
    assert error_info(error).reason == "ERROR_REASON_DRAINING"


def test_the_process_caps_apply_to_the_browser_port(redis_server_url: str) -> None:
    """MAX_CALLS_IN_FLIGHT and MAX_STREAMS count calls from both ports: at the cap a
    call over Connect is refused like one over gRPC."""
    saved = (LIMITS.max_calls, LIMITS.max_streams)
    try:
        with game_server(
            SPEC, redis_server_url, connect_port=0, max_calls_in_flight=0, max_streams=0
        ) as server:
            assert server.http_base is not None

            async def go() -> tuple[ConnectError, ConnectError]:
                async with UnderTheLeavesClient(server.http_base) as c:
                    with pytest.raises(ConnectError) as unary:
                        await c.get_state(m.GetStateRequest(game_id="0" * 24))
                    with pytest.raises(ConnectError) as stream:
                        async for _ in c.watch(m.WatchRequest(game_id="0" * 24)):
                            pass
                return unary.value, stream.value

            unary, stream = run(go())
    finally:
        LIMITS.max_calls, LIMITS.max_streams = saved
    for error, limit in ((unary, "calls_in_flight"), (stream, "streams_open")):
        assert error.code == Code.RESOURCE_EXHAUSTED
        info = error_info(error)
        assert info.reason == "ERROR_REASON_OVERLOADED"
        assert info.metadata["limit"] == limit


def test_the_bridged_context_reads_the_http_request() -> None:
    method = MethodInfo(
        name="GetState", service_name=SPEC.service_name, input=m.GetStateRequest,
        output=m.GetStateResponse, idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.UNARY,
    )  # fmt: skip
    headers = Headers({"x-seat-token": "abc", "content-type": "application/proto"})

    def context(client: str) -> BridgedContext:
        request = RequestContext(
            method=method,
            http_method="POST",
            request_headers=headers,
            timeout_ms=5000,
            client_address=client,
        )
        return BridgedContext(request)

    ctx = context("10.0.0.7:4242")
    assert ("x-seat-token", "abc") in ctx.invocation_metadata()
    remaining = ctx.time_remaining()
    assert remaining is not None and 4 < remaining <= 5
    assert ctx.peer() == "ipv4:10.0.0.7:4242"
    assert context("::1:4242").peer() == "ipv6:[::1]:4242"
    assert not ctx.cancelled()


def test_connections_are_not_recycled_after_a_thousand_requests() -> None:
    """Hypercorn's default closes a connection after 1,000 requests: an HTTP/2
    client with calls already sent on it saw them fail (found by
    bench/browser_port.py). The gateway lifts the cap."""
    gateway = HttpGateway(browser_app((), ()), "127.0.0.1", 0)
    assert gateway.config.keep_alive_max_requests >= 2**31


def test_make_run_gives_each_service_its_browser_port_when_free() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        assert launcher._browser_port(busy - CONNECT_PORT_OFFSET) is None
    assert launcher._browser_port(64000) is None

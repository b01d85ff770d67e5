"""The fuzz: every RPC of every service, through real sockets to real processes.

For each RPC, requests built from the proto descriptors (hypothesis draws every
field: extreme and out-of-range numbers, numbers no enum defines, empty, huge
and odd strings, live and foreign game ids, live and made-up tokens, versions
around the current ones) and raw bodies that are no request at all. Every call
must end in a status other than INTERNAL or UNKNOWN, a Roost rejection must
carry its rich status, a body that does not parse must be INVALID_ARGUMENT
(``ERROR_REASON_INVALID_REQUEST``), and the stored bytes of the live games
(their ``roost:{id}:game`` hash and ``roost:{id}:events`` stream, read from
Redis after every call) must not change unless an Apply was accepted. The
services' logs must hold no traceback and at most one line per request.

``ROOST_FUZZ_EXAMPLES`` sets the examples per RPC (default 40; raw bodies get
half as many); the counts by status code are printed at the end of the run and
written to ``fuzz_counts.json`` in pytest's temporary directory (and to
``ROOST_FUZZ_REPORT`` when set).
"""

from __future__ import annotations

import os

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, assume, given, settings

from tests.reliability import fuzz
from tests.reliability.conftest import Fleet

pytestmark = [pytest.mark.reliability, pytest.mark.slow]  # a fleet of service processes, fuzzed

EXAMPLES = int(os.environ.get("ROOST_FUZZ_EXAMPLES", "40"))
RAW_EXAMPLES = max(EXAMPLES // 2, 1)

ROOST = fuzz.roost_targets()
PLATFORM = fuzz.platform_targets()

#: Methods sent only bodies that do not parse here, and why: what they do with a
#: well-formed request is the health service's own matter, not decoding's.
PARSED_BODIES_LEFT_OUT: dict[tuple[str, str], str] = {}
if not fuzz.health_implements_list():
    PARSED_BODIES_LEFT_OUT[("grpc.health.v1.Health", "List")] = (
        "grpcio's health servicer does not implement List (UNIMPLEMENTED, with a traceback)"
    )


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def test_every_rpc_is_a_target() -> None:
    """Four games with twelve RPCs (play, catalogue, and resign, abort and the
    rematch pair), the matchmaker's seven, and on each of the five servers
    health's three and reflection's one (per version served)."""
    assert len(ROOST) == 4 * 12 + 7
    servers = {t.server for t in ROOST}
    assert {t.server for t in PLATFORM} == servers
    for server in servers:
        methods = {(t.service, t.method) for t in PLATFORM if t.server == server}
        assert {("grpc.health.v1.Health", m) for m in ("Check", "List", "Watch")} <= methods
        assert ("grpc.reflection.v1alpha.ServerReflection", "ServerReflectionInfo") in methods


@pytest.mark.parametrize("target", ROOST, ids=lambda t: t.name)
def test_structured_requests(fleet: Fleet, target: fuzz.Target) -> None:
    """Requests built from the descriptors are answered, never with INTERNAL or
    UNKNOWN, and a rejected one changes no live game."""
    hint = fuzz.hints(fleet.world, target.server)

    @_settings(EXAMPLES)
    @given(
        request=fuzz.requests(target.request, hint),
        md=fuzz.metadata(fleet.world, target.server, target.method),
    )
    def run(request: object, md: tuple[tuple[str, str], ...]) -> None:
        fleet.send("structured", target, request.SerializeToString(), md)

    run()


@pytest.mark.parametrize("target", ROOST + PLATFORM, ids=lambda t: t.name)
def test_undecodable_bodies(fleet: Fleet, target: fuzz.Target) -> None:
    """A body that does not parse is INVALID_ARGUMENT with the rich status, on
    every method of every service registered (health and reflection too); one
    that happens to parse is answered like any request."""
    hint = fuzz.hints(fleet.world, target.server)
    md_strategy = fuzz.metadata(fleet.world, target.server, target.method)
    parsed_elsewhere = PARSED_BODIES_LEFT_OUT.get((target.service, target.method))

    @_settings(RAW_EXAMPLES)
    @given(body=fuzz.undecodable_bodies(target, hint), md=md_strategy)
    def run(body: bytes, md: tuple[tuple[str, str], ...]) -> None:
        decodes = target.decodes(body)
        assume(not (decodes and parsed_elsewhere))
        kind = "raw-decodable" if decodes else "raw-undecodable"
        outcome = fleet.send(kind, target, body, md)
        if not decodes:
            assert outcome.code == grpc.StatusCode.INVALID_ARGUMENT, (target.path, body)
            assert (outcome.reason, outcome.domain) == (
                "ERROR_REASON_INVALID_REQUEST",
                "roost.games",
            )

    run()


def test_logs_hold_no_traceback_and_one_line_per_request_at_most(fleet: Fleet) -> None:
    """After the fuzz (this test runs last in the module; the fixture checks
    again when the session ends): the services wrote structured JSON lines
    only, no traceback, and no more lines than requests."""
    assert sum(fuzz.TALLY.counts.values()) > 0, "run with the fuzz tests above"
    assert fleet.check_logs() > 0


@pytest.mark.parametrize("server", sorted({t.server for t in ROOST}))
def test_servers_still_serve_after_the_fuzz(fleet: Fleet, server: str) -> None:
    """Every service still answers its health check (SERVING) after the fuzz."""
    stub = health_pb2_grpc.HealthStub(fleet.channel(server))
    reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING

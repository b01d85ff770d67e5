"""The suite's three tiers and how a test lands in one.

- **unit** (unmarked): in process, no sockets, no subprocesses. ``make test-unit``.
- **service** (``@pytest.mark.service``): real gRPC/Connect sockets and a real Redis,
  served in the test's process or as service processes on free ports.
  ``make test-service``.
- **e2e** (``@pytest.mark.e2e``): a browser, a pseudo-terminal, Node clients and
  tools, multi-process faults (killing, stalling or draining processes).
  ``make test-e2e``; run serially.

A test is marked by, in order: an explicit ``service``/``e2e`` mark; its file in
:data:`E2E_FILES`; a fixture of :data:`E2E_FIXTURES` in its closure; its file or
name in :data:`SERVICE_FILES`; a fixture of :data:`SERVICE_FIXTURES` in its closure. The
unit tier is guarded: an unmarked test that opens an internet socket or starts a
process fails (see :func:`guard_unit_test`), so a misfiled test shows itself.
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

#: Files (relative to tests/) whose every test is end to end.
E2E_FILES = frozenset(
    {
        # a browser, the web app's Node test runner and build, the launcher's processes
        "web/test_web_browser.py",
        "web/test_web_e2e.py",
        "web/test_web_launcher.py",
        "web/test_web_unit.py",
        # Node clients and tools (the TypeScript client, buf)
        "typescript/test_typescript_client.py",
        "typescript/test_api_compatibility.py",
        # a pseudo-terminal
        "clients/test_cli_pty.py",
        # multi-process faults: killed, stalled, drained and restarted processes
        "core/test_core_processes.py",
        "connect/test_connect_process.py",
        "clients/test_cli_sessions.py",
        "reliability/test_faults.py",
        "reliability/test_matchmaker_drain.py",
    }
)

#: Fixtures that make a test end to end wherever it is.
E2E_FIXTURES = frozenset({"fleet"})

#: Files (``file``) and tests (``file::test``) that are service tests although no
#: fixture says so: they start their own Redis, servers, clusters or processes.
SERVICE_FILES = frozenset(
    {
        "bots/test_bots_tournament_bench.py::test_cpu_seconds_counts_a_process_and_its_children",
        "clients/test_cli_catalogue.py::test_no_catalogue_and_no_service_gives_none",
        "clients/test_cli_search_budget.py::test_the_tournament_refuses_a_budget_it_cannot_use",
        "connect/test_connect_setup.py::test_make_run_gives_each_service_its_browser_port_when_free",
        "core/test_core_free_port.py",
        "core/test_core_redis_cluster.py",
        "core/test_core_redis_mux.py::test_the_lane_authenticates_and_selects_its_database",
        "core/test_core_redis_mux.py::test_a_wrong_password_is_an_authentication_error",
        "core/test_core_redis_mux.py::test_the_lane_speaks_over_a_unix_socket",
        "core/test_core_redis_mux.py::test_the_lane_and_the_store_speak_tls",
        "core/test_core_registry.py::test_the_rules_packages_load_no_platform",
        "core/test_core_watch_hub.py::test_watching_many_games_takes_a_fixed_number_of_connections",
        "deploy/test_deploy_capacity.py",
        "deploy/test_deploy_image.py::test_entrypoint_usage",
        "deploy/test_deploy_image.py::test_entrypoint_runs_the_service_named_first",
        "deploy/test_deploy_image.py::test_entrypoint_runs_the_cli",
        "deploy/test_deploy_redis_cluster.py",
        "deploy/test_deploy_redis_config.py::test_a_real_redis_runs_with_the_rendered_settings",
        "deploy/test_deploy_schemas.py::test_cli_passes_without_warnings",
        "deploy/test_deploy_schemas.py::test_validation_really_is_strict_and_misses_are_caught",
        "matchmaking/test_mm_cluster.py",
        "reliability/test_capacity.py",
        "reliability/test_watch_flood.py",
        "web/test_web_static.py",
    }
)

#: Fixtures that make a test a service test: a real Redis, real servers, processes.
SERVICE_FIXTURES = frozenset({"redis_server_url", "offline_roost"})


def tier_of(item: pytest.Item) -> str:
    """``"unit"``, ``"service"`` or ``"e2e"`` for a collected test."""
    if item.get_closest_marker("e2e") is not None:
        return "e2e"
    if item.get_closest_marker("service") is not None:
        return "service"
    relative = Path(str(item.path)).resolve().relative_to(TESTS).as_posix()
    fixtures = set(getattr(item, "fixturenames", ()))
    if relative in E2E_FILES or fixtures & E2E_FIXTURES:
        return "e2e"
    test = f"{relative}::{getattr(item, 'originalname', item.name)}"
    if relative in SERVICE_FILES or test in SERVICE_FILES or fixtures & SERVICE_FIXTURES:
        return "service"
    return "unit"


def mark_tiers(items: list[pytest.Item]) -> None:
    """Add the ``service`` or ``e2e`` mark to every test that belongs there."""
    for item in items:
        tier = tier_of(item)
        if tier != "unit" and item.get_closest_marker(tier) is None:
            item.add_marker(getattr(pytest.mark, tier))


class UnitTierViolation(AssertionError):
    """An unmarked (unit) test reached for a socket or a process."""


@contextmanager
def guard_unit_test(name: str) -> Iterator[None]:
    """Fail a unit test that connects or binds an internet socket or starts a process.

    Unix sockets (asyncio's self-pipe, socketpair) stay allowed.
    """

    def refuse(what: str) -> UnitTierViolation:
        return UnitTierViolation(
            f"{name} is in the unit tier but {what}: mark it @pytest.mark.service "
            "or @pytest.mark.e2e (tests/tiers.py)"
        )

    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_bind = socket.socket.bind
    original_popen_init = subprocess.Popen.__init__

    def internet(sock: socket.socket) -> bool:
        return sock.family in (socket.AF_INET, socket.AF_INET6)

    def connect(self: socket.socket, address: object) -> None:
        if internet(self):
            raise refuse(f"connects to {address!r}")
        original_connect(self, address)

    def connect_ex(self: socket.socket, address: object) -> int:
        if internet(self):
            raise refuse(f"connects to {address!r}")
        return original_connect_ex(self, address)

    def bind(self: socket.socket, address: object) -> None:
        if internet(self):
            raise refuse(f"binds {address!r}")
        original_bind(self, address)

    def popen_init(self: subprocess.Popen, args: object, *rest: object, **kwargs: object) -> None:
        raise refuse(f"starts the process {args!r}")

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.socket.bind = bind  # type: ignore[method-assign]
    subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = original_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = original_connect_ex  # type: ignore[method-assign]
        socket.socket.bind = original_bind  # type: ignore[method-assign]
        subprocess.Popen.__init__ = original_popen_init  # type: ignore[method-assign]

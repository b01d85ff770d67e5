"""The TypeScript client (clients/typescript) against the real services.

Every implemented game service runs as a process (``python -m services.<game>``,
as deployed) over the test Redis; the client's tests run under node's own test
runner (``node --test``) with the services' addresses in the environment
(``GAME_ADDR_<NAME>``, ``CONNECT_ADDR_<NAME>``) and the protocol in
``ROOST_TS_TRANSPORT``. ``npm ci`` runs only when node_modules is missing or
was installed from another lockfile; the stubs are generated only when the
protos changed (tools/ts_client.py). A failing run fails with node's output.

The Connect runs (the connect and grpc-web transports, CORS preflight) go to
each service's browser port, opened on a free port through
``CONNECT_PORT_SETTING``.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator

import pytest

from services.core.redis_server import free_port
from services.registry import by_name
from tests.matchmaking.stack import Proc, implemented_games, start
from tools.ts_client import TS_DIR, generate, node_available

pytestmark = pytest.mark.skipif(
    not node_available(), reason="node and npm are not installed: the TypeScript client needs them"
)

#: The environment variable a game service reads for the port of its Connect /
#: gRPC-Web endpoint (None would skip the Connect runs).
CONNECT_PORT_SETTING: str | None = "CONNECT_PORT"

#: Each run of node gets this long before it is stopped and reported.
NODE_TIMEOUT_SECONDS = 300


@pytest.fixture(scope="module")
def built() -> None:
    """node_modules installed and the TypeScript stubs generated."""
    generate()


@pytest.fixture(scope="module")
def services(redis_server_url: str, built: None) -> Iterator[dict[str, str]]:
    """Every implemented game service as a process; yields the client environment."""
    procs: list[Proc] = []
    env: dict[str, str] = {}
    try:
        for entry in implemented_games():
            settings = {"REDIS_URL": redis_server_url}
            if CONNECT_PORT_SETTING is not None:
                settings[CONNECT_PORT_SETTING] = str(free_port())
            proc = start(by_name(entry.name), settings)
            procs.append(proc)
            env[f"GAME_ADDR_{entry.name.upper()}"] = proc.address
            if CONNECT_PORT_SETTING is not None:
                env[f"CONNECT_ADDR_{entry.name.upper()}"] = (
                    f"127.0.0.1:{settings[CONNECT_PORT_SETTING]}"
                )
        yield env
    finally:
        for proc in procs:
            proc.stop()


def run_node(args: list[str], env: dict[str, str]) -> str:
    """Run node in clients/typescript; fail the test with its output unless it passes."""
    done = subprocess.run(
        ["node", *args],
        cwd=TS_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_SECONDS,
    )
    output = done.stdout + done.stderr
    if done.returncode != 0:
        pytest.fail(f"node {' '.join(args)} failed ({done.returncode}):\n{output}", pytrace=False)
    return output


def node_tests(*files: str) -> list[str]:
    """Arguments that run TypeScript test files under node's test runner."""
    return ["--import", "tsx", "--test", "--test-reporter=spec", *files]


def transport_env(services: dict[str, str], transport: str) -> dict[str, str]:
    """The client environment for ``transport``; skips when the services do not serve it."""
    if transport != "grpc" and not any(k.startswith("CONNECT_ADDR_") for k in services):
        pytest.skip("the services have no Connect endpoint yet (CONNECT_PORT_SETTING is None)")
    return {**services, "ROOST_TS_TRANSPORT": transport}


def test_typescript_client_typechecks(built: None) -> None:
    """The library, its tests and the worked example of docs/CLIENTS.md compile (tsc)."""
    run_node([str(TS_DIR / "node_modules" / "typescript" / "bin" / "tsc"), "-p", "."], {})


@pytest.mark.parametrize("transport", ["grpc", "connect", "grpc-web"])
def test_errors_watch_and_retries(services: dict[str, str], transport: str) -> None:
    """Error codes and decoded ErrorInfo reasons, Watch and its resuming, Apply retries,
    the worked example, and CORS preflight (on the Connect endpoint)."""
    env = transport_env(services, transport)
    output = run_node(
        node_tests(
            "test/errors.test.ts",
            "test/watch.test.ts",
            "test/example.test.ts",
            "test/cors.test.ts",
        ),
        env,
    )
    assert re.search(r"^ℹ fail 0$", output, re.M), output


def test_the_bot_sdk_plays_over_connect(services: dict[str, str]) -> None:
    """The example bot of clients/typescript/examples/bot.ts plays full games against
    a random TypeScript bot through the Connect endpoint: one Apply per decision, no
    Legal call, and its Watch resumed when the streams are cut."""
    env = transport_env(services, "connect")
    output = run_node(node_tests("test/bot.test.ts"), env)
    assert re.search(r"^ℹ fail 0$", output, re.M), output
    assert re.search(r"^ℹ pass 3$", output, re.M), output


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["grpc", "connect"])
def test_full_games_of_every_game_and_player_count(
    services: dict[str, str], transport: str
) -> None:
    """Random full games of every game at every player count of the registry, scored."""
    env = transport_env(services, transport)
    output = run_node(node_tests("test/fullgames.test.ts"), env)
    games = sum(g.max_players - g.min_players + 1 for g in implemented_games())
    assert re.search(rf"^ℹ pass {games}$", output, re.M), output

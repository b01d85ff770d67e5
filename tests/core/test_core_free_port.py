"""``free_port()``: ports for test and development servers to listen on.

A port the kernel hands out by binding port 0 lies in its ephemeral range, and
any process's next outgoing connection (a service's connections to Redis) may
take it as its local end before the server meant for it binds: the server then
fails to start. ``free_port()`` picks below that range, never twice the same.
"""

from __future__ import annotations

import socket

from services.core.redis_server import DERIVED_PORT_OFFSETS, _ephemeral_range, free_port


def test_ports_are_below_the_ephemeral_range_distinct_and_bindable() -> None:
    low, _ = _ephemeral_range()
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == len(ports)
    assert all(port < low for port in ports)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", ports[-1]))


def test_an_outgoing_connection_never_takes_a_handed_out_port() -> None:
    """Local ends of outgoing connections come from the ephemeral range only, which
    ``free_port()`` stays below."""
    low, high = _ephemeral_range()
    port = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        clients = []
        try:
            for _ in range(20):
                client = socket.create_connection(server.getsockname())
                clients.append(client)
                local = client.getsockname()[1]
                assert low <= local <= high and local != port
        finally:
            for client in clients:
                client.close()


def test_roost_free_ports_narrows_the_range(monkeypatch) -> None:
    """Parallel test workers each get their own slice (``ROOST_FREE_PORTS``)."""
    monkeypatch.setenv("ROOST_FREE_PORTS", "24000-26600")
    ports = [free_port() for _ in range(30)]
    assert len(set(ports)) == len(ports)
    assert all(24000 <= port < 26600 for port in ports)


def test_a_service_port_leaves_its_metrics_and_browser_ports_free_in_the_same_range(
    monkeypatch,
) -> None:
    """A service listens on port + 1000 (metrics) and port + 2000 (browser) too: those
    stay inside the worker's slice, below the ephemeral range, and are never handed out."""
    monkeypatch.setenv("ROOST_FREE_PORTS", "24000-26600")
    ports = [free_port() for _ in range(30)]
    derived = {port + offset for port in ports for offset in DERIVED_PORT_OFFSETS}
    assert all(port >= 24000 and port + max(DERIVED_PORT_OFFSETS) < 26600 for port in ports)
    assert not derived & set(ports)
    for port in derived:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))

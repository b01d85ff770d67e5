"""The web app's static server (services.webapp) over real HTTP: what ``make run``
serves at its web address, from a build directory made up for the test."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.webapp import IMMUTABLE, NO_CACHE, WebServer, config_js, missing_build

PORTS = {"matchmaking": 52050, "wingspan": 52052}


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A build directory shaped like Vite's: index.html and hashed assets."""
    root = tmp_path / "dist"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Roost</title>")
    (root / "assets" / "index-abc123.js").write_text("console.log('app');")
    (root / "assets" / "index-abc123.css").write_text("body{}")
    (root / "config.js").write_text("// the placeholder the build copies")
    (tmp_path / "secret.txt").write_text("outside the build")
    return root


@pytest.fixture
def server(dist: Path) -> Iterator[WebServer]:
    web = WebServer(dist, PORTS, "127.0.0.1", 0)
    try:
        yield web
    finally:
        web.stop()


def fetch(server: WebServer, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_root_is_index_html_never_cached(server: WebServer) -> None:
    status, headers, body = fetch(server, "/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == NO_CACHE
    assert b"<title>Roost</title>" in body


def test_assets_have_their_content_type_and_are_immutable(server: WebServer) -> None:
    status, headers, body = fetch(server, "/assets/index-abc123.js")
    assert (status, body) == (200, b"console.log('app');")
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert headers["Cache-Control"] == IMMUTABLE
    assert headers["X-Content-Type-Options"] == "nosniff"
    _status, css, _ = fetch(server, "/assets/index-abc123.css?v=1")
    assert css["Content-Type"] == "text/css; charset=utf-8"


def test_config_js_is_generated_not_the_built_placeholder(server: WebServer) -> None:
    status, headers, body = fetch(server, "/config.js")
    assert status == 200
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert headers["Cache-Control"] == NO_CACHE
    assert body.decode() == config_js(PORTS)
    assert b"placeholder" not in body


def test_config_js_points_at_each_browser_port_on_the_pages_host() -> None:
    script = config_js(PORTS)
    assert '"matchmaking": 52050' in script and '"wingspan": 52052' in script
    assert "location.hostname" in script  # the host the page was loaded from
    assert "window.ROOST_CONFIG" in script


def test_head_answers_headers_only(server: WebServer) -> None:
    status, headers, body = fetch(server, "/", method="HEAD")
    assert status == 200 and body == b""
    assert int(headers["Content-Length"]) > 0


@pytest.mark.parametrize(
    "path",
    [
        "/missing.js",
        "/play/wingspan/abc",  # the app routes with the fragment: no fallback to index.html
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
    ],
)
def test_other_paths_are_404(server: WebServer, path: str) -> None:
    status, _headers, body = fetch(server, path)
    assert status == 404
    assert b"outside the build" not in body


def test_missing_build_says_why(tmp_path: Path, dist: Path) -> None:
    assert missing_build(dist) is None
    reason = missing_build(tmp_path / "nothing")
    assert reason is not None and "make web" in reason

"""The catalogue cache (clients/cli/catalogue.py) against a real service and Redis:
fetched once, asked again by version, and still there when the service is not."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from clients import sessions
from clients.cli import catalogue
from clients.registry import game
from services.birdscaping.service import SPEC
from services.core.redis_server import free_port
from tests.harness import game_server


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROOST_HOME", str(tmp_path))
    monkeypatch.setattr(sessions, "_HOME", None)
    return tmp_path


def test_fetched_once_then_asked_by_version_and_kept_for_an_outage(
    redis_server_url: str, home: Path
) -> None:
    info = game("birdscaping")
    with game_server(SPEC, redis_server_url) as server, server.channel() as channel:
        stub = info.stub(channel)
        first = catalogue.load(info, stub)
        assert first is not None and any(c.card == "robin" for c in first.cards)
        kept = home / "catalogues" / "birdscaping.binpb"
        version = info.messages().GetCatalogueResponse.FromString(kept.read_bytes()).version
        reply = stub.GetCatalogue(info.messages().GetCatalogueRequest(if_version=version))
        assert reply.not_modified
        assert catalogue.load(info, stub) == first
    with grpc.insecure_channel(f"127.0.0.1:{free_port()}") as dead:
        assert catalogue.load(info, info.stub(dead)) == first


def test_no_catalogue_and_no_service_gives_none(home: Path) -> None:
    info = game("birdscaping")
    with grpc.insecure_channel(f"127.0.0.1:{free_port()}") as dead:
        assert catalogue.load(info, info.stub(dead)) is None

"""Process entry point shared by the game services: ``python -m services.<game>``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import grpc

from services.core.config import Settings
from services.core.game_service import GameServicer, GameSpec
from services.core.server import serve_forever
from services.core.store import GameStore, connect

AddToServer = Callable[[Any, grpc.aio.Server], None]


def build_servicer(
    spec: GameSpec, servicer_class: type[GameServicer], settings: Settings
) -> GameServicer:
    """A servicer for ``spec`` over a store built from ``settings``."""
    store = GameStore(connect(settings.redis_url, settings.redis_cluster))
    return servicer_class(spec, store, settings)


def run_game_service(
    spec: GameSpec, servicer_class: type[GameServicer], add_to_server: AddToServer
) -> None:
    """Serve one game until SIGTERM, configured from the environment."""
    settings = Settings.from_env(spec.default_port)

    async def main() -> None:
        servicer = build_servicer(spec, servicer_class, settings)
        await serve_forever(
            spec.service_name, settings, lambda server: add_to_server(servicer, server)
        )

    asyncio.run(main())

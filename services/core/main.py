"""Process entry point shared by the game services: ``python -m services.<game>``."""

from __future__ import annotations

import asyncio

from services.core.config import Settings
from services.core.connect_apps import connect_app
from services.core.game_service import GameServicer, GameSpec, add_to_server, servicer_class
from services.core.http_gateway import ConnectApp
from services.core.server import serve_forever
from services.core.store import GameStore, connect


def build_servicer(spec: GameSpec, settings: Settings) -> GameServicer:
    """A servicer for ``spec`` over a store built from ``settings``."""
    client = connect(settings.redis_url, settings.redis_cluster, settings.redis_pool_size)
    store = GameStore(client, max_pending_applies=settings.max_pending_applies)
    return servicer_class(spec)(spec, store, settings)


def game_connect_app(spec: GameSpec, servicer: GameServicer) -> ConnectApp:
    """The game's Connect application (Connect, gRPC-Web) over ``servicer``."""
    return connect_app(servicer, spec.messages, spec.grpc_module, spec.service_name)


def run_game_service(spec: GameSpec) -> None:
    """Serve one game until SIGTERM, configured from the environment."""
    settings = Settings.from_env(spec.default_port)

    async def main() -> None:
        servicer = build_servicer(spec, settings)
        await serve_forever(
            spec.service_name,
            settings,
            lambda server: add_to_server(spec, servicer, server),
            probe=servicer.store.ping,
            drain_hooks=(servicer.hub.close, servicer.expiry.stop),
            browser_apps=(game_connect_app(spec, servicer),),
        )

    asyncio.run(main())

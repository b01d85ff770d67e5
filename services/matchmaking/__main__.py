"""``python -m services.matchmaking``: serve the matchmaker (PORT, default from the registry).

Configuration: the platform's variables (``REDIS_URL``, ``REDIS_CLUSTER``,
``PORT``, ``METRICS_PORT``, ``LOG_LEVEL``, ``GRACE_SECONDS``, ``HOST``), the
game addresses ``GAME_ADDR_<NAME>`` (and ``GAME_PUBLIC_ADDR_<NAME>``) and the
``MM_*`` tuning of :class:`services.matchmaking.config.MatchmakerSettings`, the
identity settings of :class:`services.core.identity.settings.IdentitySettings`
and the per-identity rules of :class:`services.matchmaking.callers.CallerRules`.
"""

from __future__ import annotations

import asyncio

from services.core.config import Settings
from services.core.connect_apps import connect_app
from services.core.gated_redis import probe
from services.core.identity.settings import IdentitySettings
from services.core.identity.verifier import Verifier
from services.core.logging import configure
from services.core.records.archive import Archive
from services.core.server import serve_forever
from services.core.store import connect
from services.matchmaking.callers import CallerRules, Callers
from services.matchmaking.config import MatchmakerSettings
from services.matchmaking.engine import Matchmaker
from services.matchmaking.games import GameDirectory
from services.matchmaking.service import (
    DEFAULT_PORT,
    SERVICE_NAME,
    MatchmakerService,
    add_to_server,
    pb,
    pb_grpc,
)


async def main() -> None:
    """Serve until SIGTERM, then stop the loops and hand supervised games over."""
    settings = Settings.from_env(DEFAULT_PORT)
    mm_settings = MatchmakerSettings.from_env()
    configure(settings.log_level)
    client = connect(settings.redis_url, settings.redis_cluster, settings.redis_pool_size)
    engine = Matchmaker(client, mm_settings, GameDirectory(mm_settings.games))
    archive = Archive(settings.archive_url) if settings.archive_url else None
    callers = Callers(
        Verifier(IdentitySettings.from_env(), client),
        CallerRules.from_env(),
        client,
        mm_settings.heartbeat_timeout_ms,
    )
    servicer = MatchmakerService(engine, callers, archive)
    await engine.start()
    try:
        await serve_forever(
            SERVICE_NAME,
            settings,
            lambda server: add_to_server(servicer, server),
            probe=lambda: probe(client),  # past the store gate, which it trips
            drain_hooks=(engine.end_watches,),
            browser_apps=(connect_app(servicer, pb, pb_grpc, SERVICE_NAME),),
        )
    finally:
        await engine.stop()
        await client.aclose()


if __name__ == "__main__":
    asyncio.run(main())

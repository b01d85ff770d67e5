"""Service configuration, read once from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a Roost service process is configured with.

    Environment variables: ``REDIS_URL``, ``REDIS_CLUSTER`` ("1" selects the
    cluster-aware client), ``PORT``, ``METRICS_PORT`` (0 disables; default
    PORT + 1000), ``LOG_LEVEL``, ``GAME_TTL_SECONDS`` (finished games),
    ``IDLE_TTL_SECONDS`` (games nobody touches), ``REQUEST_TTL_SECONDS`` (how
    long an Apply result is kept for retries), ``GRACE_SECONDS`` (drain on
    SIGTERM), ``HOST`` (bind address), ``MAX_CONNECTION_AGE_SECONDS`` (clients
    reconnect after this long, so a scaled-out Deployment rebalances; 0 = never).
    """

    redis_url: str
    redis_cluster: bool
    host: str
    port: int
    metrics_port: int
    log_level: str
    game_ttl_seconds: int
    idle_ttl_seconds: int
    request_ttl_seconds: int
    grace_seconds: float
    max_connection_age_seconds: int = 300
    redis_pool_size: int = 16
    max_calls_in_flight: int = 2000
    max_streams: int = 20_000
    max_pending_applies: int = 2000

    @classmethod
    def from_env(cls, default_port: int) -> Settings:
        """Settings for a service whose default port is ``default_port``."""
        port = _int("PORT", default_port)
        return cls(
            redis_url=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            redis_cluster=os.environ.get("REDIS_CLUSTER", "").lower() in {"1", "true", "yes"},
            host=os.environ.get("HOST", "[::]"),
            port=port,
            metrics_port=_int("METRICS_PORT", port + 1000 if port else 0),
            log_level=os.environ.get("LOG_LEVEL", "info").lower(),
            game_ttl_seconds=_int("GAME_TTL_SECONDS", 24 * 3600),
            idle_ttl_seconds=_int("IDLE_TTL_SECONDS", 7 * 24 * 3600),
            request_ttl_seconds=_int("REQUEST_TTL_SECONDS", 600),
            grace_seconds=float(os.environ.get("GRACE_SECONDS", "10")),
            max_connection_age_seconds=_int("MAX_CONNECTION_AGE_SECONDS", 300),
            redis_pool_size=_int("REDIS_POOL_SIZE", 16),
            max_calls_in_flight=_int("MAX_CALLS_IN_FLIGHT", 2000),
            max_streams=_int("MAX_STREAMS", 20_000),
            max_pending_applies=_int("MAX_PENDING_APPLIES", 2000),
        )

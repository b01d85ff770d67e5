"""Service configuration, read once from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: The browser (Connect / gRPC-Web) port is the gRPC port plus this, unless set.
CONNECT_PORT_OFFSET = 2000
#: The metrics port is the gRPC port + this, unless METRICS_PORT says otherwise.
METRICS_PORT_OFFSET = 1000
#: Origins allowed to call from a browser unless CORS_ALLOWED_ORIGINS says otherwise:
#: pages served from this machine, on any port (local development).
DEFAULT_CORS_ORIGINS = ("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


#: The largest request message either port accepts (bytes), unless MAX_MESSAGE_BYTES says otherwise.
DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


def max_message_bytes_from_env() -> int:
    """``MAX_MESSAGE_BYTES``: the one size limit of a request message on both
    ports (the gRPC port's receive limit, the browser port's body limit)."""
    return _int("MAX_MESSAGE_BYTES", DEFAULT_MAX_MESSAGE_BYTES)


@dataclass(frozen=True, slots=True)
class BrowserPortSettings:
    """The browser port's HTTP limits (``BROWSER_*`` environment variables).

    ``idle_timeout_seconds``: a connection with no request in progress is closed
    after this long (HTTP/2 with a GOAWAY), and a request's headers must arrive
    within it; longer than the 5 s after which Node's and browsers' agents drop
    an idle keep-alive connection themselves; HTTP/1.1 replies announce two
    thirds of it in ``Keep-Alive: timeout=N``. ``body_timeout_seconds``: a request's whole
    body must arrive within this long of its headers. ``backlog``: the listen
    queue. ``max_connections``: a connection beyond it is closed at once, before
    a byte is read. ``max_body_buffer_bytes``: request
    bodies held at once by the whole port; a request beyond it is refused
    (RESOURCE_EXHAUSTED, retryable). ``max_resets_per_second`` with
    ``reset_burst``: streams an HTTP/2 client may cancel (RST_STREAM) before the
    connection is ended with GOAWAY ENHANCE_YOUR_CALM (rapid reset).
    """

    idle_timeout_seconds: float = 15.0
    body_timeout_seconds: float = 10.0
    backlog: int = 4096
    max_connections: int = 4096
    max_body_buffer_bytes: int = 64 * 1024 * 1024
    max_resets_per_second: float = 100.0
    reset_burst: int = 200

    @classmethod
    def from_env(cls) -> BrowserPortSettings:
        """Each field from ``BROWSER_<FIELD>`` (upper case), else its default."""
        d = cls()
        return cls(
            idle_timeout_seconds=_float("BROWSER_IDLE_TIMEOUT_SECONDS", d.idle_timeout_seconds),
            body_timeout_seconds=_float("BROWSER_BODY_TIMEOUT_SECONDS", d.body_timeout_seconds),
            backlog=_int("BROWSER_BACKLOG", d.backlog),
            max_connections=_int("BROWSER_MAX_CONNECTIONS", d.max_connections),
            max_body_buffer_bytes=_int("BROWSER_MAX_BODY_BUFFER_BYTES", d.max_body_buffer_bytes),
            max_resets_per_second=_float("BROWSER_MAX_RESETS_PER_SECOND", d.max_resets_per_second),
            reset_burst=_int("BROWSER_RESET_BURST", d.reset_burst),
        )


def connect_port_from_env(port: int) -> tuple[int | None, bool]:
    """The browser port and whether it was asked for explicitly: ``CONNECT_PORT``
    (``off`` disables it, 0 picks a free port), else ``port`` + 2000 (None when
    ``port`` is 0 or that is no port number)."""
    raw = os.environ.get("CONNECT_PORT", "").strip().lower()
    if raw in {"off", "none", "disabled", "-1"}:
        return None, True
    if raw:
        return int(raw), True
    derived = port + CONNECT_PORT_OFFSET
    return (derived if port and derived <= 65535 else None), False


def origins_from_env() -> tuple[str, ...]:
    """``CORS_ALLOWED_ORIGINS``: comma-separated origins; ``*`` allows any, and a
    ``*`` inside an origin matches one host label or port (``http://localhost:*``).
    Empty: no cross-origin browser calls at all. Unset: :data:`DEFAULT_CORS_ORIGINS`."""
    raw = os.environ.get("CORS_ALLOWED_ORIGINS")
    if raw is None:
        return DEFAULT_CORS_ORIGINS
    return tuple(origin.strip() for origin in raw.split(",") if origin.strip())


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a Roost service process is configured with.

    Environment variables: ``REDIS_URL``, ``REDIS_CLUSTER`` ("1" selects the
    cluster-aware client), ``PORT``, ``METRICS_PORT`` (0 disables; default
    PORT + 1000), ``LOG_LEVEL``, ``GAME_TTL_SECONDS`` (finished games),
    ``IDLE_TTL_SECONDS`` (games nobody touches), ``REQUEST_TTL_SECONDS`` (how
    long an Apply result is kept for retries), ``GRACE_SECONDS`` (drain on
    SIGTERM), ``HOST`` (bind address), ``MAX_CONNECTION_AGE_SECONDS`` (clients
    reconnect after this long, so a scaled-out Deployment rebalances; 0 = never),
    ``CONNECT_PORT`` (the browser port: Connect and gRPC-Web over HTTP/1.1 and
    HTTP/2; default PORT + 2000, which is skipped with a warning if it cannot be
    bound; ``off`` disables it), ``CORS_ALLOWED_ORIGINS``
    (see :func:`origins_from_env`), ``MAX_MESSAGE_BYTES`` (the largest request
    message on both ports), ``MAX_CONNECTION_AGE_GRACE_SECONDS`` (how long an
    aged connection's calls may still run), ``STORE_STALL_SECONDS`` (a store
    that has not answered the watchdog's ping for this long is stalled: calls
    needing it fail fast with UNAVAILABLE), the browser port's limits
    (:class:`BrowserPortSettings`), ``DAY_SECONDS`` (a correspondence day) and
    ``EXPIRY_POLL_MS`` (the expiry poller's longest sleep), ``EXPIRY_BATCH_READS``
    (the poller reads its due games in one pipeline; "0": one by one), ``TLS_CERT_FILE`` and
    ``TLS_KEY_FILE`` (PEM files, e.g. a mounted cert-manager Secret: the gRPC
    port then speaks TLS only).
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
    #: How long an aged-out connection's calls (Watch streams) may go on before it is closed.
    max_connection_age_grace_seconds: float = 60.0
    redis_pool_size: int = 16
    max_calls_in_flight: int = 2000
    max_streams: int = 20_000
    max_pending_applies: int = 2000
    #: Batches a Watch stream's queue holds before the stream is ended as too
    #: far behind (``ERROR_REASON_WATCH_BEHIND``; services/core/watch.py).
    watch_max_behind: int = 1024
    #: The Connect / gRPC-Web port (0: any free port; None: not served).
    connect_port: int | None = None
    #: Whether failing to bind ``connect_port`` stops the process (set explicitly)
    #: or only logs a warning (derived from PORT, as on a developer's machine).
    connect_port_required: bool = True
    #: Origins a browser may call from (CORS); see :func:`origins_from_env`.
    cors_allowed_origins: tuple[str, ...] = DEFAULT_CORS_ORIGINS
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    #: A watchdog ping (every 0.5 s) unanswered for this long marks the store
    #: stalled: calls needing it then fail fast (services/core/store_gate.py).
    store_stall_seconds: float = 2.0
    browser: BrowserPortSettings = field(default_factory=BrowserPortSettings)
    #: The length of a correspondence day (``DAY_SECONDS``; tests compress it).
    day_seconds: float = 86_400.0
    #: How often the expiry poller looks for due deadlines at the latest
    #: (``EXPIRY_POLL_MS``); it wakes earlier for a deadline it knows of.
    expiry_poll_ms: int = 100
    #: The archive of ended games (``ARCHIVE_URL``: ``sqlite:///PATH`` or
    #: ``postgresql://...``; empty: no archive, games live only in Redis).
    archive_url: str = ""
    #: How often a replica drains the ended-but-unarchived games at the latest
    #: (``ARCHIVE_POLL_SECONDS``).
    archive_poll_seconds: float = 30.0
    #: The expiry poller reads each poll's due games in one pipeline
    #: (``EXPIRY_BATCH_READS``, default on; off reads each game as it fires).
    expiry_batch_reads: bool = True
    #: The gRPC port's certificate chain and private key (PEM paths; both or neither).
    tls_cert_file: str = ""
    tls_key_file: str = ""

    @classmethod
    def from_env(cls, default_port: int) -> Settings:
        """Settings for a service whose default port is ``default_port``."""
        port = _int("PORT", default_port)
        connect_port, connect_port_required = connect_port_from_env(port)
        return cls(
            redis_url=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            redis_cluster=os.environ.get("REDIS_CLUSTER", "").lower() in {"1", "true", "yes"},
            host=os.environ.get("HOST", "[::]"),
            port=port,
            metrics_port=_int("METRICS_PORT", port + METRICS_PORT_OFFSET if port else 0),
            log_level=os.environ.get("LOG_LEVEL", "info").lower(),
            game_ttl_seconds=_int("GAME_TTL_SECONDS", 24 * 3600),
            idle_ttl_seconds=_int("IDLE_TTL_SECONDS", 7 * 24 * 3600),
            request_ttl_seconds=_int("REQUEST_TTL_SECONDS", 600),
            grace_seconds=float(os.environ.get("GRACE_SECONDS", "10")),
            max_connection_age_seconds=_int("MAX_CONNECTION_AGE_SECONDS", 300),
            max_connection_age_grace_seconds=float(
                os.environ.get("MAX_CONNECTION_AGE_GRACE_SECONDS", "60")
            ),
            redis_pool_size=_int("REDIS_POOL_SIZE", 16),
            max_calls_in_flight=_int("MAX_CALLS_IN_FLIGHT", 2000),
            max_streams=_int("MAX_STREAMS", 20_000),
            max_pending_applies=_int("MAX_PENDING_APPLIES", 2000),
            watch_max_behind=_int("WATCH_MAX_BEHIND", 1024),
            connect_port=connect_port,
            connect_port_required=connect_port_required,
            cors_allowed_origins=origins_from_env(),
            max_message_bytes=max_message_bytes_from_env(),
            store_stall_seconds=_float("STORE_STALL_SECONDS", 2.0),
            browser=BrowserPortSettings.from_env(),
            day_seconds=float(os.environ.get("DAY_SECONDS", "86400")),
            expiry_poll_ms=_int("EXPIRY_POLL_MS", 100),
            archive_url=os.environ.get("ARCHIVE_URL", ""),
            archive_poll_seconds=float(os.environ.get("ARCHIVE_POLL_SECONDS", "30")),
            expiry_batch_reads=os.environ.get("EXPIRY_BATCH_READS", "1").strip().lower()
            not in {"0", "false", "no", "off"},
            tls_cert_file=os.environ.get("TLS_CERT_FILE", "").strip(),
            tls_key_file=os.environ.get("TLS_KEY_FILE", "").strip(),
        )

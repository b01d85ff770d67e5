"""Hypercorn's HTTP/1.1 and HTTP/2 handling, hardened for the browser port.

Hypercorn (pinned at 0.18.0 in pyproject.toml) is served through its public
``hypercorn.asyncio.serve``. What its protocols lack is added by the three
subclasses here, which :func:`install` puts in place of Hypercorn's own (the
names its connection code looks up: ``hypercorn.protocol.H11Protocol`` /
``H2Protocol`` and ``hypercorn.asyncio.run.TCPServer``). Each override is
small, calls the original and says which HTTP rule it follows.

:class:`RoostH2Protocol` (HTTP/2):

- **an answer before the request's end** (an oversize body refused at once):
  once the response has ended, the stream is reset with NO_ERROR (RFC 9113
  §8.1), and DATA still arriving for it is dropped with its flow-control
  credit returned. Hypercorn looked the stream up and raised ``KeyError``,
  which closed the connection without GOAWAY and lost every other stream on it;
- **rapid reset** (CVE-2023-44487): streams the client cancels are counted in
  a token bucket (``reset_burst``, refilled at ``max_resets_per_second``); past
  it the connection ends with GOAWAY ENHANCE_YOUR_CALM, as grpc's HTTP/2 stack
  does;
- **maximum connection age**: after ``max_connection_age`` (±10 %, as grpc
  jitters it) a GOAWAY (NO_ERROR, the last stream id taken) asks the client to
  reconnect; calls already running get ``max_connection_age_grace`` more, then
  the connection is closed. Streams opened after the GOAWAY are refused
  (REFUSED_STREAM: safe to retry elsewhere);
- **a GOAWAY before every close** the server decides on (idle timeout,
  shutdown), so the client knows no stream was lost in flight;
- **a closed connection releases its responses**: the send buffers are closed
  with it, so a response waiting on flow control (a client that stopped
  reading, or went) ends instead of holding the connection, and a stop, for
  ever.

The GOAWAY frames are written next to the h2 state machine, not through it:
``H2Connection.close_connection`` would forbid sending anything more, and the
streams still running must be able to finish.

:class:`RoostH11Protocol` (HTTP/1.1): every response announces the idle timeout
(``Keep-Alive: timeout=N``, two thirds of it), so a client agent drops an idle
connection before the server closes it, instead of writing into a closed one; past the maximum
age a response carries ``Connection: close``, and a response still streaming
at age + grace is ended by closing the connection.

:class:`RoostTCPServer`: counts open connections, refuses (closes at once)
those over ``max_connections``, and lets :meth:`PortState.abort_all` end the
connections that outlive a drain's grace, so a stop never waits on a client.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

import h2.events
import h2.exceptions
import h2.stream
import hypercorn.asyncio.run
import hypercorn.protocol
from h2.errors import ErrorCodes
from hypercorn.asyncio.tcp_server import TCPServer
from hypercorn.config import Config
from hypercorn.events import Closed, RawData, Updated
from hypercorn.protocol.events import Response, Trailers
from hypercorn.protocol.h2 import H2Protocol
from hypercorn.protocol.h11 import H11Protocol
from hyperframe.frame import GoAwayFrame

#: The share of the idle timeout announced to HTTP/1.1 clients (``Keep-Alive:
#: timeout=N``): a client agent that keeps an idle connection for N seconds (Node's
#: keeps it N - 1) drops it well before the server closes it, even on a busy loop.
ANNOUNCED_IDLE_FRACTION = 2 / 3
#: How much the maximum connection age varies between connections (grpc: ±10 %).
AGE_JITTER = 0.1


@dataclass
class PortState:
    """What the protocols of one browser port share: its limits and connections."""

    max_connections: int = 4096
    max_connection_age: float = 0.0  # seconds; 0: no maximum
    max_connection_age_grace: float = 60.0
    idle_timeout: float = 15.0
    max_resets_per_second: float = 100.0
    reset_burst: int = 200
    #: The open connections: each one's writer and the task serving it.
    connections: dict[Any, asyncio.Task[Any]] = field(default_factory=dict)
    refused: int = 0
    goaways_for_resets: int = 0

    def aged_after(self) -> float | None:
        """The age (seconds) at which one new connection is asked to go."""
        if self.max_connection_age <= 0:
            return None
        return self.max_connection_age * random.uniform(1 - AGE_JITTER, 1 + AGE_JITTER)

    async def abort_all(self, wait: float = 2.0) -> None:
        """Close every connection at once (after a drain's grace) and wait up to
        ``wait`` seconds for their tasks to end by themselves."""
        for writer in list(self.connections):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        tasks = set(self.connections.values())
        if tasks:
            await asyncio.wait(tasks, timeout=wait)


async def _closes_within(gone: asyncio.Event, seconds: float) -> bool:
    """True when ``gone`` is set within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            await gone.wait()
    except TimeoutError:
        return False
    return True


class RoostConfig(Config):
    """Hypercorn's Config with the port's :class:`PortState`."""

    def __init__(self, state: PortState) -> None:
        super().__init__()
        self.port_state = state


def _state(config: Config) -> PortState:
    return getattr(config, "port_state", None) or PortState()


class RoostH2Protocol(H2Protocol):
    """Hypercorn's HTTP/2 protocol with the rules in the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.port = _state(self.config)
        self.tokens = float(self.port.reset_burst)
        self.refilled = time.monotonic()
        #: The last stream id a GOAWAY promised to serve (None: no GOAWAY sent).
        self.goaway_last: int | None = None
        #: Set when the connection has closed (ends the age timer with it).
        self.gone = asyncio.Event()

    async def initiate(self, *args: Any, **kwargs: Any) -> None:
        await super().initiate(*args, **kwargs)
        age = self.port.aged_after()
        if age is not None:
            self.task_group.spawn(self._age_out, age)

    async def _age_out(self, age: float) -> None:
        """GOAWAY at ``age``; close after the grace (unless closed before)."""
        if await _closes_within(self.gone, age):
            return
        await self._goaway(ErrorCodes.NO_ERROR)
        if not await _closes_within(self.gone, self.port.max_connection_age_grace):
            await self.send(Closed())

    async def _goaway(self, code: ErrorCodes) -> None:
        """Write a GOAWAY naming the highest stream taken so far."""
        last = self.connection.highest_inbound_stream_id
        if self.goaway_last is not None:
            last = min(last, self.goaway_last)
        self.goaway_last = last
        frame = GoAwayFrame(stream_id=0, last_stream_id=last, error_code=int(code))
        await self._flush()
        await self.send(RawData(data=frame.serialize()))

    async def goaway_before_close(self) -> None:
        """A GOAWAY (NO_ERROR) before the server closes an idle or draining
        connection; best effort (the connection may be gone already)."""
        if not self.closed and self.goaway_last is None:
            with contextlib.suppress(Exception):
                await self._goaway(ErrorCodes.NO_ERROR)

    async def handle(self, event: Any) -> None:
        if isinstance(event, Closed):
            self.gone.set()
        await super().handle(event)
        if isinstance(event, Closed):
            # Hypercorn left the send buffers open: a response waiting for its
            # buffer to drain (flow control, a client that stopped reading)
            # waited forever, and a stop waited on it.
            for buffer in list(self.stream_buffers.values()):
                await buffer.close()

    async def _handle_events(self, events: list[h2.events.Event]) -> None:
        """Hypercorn's handling, with the rules of the module docstring first.
        Events go to Hypercorn in runs; a run is handed over before a DATA frame
        whose stream is unknown is judged (the run may create that stream)."""
        run: list[h2.events.Event] = []
        for event in events:
            if isinstance(event, h2.events.DataReceived) and event.stream_id not in self.streams:
                if run:
                    await super()._handle_events(run)
                    run = []
                if event.stream_id not in self.streams:
                    # Answered already: drop the data, return its credit, stop the sender.
                    with contextlib.suppress(h2.exceptions.ProtocolError):
                        self.connection.acknowledge_received_data(
                            event.flow_controlled_length, event.stream_id
                        )
                    self._reset_if_answered(event.stream_id)
                    continue
            if (
                isinstance(event, h2.events.RequestReceived)
                and self.goaway_last is not None
                and event.stream_id > self.goaway_last
            ):
                self.connection.reset_stream(event.stream_id, ErrorCodes.REFUSED_STREAM)
                continue
            if (
                isinstance(event, h2.events.StreamReset)
                and event.remote_reset
                and not self._take_reset_token()
            ):
                if run:
                    await super()._handle_events(run)
                self.port.goaways_for_resets += 1
                await self._goaway(ErrorCodes.ENHANCE_YOUR_CALM)
                await self.send(Closed())
                return
            run.append(event)
        if run:
            await super()._handle_events(run)
        else:
            await self._flush()

    def _take_reset_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(
            float(self.port.reset_burst),
            self.tokens + (now - self.refilled) * self.port.max_resets_per_second,
        )
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def _reset_if_answered(self, stream_id: int) -> None:
        """RST_STREAM NO_ERROR for a stream whose response has ended while the
        client is still sending (RFC 9113 §8.1)."""
        stream = self.connection.streams.get(stream_id)
        if (
            stream is not None
            and stream.state_machine.state is h2.stream.StreamState.HALF_CLOSED_LOCAL
        ):
            with contextlib.suppress(h2.exceptions.ProtocolError, h2.exceptions.StreamClosedError):
                self.connection.reset_stream(stream_id, ErrorCodes.NO_ERROR)

    async def _send_data(self, stream_id: int) -> None:
        await super()._send_data(stream_id)
        if stream_id not in self.stream_buffers:  # its response has just ended
            self._reset_if_answered(stream_id)
            await self._flush()

    async def stream_send(self, event: Any) -> None:
        await super().stream_send(event)
        if isinstance(event, Trailers):
            self._reset_if_answered(event.stream_id)
            with contextlib.suppress(Exception):
                await self._flush()


class RoostH11Protocol(H11Protocol):
    """Hypercorn's HTTP/1.1 protocol with the keep-alive announcement and the
    maximum connection age (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.port = _state(self.config)
        self.born = time.monotonic()
        self.age = self.port.aged_after()
        self.gone = asyncio.Event()
        self.timed = False

    async def _create_stream(self, request: Any) -> None:
        # The timer starts with the first HTTP/1.1 request: a connection that
        # turns out to be HTTP/2 (prior knowledge, h2c) drops this protocol.
        if self.age is not None and not self.timed:
            self.timed = True
            self.task_group.spawn(self._age_out, self.age + self.port.max_connection_age_grace)
        await super()._create_stream(request)

    async def _age_out(self, limit: float) -> None:
        if not await _closes_within(self.gone, limit):
            await self.send(Closed())

    async def handle(self, event: Any) -> None:
        if isinstance(event, Closed):
            self.gone.set()
        await super().handle(event)

    def _aged(self) -> bool:
        return self.age is not None and time.monotonic() - self.born >= self.age

    async def stream_send(self, event: Any) -> None:
        if isinstance(event, Response) and event.status_code >= 200:
            names = {name.lower() for name, _ in event.headers}
            if self._aged() and b"connection" not in names:
                event.headers.append((b"connection", b"close"))
            elif b"connection" not in names:
                timeout = max(1, int(self.port.idle_timeout * ANNOUNCED_IDLE_FRACTION))
                event.headers.append((b"keep-alive", b"timeout=%d" % timeout))
        await super().stream_send(event)


class RoostTCPServer(TCPServer):
    """Hypercorn's connection handler with the connection count and cap.

    Once the client has closed its side, the idle timer is stopped and no
    longer restarted: Hypercorn kept it running, so a closed connection (and
    its place under the cap) was held for a whole idle timeout."""

    closing = False

    async def _read_data(self) -> None:
        await super()._read_data()
        self.closing = True
        await self.idle_task.stop()

    async def protocol_send(self, event: Any) -> None:
        if self.closing and isinstance(event, Updated):
            return
        await super().protocol_send(event)

    async def _close(self) -> None:
        self.closing = True
        await super()._close()

    async def _initiate_server_close(self) -> None:
        # The idle timeout or a stop: an HTTP/2 client is told with a GOAWAY.
        protocol = getattr(self.protocol, "protocol", None)
        if isinstance(protocol, RoostH2Protocol):
            await protocol.goaway_before_close()
        await super()._initiate_server_close()

    async def run(self) -> None:
        port = _state(self.config)
        if len(port.connections) >= port.max_connections:
            port.refused += 1
            self.writer.transport.abort()
            return
        task = asyncio.current_task()
        assert task is not None
        port.connections[self.writer] = task
        try:
            await super().run()
        finally:
            port.connections.pop(self.writer, None)


def install() -> None:
    """Put the three subclasses in place of Hypercorn's own (idempotent)."""
    hypercorn.protocol.H2Protocol = RoostH2Protocol  # type: ignore[misc]
    hypercorn.protocol.H11Protocol = RoostH11Protocol  # type: ignore[misc]
    hypercorn.asyncio.run.TCPServer = RoostTCPServer  # type: ignore[misc]

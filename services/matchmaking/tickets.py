"""The ticket store: every ticket transition is one atomic Lua script.

A ticket moves ``QUEUED -> MATCHING -> ASSIGNED``, or ends ``CANCELLED``,
``EXPIRED`` or ``FAILED``; a claimed match that is never assigned (its
matchmaker died) goes back to ``QUEUED``. Each script touches keys of one game
only (hash tag ``{<game>}``), so it runs unchanged on Redis Cluster. Claiming
checks that *every* ticket of a match is still ``QUEUED`` and flips them all
to ``MATCHING`` in the same script, so two matchmaker processes can never
place a ticket twice; assigning checks they are still ``MATCHING`` for that
very match. Every change appends ``(ticket, status)`` to the game's notify
stream, which WatchTicket and the matching loops of every process follow.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.matchmaking import keys
from services.matchmaking.scripts import script
from services.matchmaking.tables import TableSeat

QUEUED = "QUEUED"
MATCHING = "MATCHING"
ASSIGNED = "ASSIGNED"
CANCELLED = "CANCELLED"
EXPIRED = "EXPIRED"
FAILED = "FAILED"
TERMINAL = frozenset({ASSIGNED, CANCELLED, EXPIRED, FAILED})
NOTIFY_MAXLEN = "10000"
#: Hex digits of a ticket id's SHA-256 that name the ticket in logs.
TICKET_REF_LENGTH = 12


def ticket_ref(ticket_id: str) -> str:
    """How logs name a ticket: the first 12 hex digits of its id's SHA-256.

    A ticket id is a bearer secret (GetTicket and WatchTicket with it return the
    seat tokens), so no log line carries one. The reference still follows one
    ticket through the logs, and whoever holds a ticket id finds its lines by
    hashing it the same way. Empty for an empty id.
    """
    if not ticket_id:
        return ""
    return hashlib.sha256(ticket_id.encode()).hexdigest()[:TICKET_REF_LENGTH]


#: The ticket scripts (services/matchmaking/lua/*.lua), read once at import.
_CREATE = script("create", with_notify=True)
_HEARTBEAT = script("heartbeat", with_notify=True)
_CANCEL = script("cancel", with_notify=True)
_EXPIRE = script("expire", with_notify=True)
_CLAIM = script("claim", with_notify=True)
_ASSIGN = script("assign", with_notify=True)
_RELEASE = script("release", with_notify=True)
_FAIL = script("fail", with_notify=True)
_RENEW = script("renew")
_FINISH = script("finish")


@dataclass(frozen=True, slots=True)
class TicketData:
    """The immutable part of a ticket, as stored in its ``data`` field."""

    ticket_id: str
    game: str
    counts: tuple[int, ...]
    options: str
    party: tuple[tuple[str, str], ...]
    bots: bool
    bot_after_ms: int
    bot_kind: str
    enqueued_ms: int
    rating: float
    #: A private table's seats in seat order (empty: an ordinary ticket).
    table: tuple[TableSeat, ...] = ()

    @property
    def private(self) -> bool:
        """True for a private table: never matched with other tickets."""
        return bool(self.table)

    def to_json(self) -> str:
        """Compact JSON (``table`` only when there is one)."""
        extra: dict[str, Any] = {}
        if self.table:
            extra["table"] = [s.to_json() for s in self.table]
        return json.dumps(
            {
                "id": self.ticket_id,
                "game": self.game,
                "counts": list(self.counts),
                "options": self.options,
                "party": [list(p) for p in self.party],
                "bots": self.bots,
                "bot_after_ms": self.bot_after_ms,
                "bot_kind": self.bot_kind,
                "enqueued_ms": self.enqueued_ms,
                "rating": self.rating,
                **extra,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, raw: bytes | str) -> TicketData:
        """Inverse of :meth:`to_json`."""
        d = json.loads(raw)
        return cls(
            ticket_id=d["id"],
            game=d["game"],
            counts=tuple(d["counts"]),
            options=d["options"],
            party=tuple((p[0], p[1]) for p in d["party"]),
            bots=d["bots"],
            bot_after_ms=d["bot_after_ms"],
            bot_kind=d["bot_kind"],
            enqueued_ms=d["enqueued_ms"],
            rating=d["rating"],
            table=tuple(TableSeat.from_json(s) for s in d.get("table", ())),
        )


@dataclass(frozen=True, slots=True)
class TicketRecord:
    """A ticket as read from Redis."""

    data: TicketData
    status: str
    seq: int
    hb_ms: int
    assignment: dict[str, Any] | None
    error: str


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _record(fields: Mapping[bytes, bytes]) -> TicketRecord | None:
    if not fields or b"data" not in fields:
        return None
    assignment = fields.get(b"assignment")
    return TicketRecord(
        data=TicketData.from_json(fields[b"data"]),
        status=_text(fields[b"status"]),
        seq=int(fields.get(b"seq", b"0")),
        hb_ms=int(fields.get(b"hb", b"0")),
        assignment=json.loads(assignment) if assignment else None,
        error=_text(fields.get(b"error", b"")),
    )


class TicketStore:
    """Atomic ticket transitions and reads for every game."""

    def __init__(self, client: Any, retention_seconds: int) -> None:
        self.client = client
        self.retention = retention_seconds
        self._create = client.register_script(_CREATE)
        self._heartbeat = client.register_script(_HEARTBEAT)
        self._cancel = client.register_script(_CANCEL)
        self._expire = client.register_script(_EXPIRE)
        self._claim = client.register_script(_CLAIM)
        self._assign = client.register_script(_ASSIGN)
        self._release = client.register_script(_RELEASE)
        self._fail = client.register_script(_FAIL)
        self._renew = client.register_script(_RENEW)
        self._finish = client.register_script(_FINISH)

    # ----------------------------------------------------------- the index

    async def game_of(self, ticket_id: str) -> str | None:
        """The game a ticket id was queued for, if known."""
        raw = await self.client.get(keys.ticket_index(ticket_id))
        return _text(raw) if raw is not None else None

    async def reserve_id(self, ticket_id: str, game: str, ttl_seconds: int) -> str | None:
        """Bind a ticket id to a game; returns the game it was already bound to, if any."""
        index = keys.ticket_index(ticket_id)
        if await self.client.set(index, game, nx=True, ex=ttl_seconds):
            return None
        existing = await self.client.get(index)
        return _text(existing) if existing is not None else None

    async def touch_index(self, ticket_id: str, ttl_seconds: int) -> None:
        """Keep the index entry of a live ticket."""
        await self.client.expire(keys.ticket_index(ticket_id), ttl_seconds)

    # --------------------------------------------------------- transitions

    async def create(self, data: TicketData, expires_ms: int) -> bool:
        """Queue a new ticket; False when the id already exists in that game."""
        g = data.game
        result = await self._create(
            keys=[
                keys.ticket(g, data.ticket_id),
                keys.seq(g),
                keys.queue(g),
                keys.heartbeats(g),
                keys.notify(g),
            ],
            args=[data.ticket_id, data.to_json(), expires_ms, self.retention],
        )
        return int(result) > 0

    async def get(self, game: str, ticket_id: str) -> TicketRecord | None:
        """The ticket, or None."""
        return _record(await self.client.hgetall(keys.ticket(game, ticket_id)))

    async def heartbeat(
        self, game: str, ticket_id: str, now_ms: int, expires_ms: int
    ) -> tuple[str, int]:
        """Extend a queued ticket; returns its status and new expiry (0 unless queued)."""
        status, expiry = await self._heartbeat(
            keys=[
                keys.ticket(game, ticket_id),
                keys.queue(game),
                keys.heartbeats(game),
                keys.notify(game),
            ],
            args=[ticket_id, now_ms, expires_ms, self.retention],
        )
        return _text(status), int(expiry)

    async def cancel(self, game: str, ticket_id: str) -> str:
        """Cancel a queued ticket; returns the resulting (or blocking) status or NOT_FOUND."""
        result = await self._cancel(
            keys=[
                keys.ticket(game, ticket_id),
                keys.queue(game),
                keys.heartbeats(game),
                keys.notify(game),
            ],
            args=[ticket_id, self.retention],
        )
        return _text(result)

    async def expire_due(self, game: str, now_ms: int, limit: int = 200) -> int:
        """Expire queued tickets whose heartbeat deadline has passed."""
        due = await self.client.zrangebyscore(
            keys.heartbeats(game), "-inf", now_ms - 1, start=0, num=limit
        )
        if not due:
            return 0
        ids = [_text(t) for t in due]
        return int(
            await self._expire(
                keys=[
                    keys.queue(game),
                    keys.heartbeats(game),
                    keys.notify(game),
                    *[keys.ticket(game, t) for t in ids],
                ],
                args=[now_ms, self.retention, "", *ids],
            )
        )

    async def claim(
        self, game: str, match_id: str, ticket_ids: Sequence[str], now_ms: int, deadline_ms: int
    ) -> int:
        """Atomically move every ticket to MATCHING; 0 on success, else the
        1-based position of the first ticket that was no longer claimable."""
        return int(
            await self._claim(
                keys=[
                    keys.queue(game),
                    keys.heartbeats(game),
                    keys.pending(game),
                    keys.notify(game),
                    keys.match(game, match_id),
                    *[keys.ticket(game, t) for t in ticket_ids],
                ],
                args=[
                    match_id,
                    deadline_ms,
                    now_ms,
                    json.dumps(list(ticket_ids)),
                    self.retention,
                    *ticket_ids,
                ],
            )
        )

    async def assign(
        self,
        game: str,
        match_id: str,
        record: Mapping[str, Any],
        assignments: Mapping[str, Mapping[str, Any]],
    ) -> bool:
        """Hand each claimed ticket its assignment; False if the claim was lost."""
        ids = list(assignments)
        result = await self._assign(
            keys=[
                keys.pending(game),
                keys.notify(game),
                keys.match(game, match_id),
                keys.live(game),
                *[keys.ticket(game, t) for t in ids],
            ],
            args=[
                match_id,
                json.dumps(record, separators=(",", ":")),
                self.retention,
                "",
                *[json.dumps(assignments[t], separators=(",", ":")) for t in ids],
            ],
        )
        return int(result) == 1

    async def release(
        self, game: str, match_id: str, ticket_ids: Sequence[str], expires_ms: int, error: str = ""
    ) -> int:
        """Undo a claim: tickets go back to the queue (or FAILED with ``error``)."""
        return int(
            await self._release(
                keys=[
                    keys.queue(game),
                    keys.heartbeats(game),
                    keys.pending(game),
                    keys.notify(game),
                    keys.match(game, match_id),
                    *[keys.ticket(game, t) for t in ticket_ids],
                ],
                args=[match_id, expires_ms, self.retention, error, "", *ticket_ids],
            )
        )

    async def fail(self, game: str, ticket_ids: Sequence[str], error: str) -> int:
        """Mark queued tickets FAILED."""
        if not ticket_ids:
            return 0
        return int(
            await self._fail(
                keys=[
                    keys.queue(game),
                    keys.heartbeats(game),
                    keys.notify(game),
                    *[keys.ticket(game, t) for t in ticket_ids],
                ],
                args=[error, self.retention, "", *ticket_ids],
            )
        )

    # --------------------------------------------------------------- reads

    async def queued(self, game: str, limit: int) -> list[tuple[str, int]]:
        """The oldest queued ticket ids with their FCFS sequence."""
        rows = await self.client.zrange(keys.queue(game), 0, limit - 1, withscores=True)
        return [(_text(member), int(score)) for member, score in rows]

    async def data_of(self, game: str, ticket_ids: Sequence[str]) -> dict[str, TicketData]:
        """The immutable data of several tickets (missing ones are left out)."""
        if not ticket_ids:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for t in ticket_ids:
            pipe.hget(keys.ticket(game, t), "data")
        raws = await pipe.execute()
        return {
            t: TicketData.from_json(raw) for t, raw in zip(ticket_ids, raws, strict=True) if raw
        }

    async def overdue_matches(self, game: str, now_ms: int) -> list[tuple[str, list[str]]]:
        """Claimed matches past their assignment deadline, with their ticket ids."""
        due = await self.client.zrangebyscore(keys.pending(game), "-inf", now_ms, start=0, num=50)
        out: list[tuple[str, list[str]]] = []
        for raw in due:
            match_id = _text(raw)
            tickets = await self.client.hget(keys.match(game, match_id), "tickets")
            out.append((match_id, json.loads(tickets) if tickets else []))
        return out

    async def refused(self, game: str) -> dict[tuple[int, str], str]:
        """(count, options) combinations the game service refused, with the reason."""
        raw = await self.client.hgetall(keys.refused(game))
        out: dict[tuple[int, str], str] = {}
        for field, reason in raw.items():
            count, options = _text(field).split("|", 1)
            out[(int(count), options)] = _text(reason)
        return out

    async def refuse(self, game: str, count: int, options: str, reason: str) -> None:
        """Remember that the game service refused this combination."""
        await self.client.hset(keys.refused(game), f"{count}|{options}", reason[:500])

    # -------------------------------------------------- supervision leases

    async def live_matches(self, game: str) -> list[str]:
        """Match ids whose games are running."""
        return sorted(_text(m) for m in await self.client.smembers(keys.live(game)))

    async def match_record(self, game: str, match_id: str) -> dict[str, Any] | None:
        """The record of an assigned match."""
        raw = await self.client.hget(keys.match(game, match_id), "record")
        return json.loads(raw) if raw else None

    async def add_live_match(self, game: str, match_id: str, record: Mapping[str, Any]) -> None:
        """Record a match made without tickets (a rematch) as running."""
        raw = json.dumps(record, separators=(",", ":"))
        await self.client.hset(keys.match(game, match_id), mapping={"state": "LIVE", "record": raw})
        await self.client.sadd(keys.live(game), match_id)

    async def take_lease(self, game: str, match_id: str, owner: str, ms: int) -> bool:
        """Become the supervisor of a match unless another process is."""
        return bool(await self.client.set(keys.lease(game, match_id), owner, nx=True, px=ms))

    async def renew_lease(self, game: str, match_id: str, owner: str, ms: int) -> bool:
        """Extend a lease this process holds; False when it was lost."""
        return bool(await self._renew(keys=[keys.lease(game, match_id)], args=[owner, ms]))

    async def finish_match(self, game: str, match_id: str, owner: str) -> None:
        """The game is over (or gone): stop supervising it anywhere."""
        await self._finish(
            keys=[keys.lease(game, match_id), keys.live(game), keys.match(game, match_id)],
            args=[owner, match_id, self.retention],
        )

"""Who may do what at the matchmaker: the verified caller against the player
ids a request states, and the limits per identity.

Rules (with a verified caller; anonymous callers are served as before unless
``IDENTITY_REQUIRED``):

* a ticket is *owned* by its first human: the first party member, else the
  first human seat of its table. Enqueue is refused PERMISSION_DENIED
  (``ERROR_REASON_IDENTITY_MISMATCH``) unless the caller owns the ticket it
  states, and so are GetTicket, WatchTicket, Heartbeat and Cancel of a ticket
  the caller does not own (an Enqueue reusing another identity's ticket id too);
* with ``MM_RATED_REQUIRES_VERIFIED`` a ticket whose game is rated (any human
  seat) needs a verified non-guest caller and states no human but the caller;
* at most ``MM_MAX_OPEN_TICKETS`` queued or matching tickets per identity
  (``ERROR_REASON_LIMIT_OPEN_TICKETS``), and at most ``MM_MAX_PRIVATE_TABLES``
  private tables per identity per ``LIMIT_WINDOW_SECONDS``
  (``ERROR_REASON_LIMIT_PRIVATE_TABLES``); both answer RESOURCE_EXHAUSTED with
  a ``google.rpc.RetryInfo``. Open tickets are a set per identity in Redis,
  pruned of closed tickets when the identity enqueues.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.core.identity import errors as id_errors
from services.core.identity.limits import Limiter
from services.core.identity.verifier import Identity, Verifier
from services.matchmaking.tables import TableSeat
from services.matchmaking.tickets import TicketRecord

OPEN_STATUSES = frozenset({"QUEUED", "MATCHING"})


def open_tickets_key(subject: str) -> str:
    """The Redis set of an identity's possibly open ticket ids."""
    return f"roost:mm:open:{{{subject}}}"


def owner_of(party: Sequence[tuple[str, str]], table: Sequence[TableSeat]) -> str:
    """A ticket's owner: its first party member, else its table's first human seat."""
    if party:
        return party[0][0]
    return next((s.player_id for s in table if not s.is_bot), "")


def humans_of(party: Sequence[tuple[str, str]], table: Sequence[TableSeat]) -> set[str]:
    """Every human player id a ticket states."""
    return {p for p, _ in party} | {s.player_id for s in table if not s.is_bot}


@dataclass(frozen=True, slots=True)
class CallerRules:
    """The matchmaker's identity settings (see the module docstring)."""

    rated_requires_verified: bool = False
    max_open_tickets: int = 5
    max_private_tables: int = 10

    @classmethod
    def from_env(cls) -> CallerRules:
        """``MM_RATED_REQUIRES_VERIFIED``, ``MM_MAX_OPEN_TICKETS``,
        ``MM_MAX_PRIVATE_TABLES`` (0 turns a limit off)."""
        flag = os.environ.get("MM_RATED_REQUIRES_VERIFIED", "").strip().lower()
        return cls(
            rated_requires_verified=flag in {"1", "true", "yes", "on"},
            max_open_tickets=int(os.environ.get("MM_MAX_OPEN_TICKETS", "") or 5),
            max_private_tables=int(os.environ.get("MM_MAX_PRIVATE_TABLES", "") or 10),
        )


class Callers:
    """The checks the matchmaker's servicer makes before and after the engine."""

    def __init__(
        self, verifier: Verifier, rules: CallerRules, client: Any, open_retry_ms: int
    ) -> None:
        self.verifier = verifier
        self.rules = rules
        self.client = client
        self.open_retry_ms = max(open_retry_ms, 1)
        self.tables = Limiter(
            client,
            "private_tables",
            "ERROR_REASON_LIMIT_PRIVATE_TABLES",
            rules.max_private_tables,
            int(verifier.settings.limit_window_seconds * 1000),
        )

    async def caller(self, context: Any) -> Identity | None:
        """The verified caller (None: anonymous, where allowed)."""
        return await self.verifier.require(context)

    def check_enqueue(
        self,
        identity: Identity | None,
        party: Sequence[tuple[str, str]],
        table: Sequence[TableSeat],
    ) -> None:
        """Refuse a ticket the caller may not state (before anything is stored)."""
        humans = humans_of(party, table)
        if self.rules.rated_requires_verified and humans:
            if identity is None or identity.guest:
                raise id_errors.verified_required("a rated game")
            others = sorted(humans - {identity.subject})
            if others:
                raise id_errors.identity_mismatch("party.player_id", others[0], identity.subject)
        if identity is None:
            return
        owner = owner_of(party, table)
        if owner and owner != identity.subject:
            field = "party[0].player_id" if party else "table.seats.player_id"
            raise id_errors.identity_mismatch(field, owner, identity.subject)

    def check_owner(self, identity: Identity | None, record: TicketRecord) -> None:
        """Refuse a caller that does not own ``record``."""
        if identity is None:
            return
        owner = owner_of(record.data.party, record.data.table)
        if owner and owner != identity.subject:
            raise id_errors.identity_mismatch("ticket_id", record.data.ticket_id, identity.subject)

    async def check_limits(self, identity: Identity | None, private: bool, status_of: Any) -> None:
        """The per-identity limits of one Enqueue; ``status_of(ticket_id)``
        gives a ticket's status (None when forgotten)."""
        if identity is None:
            return
        if self.rules.max_open_tickets > 0:
            key = open_tickets_key(identity.subject)
            stored = await self.client.smembers(key)
            members = [m.decode() if isinstance(m, bytes) else m for m in stored]
            closed = []
            for ticket_id in members:
                if await status_of(ticket_id) not in OPEN_STATUSES:
                    closed.append(ticket_id)
            if closed:
                await self.client.srem(key, *closed)
            if len(members) - len(closed) >= self.rules.max_open_tickets:
                raise id_errors.limited(
                    "ERROR_REASON_LIMIT_OPEN_TICKETS",
                    "open_tickets",
                    self.open_retry_ms,
                    f"at most {self.rules.max_open_tickets} open tickets per identity",
                )
        if private:
            await self.tables.hit(identity.subject)

    async def opened(self, identity: Identity | None, record: TicketRecord) -> None:
        """Remember a ticket the caller just opened."""
        if identity is None or self.rules.max_open_tickets <= 0:
            return
        key = open_tickets_key(identity.subject)
        await self.client.sadd(key, record.data.ticket_id)
        await self.client.expire(key, 86_400)

"""The matching policy: pure functions over queued tickets (no I/O).

Tickets are considered oldest first (first come, first served). The oldest
ticket not yet placed is the *anchor*; its rating window is
``min(base + per_second * waited_seconds, max)`` OpenSkill mu units and widens
as it waits. Other tickets join the anchor's group, in queue order, when they

* asked for the same options (canonical JSON) and accept the player count,
* have a party rating within the anchor's window of the anchor's rating,
* still fit (parties are never split),
* share no player id with the group (one identity never takes two seats).

For each acceptable count of the anchor, largest first, a group that fills
every seat with humans is a match. When none fills and the anchor allows bots
and has waited its bot-fill delay, the group of bot-allowing tickets with the
most humans (ties: the smallest count) is matched and bots take the rest.
A ticket that cannot anchor a match yet never blocks younger ones.

A private table (``QueuedTicket.private``) is a match of its own, with bots
in its ``table_bots`` seats, and never joins another ticket's group. The
Enqueue call that queued it seats it itself; a pass proposes it only once it
has waited ``PRIVATE_HANDOFF_MS`` (that call failed, or its process died).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: How long a private table is left to the Enqueue call that queued it.
PRIVATE_HANDOFF_MS = 1000


@dataclass(frozen=True, slots=True)
class QueuedTicket:
    """What matching needs to know about one queued ticket."""

    ticket_id: str
    seq: int
    enqueued_ms: int
    counts: tuple[int, ...]
    options: str
    size: int
    rating: float
    bots: bool = False
    bot_after_ms: int = 0
    #: A private table: its only count is its number of seats.
    private: bool = False
    #: Seats of a private table played by bots.
    table_bots: int = 0
    #: The player ids of its party: a group never holds one of them twice.
    players: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class WindowPolicy:
    """How the rating window widens with waiting time."""

    base: float = 3.0
    per_second: float = 1.0
    maximum: float = 50.0

    def window(self, waited_ms: int) -> float:
        """The window of a ticket that has waited ``waited_ms``."""
        return min(self.base + self.per_second * max(waited_ms, 0) / 1000.0, self.maximum)


@dataclass(frozen=True, slots=True)
class Proposal:
    """A group of tickets to seat in one game of ``players`` seats; ``bots`` are filled by bots."""

    tickets: tuple[QueuedTicket, ...]
    players: int
    bots: int = 0

    @property
    def humans(self) -> int:
        """Seats taken by the tickets' parties."""
        return sum(t.size for t in self.tickets)


def _group(
    anchor: QueuedTicket,
    queue: Sequence[QueuedTicket],
    used: set[str],
    count: int,
    window: float,
    need_bots: bool,
) -> list[QueuedTicket]:
    group = [anchor]
    seats = anchor.size
    seated = set(anchor.players)
    for other in queue:
        if seats == count:
            break
        if other.ticket_id in used or other is anchor or other.private:
            continue
        if other.options != anchor.options or count not in other.counts:
            continue
        if need_bots and not other.bots:
            continue
        if abs(other.rating - anchor.rating) > window:
            continue
        if not seated.isdisjoint(other.players):
            continue
        if seats + other.size <= count:
            group.append(other)
            seats += other.size
            seated.update(other.players)
    return group


def propose(
    queue: Sequence[QueuedTicket],
    now_ms: int,
    policy: WindowPolicy,
    refused: Iterable[tuple[int, str]] = (),
) -> list[Proposal]:
    """Matches to claim now, oldest anchors first; no ticket appears twice.

    ``queue`` is in FCFS order. ``refused`` lists (player count, options)
    combinations the game service rejected; they are never proposed.
    """
    blocked = set(refused)
    used: set[str] = set()
    out: list[Proposal] = []
    for anchor in queue:
        if anchor.ticket_id in used:
            continue
        if anchor.private:
            (count,) = anchor.counts
            handed_off = now_ms - anchor.enqueued_ms >= PRIVATE_HANDOFF_MS
            if handed_off and (count, anchor.options) not in blocked:
                used.add(anchor.ticket_id)
                out.append(Proposal((anchor,), count, bots=anchor.table_bots))
            continue
        waited = now_ms - anchor.enqueued_ms
        window = policy.window(waited)
        counts = sorted(
            (
                c
                for c in set(anchor.counts)
                if c >= anchor.size and (c, anchor.options) not in blocked
            ),
            reverse=True,
        )
        proposal: Proposal | None = None
        for count in counts:
            group = _group(anchor, queue, used, count, window, need_bots=False)
            if sum(t.size for t in group) == count:
                proposal = Proposal(tuple(group), count)
                break
        if proposal is None and anchor.bots and waited >= anchor.bot_after_ms and counts:
            best: tuple[int, int, list[QueuedTicket]] | None = None
            for count in sorted(counts):
                group = _group(anchor, queue, used, count, window, need_bots=True)
                humans = sum(t.size for t in group)
                if best is None or humans > best[0]:
                    best = (humans, count, group)
            assert best is not None
            humans, count, group = best
            proposal = Proposal(tuple(group), count, bots=count - humans)
        if proposal is not None:
            used.update(t.ticket_id for t in proposal.tickets)
            out.append(proposal)
    return out


def failed_tickets(
    queue: Sequence[QueuedTicket], refused: Iterable[tuple[int, str]]
) -> list[QueuedTicket]:
    """Tickets every one of whose acceptable counts the game service refused."""
    blocked = set(refused)
    if not blocked:
        return []
    return [t for t in queue if all((c, t.options) in blocked for c in t.counts if c >= t.size)]

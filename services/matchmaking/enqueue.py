"""An Enqueue request in plain values, and the checks it passes before it is queued."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from roost.common.v1 import common_pb2

from services.core.lifecycle.timecontrol import TimeControlError, from_proto
from services.matchmaking import errors
from services.matchmaking.games import OptionsError
from services.matchmaking.tables import TableSeat, check_table

TICKET_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
PLAYER_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,64}$")
MAX_PARTY = 16
MAX_PLAYERS = 16


@dataclass(frozen=True, slots=True)
class EnqueueInput:
    """A validated-to-be Enqueue request in plain values."""

    ticket_id: str
    game: str
    counts: tuple[int, ...]
    options_json: str
    party: tuple[tuple[str, str], ...]
    bots: bool
    bot_after_ms: int
    bot_kind: str
    #: A private table's seats in seat order; None: an ordinary ticket.
    table: tuple[TableSeat, ...] | None = None
    #: The game's time control (None: untimed).
    time_control: common_pb2.TimeControl | None = None


def validate_enqueue(req: EnqueueInput, endpoint: Any) -> tuple[str, str, tuple[int, ...]]:
    """The ticket id (a new one when none is given), the canonical options and
    the player counts of a valid Enqueue; INVALID_ARGUMENT naming the field."""
    ticket_id = req.ticket_id or uuid.uuid4().hex
    if not TICKET_ID.match(ticket_id):
        raise errors.invalid("ticket_id", "8-64 letters, digits, '-' or '_'")
    if not req.party and req.table is None:
        raise errors.invalid("party", "at least one player")
    if len(req.party) > MAX_PARTY:
        raise errors.invalid("party", f"at most {MAX_PARTY} players")
    ids = [p for p, _ in req.party]
    for player_id, name in req.party:
        if not PLAYER_ID.match(player_id):
            raise errors.invalid("party.player_id", "1-64 letters, digits or '-_.:@'")
        if len(name) > 64:
            raise errors.invalid("party.name", "at most 64 characters")
    if len(set(ids)) != len(ids):
        raise errors.invalid("party.player_id", "each player at most once per party")
    if req.table is not None:
        check_table(req.table, ids, endpoint.min_players, endpoint.max_players)
        if req.counts and set(req.counts) != {len(req.table)}:
            raise errors.invalid("player_counts", "empty or the table's number of seats")
        if req.bots:
            raise errors.invalid("bot_fill", "leave unset: a table names its bots")
    counts = tuple(sorted(set(req.counts))) or (len(req.party),)
    if req.table is not None:
        counts = (len(req.table),)
    if any(c < 1 or c > MAX_PLAYERS for c in counts):
        raise errors.invalid("player_counts", f"each count between 1 and {MAX_PLAYERS}")
    if any(c < len(req.party) for c in counts):
        raise errors.invalid("player_counts", "each count must seat the whole party")
    if req.bot_after_ms < 0:
        raise errors.invalid("bot_fill.after_ms", "must not be negative")
    try:
        if req.time_control is not None:
            from_proto(req.time_control)  # the game service's rules, checked at once
        options = endpoint.canonical_options(req.options_json, req.time_control)
    except OptionsError as exc:
        raise errors.invalid_options(str(exc)) from exc
    except TimeControlError as exc:
        raise errors.invalid(f"time_control.{exc.field_name}", exc.message) from exc
    return ticket_id, options, counts

"""Private tables: a seat plan given by the client instead of a drawn one.

A private table names who takes every seat, in seat order: a member of the
ticket's party (by player id) or a house bot of some kind. Its ticket is
never matched with other tickets; its game is created at once with exactly
that plan. The rules checked here:

* the number of seats is one the game supports (registry min..max players);
* every party member takes exactly one seat, and only party members do;
* a bot seat may carry a display name (at most 64 characters), a person's
  seat may not (it takes the person's name from the party);
* a table of bots only (no party) is allowed: a game to watch, not rated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.matchmaking import bots, errors

MAX_NAME = 64


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat of a private table: ``player_id`` (a party member) or ``bot_kind``."""

    player_id: str = ""
    bot_kind: str = ""
    name: str = ""

    @property
    def is_bot(self) -> bool:
        """True when a house bot plays this seat."""
        return bool(self.bot_kind)

    def to_json(self) -> dict[str, str]:
        """The stored form: ``{"p": id}`` or ``{"b": kind, "n": name}``."""
        if self.is_bot:
            return {"b": self.bot_kind, "n": self.name}
        return {"p": self.player_id}

    @classmethod
    def from_json(cls, raw: dict[str, str]) -> TableSeat:
        """Inverse of :meth:`to_json`."""
        if "b" in raw:
            return cls(bot_kind=raw["b"], name=raw.get("n", ""))
        return cls(player_id=raw["p"])


def check_table(
    seats: Sequence[TableSeat], party_ids: Sequence[str], min_players: int, max_players: int
) -> None:
    """Raise INVALID_ARGUMENT (naming the field) unless ``seats`` is a valid plan."""
    if not min_players <= len(seats) <= max_players:
        raise errors.invalid(
            "table.seats",
            f"{len(seats)} seats; this game seats {min_players} to {max_players} players",
        )
    members = set(party_ids)
    seated: dict[str, int] = {}
    for number, seat in enumerate(seats):
        field = f"table.seats[{number}]"
        if seat.is_bot:
            if seat.bot_kind not in bots.KINDS:
                raise errors.invalid(f"{field}.bot", f"unknown bot kind {seat.bot_kind}")
            if len(seat.name) > MAX_NAME:
                raise errors.invalid(f"{field}.name", f"at most {MAX_NAME} characters")
            continue
        if seat.name:
            raise errors.invalid(f"{field}.name", "a party member's seat takes the party name")
        if seat.player_id not in members:
            raise errors.invalid(
                f"{field}.player_id", f"{seat.player_id!r} is not a member of the party"
            )
        if seat.player_id in seated:
            raise errors.invalid(
                f"{field}.player_id",
                f"{seat.player_id!r} already sits in seat {seated[seat.player_id]}",
            )
        seated[seat.player_id] = number
    missing = [p for p in party_ids if p not in seated]
    if missing:
        raise errors.invalid("table.seats", f"party members without a seat: {', '.join(missing)}")


def bot_count(seats: Sequence[TableSeat]) -> int:
    """Seats played by house bots."""
    return sum(1 for s in seats if s.is_bot)


def seat_people(
    seats: Sequence[TableSeat], party: Sequence[tuple[str, str]], ticket_id: str
) -> list[dict[str, Any]]:
    """Who sits where, in seat order, in the form the matchmaker's match record uses."""
    names = dict(party)
    people: list[dict[str, Any]] = []
    bots_seen = 0
    for seat in seats:
        if seat.is_bot:
            bots_seen += 1
            people.append(
                {
                    "player_id": bots.player_id(seat.bot_kind),
                    "name": seat.name or f"{seat.bot_kind.title()} bot {bots_seen}",
                    "bot": True,
                    "kind": seat.bot_kind,
                }
            )
        else:
            people.append(
                {
                    "player_id": seat.player_id,
                    "name": names[seat.player_id],
                    "bot": False,
                    "ticket_id": ticket_id,
                }
            )
    return people

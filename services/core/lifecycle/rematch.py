"""Rematch: a new game with the same seats, rotated, from a finished game.

* The new game's id is fixed by the old one (:func:`rematch_id`), so every
  seat's call names the same game and two calls can never create two.
* Seat order rotates by one: old seat ``s`` sits at ``(s - 1) mod players``,
  so the first seat changes. Options, player count, seat names and the time
  control are kept; the seed is new.
* Each seat's new token is derived from its old one (:func:`rematch_token`):
  only the holder of the old token can learn it, the server stores only its
  hash, and it is the same on every call (a seat that accepted early learns it
  again from a later call, or computes nothing: the reply always carries it).
* Acceptances are a hash beside the old game (``roost:{old id}:rematch``,
  seat -> the hash of its new token). The game is created once every seat of
  :func:`required_seats` has accepted: every seat that did not leave the old
  game, or every seat when fewer than two stayed (a game ended by a
  resignation or a forfeit needs the leaver's acceptance too). A seat that
  left may accept and plays itself; one that left and did not accept is
  played by the house bot in the rematch from its first decision.
"""

from __future__ import annotations

import base64
import hmac

from services.core.lifecycle import slots
from services.core.lifecycle.record import Life


def required_seats(life: Life) -> list[int]:
    """The old game's seats whose acceptance starts the rematch (see above)."""
    stayed = life.active_seats()
    return stayed if len(stayed) >= 2 else list(range(len(life.clocks)))


def rematch_id(game_id: str, cluster: bool = False) -> str:
    """The id of ``game_id``'s rematch (24 hex digits, like every game id; on a
    cluster in a slot with a deadline bucket, :mod:`.slots`)."""
    return slots.derived_game_id(f"rematch:{game_id}", cluster)


def rematch_token(old_token: str, new_game_id: str) -> str:
    """A seat's token in the rematch, derived from its token in the old game."""
    digest = hmac.new(old_token.encode(), f"rematch:{new_game_id}".encode(), "sha256").digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def new_seat(old_seat: int, players: int) -> int:
    """Where old seat ``old_seat`` sits in the rematch."""
    return (old_seat - 1) % players


def old_seat(new: int, players: int) -> int:
    """Which old seat sits at ``new`` in the rematch."""
    return (new + 1) % players


def rematch_key(game_id: str) -> str:
    """Key of the acceptances of ``game_id``'s rematch (the old game's hash tag)."""
    return f"roost:{{{game_id}}}:rematch"

"""Every Redis key of the matchmaker, under ``roost:mm:``.

All keys of one game's queue share the hash tag ``{<game>}`` so each Lua
script touches a single Redis Cluster slot:

===============================  ======  ==============================================
key                              type    holds
===============================  ======  ==============================================
``roost:mm:{g}:t:<ticket>``      hash    ``data`` (immutable JSON), ``status``, ``seq``,
                                         ``hb`` (expiry ms), ``match``, ``assignment``,
                                         ``error``
``roost:mm:{g}:seq``             string  FCFS counter
``roost:mm:{g}:queue``           zset    queued ticket ids by FCFS sequence
``roost:mm:{g}:hb``              zset    queued ticket ids by heartbeat expiry (ms)
``roost:mm:{g}:pending``         zset    claimed match ids by assignment deadline (ms)
``roost:mm:{g}:notify``          stream  ``t`` ticket id, ``s`` new status (capped)
``roost:mm:{g}:m:<match>``       hash    ``record`` (JSON: game id, seats, bot tokens)
``roost:mm:{g}:live``            set     match ids whose games are still running
``roost:mm:{g}:lease:<match>``   string  id of the process supervising that game
``roost:mm:{g}:refused``         hash    ``<count>|<options>`` -> why NewGame refused it
``roost:mm:{g}:ratings``         hash    player id -> rating JSON (mu, sigma, games, wins)
``roost:mm:{g}:board``           zset    player id by ordinal (mu - 3 sigma)
``roost:mm:{g}:rated:<game_id>`` string  marker: that game's result was rated
``roost:mm:tix:{<ticket>}``      string  the game a ticket id belongs to
===============================  ======  ==============================================
"""

from __future__ import annotations

PREFIX = "roost:mm"


def _g(game: str) -> str:
    return f"{PREFIX}:{{{game}}}"


def ticket(game: str, ticket_id: str) -> str:
    """The ticket hash."""
    return f"{_g(game)}:t:{ticket_id}"


def seq(game: str) -> str:
    """The FCFS counter."""
    return f"{_g(game)}:seq"


def queue(game: str) -> str:
    """Queued ticket ids by FCFS sequence."""
    return f"{_g(game)}:queue"


def heartbeats(game: str) -> str:
    """Queued ticket ids by heartbeat expiry."""
    return f"{_g(game)}:hb"


def pending(game: str) -> str:
    """Claimed, not yet assigned matches by deadline."""
    return f"{_g(game)}:pending"


def notify(game: str) -> str:
    """Stream of ticket status changes."""
    return f"{_g(game)}:notify"


def match(game: str, match_id: str) -> str:
    """A match record."""
    return f"{_g(game)}:m:{match_id}"


def live(game: str) -> str:
    """Matches whose games are running."""
    return f"{_g(game)}:live"


def lease(game: str, match_id: str) -> str:
    """The supervising process of a match."""
    return f"{_g(game)}:lease:{match_id}"


def refused(game: str) -> str:
    """Player count and options combinations the game service refused."""
    return f"{_g(game)}:refused"


def ratings(game: str) -> str:
    """Ratings hash."""
    return f"{_g(game)}:ratings"


def board(game: str) -> str:
    """Leaderboard zset."""
    return f"{_g(game)}:board"


def rated(game: str, game_id: str) -> str:
    """Marker of a rated game."""
    return f"{_g(game)}:rated:{game_id}"


def ticket_index(ticket_id: str) -> str:
    """Which game a ticket id belongs to (its own slot)."""
    return f"{PREFIX}:tix:{{{ticket_id}}}"

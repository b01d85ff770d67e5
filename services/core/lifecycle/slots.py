"""Where a game's deadline entry lives on Redis Cluster.

A version's write script must write the game's entry in a deadline set, and a
script on a cluster may only touch keys of one slot. So on a cluster the
deadline set is split into :data:`BUCKETS` sets, each pinned to one slot by
its hash tag (``roost:deadlines:<game>:{d<n>}``), and the server draws every
game id so that the game's keys (tag ``{<game id>}``) fall in one of those
slots: the game's writes and its deadline entry share a slot, and every
replica polls the :data:`BUCKETS` sets of its game. A game id in no bucket's
slot (an id drawn before this scheme) has no deadline entry on a cluster.

On a single Redis nothing changes: one set per game (``roost:deadlines:<game>``)
and ids as drawn.
"""

from __future__ import annotations

import hashlib
import secrets

from redis.crc import key_slot

#: Deadline sets per game type on a cluster (each in its own slot).
BUCKETS = 64


def _bucket_tags() -> dict[int, str]:
    """Slot -> the hash tag of the bucket pinned to it (:data:`BUCKETS` distinct slots)."""
    tags: dict[int, str] = {}
    n = 0
    while len(tags) < BUCKETS:
        tags.setdefault(key_slot(f"d{n}".encode()), f"d{n}")
        n += 1
    return tags


#: Slot -> bucket tag.
TAGS = _bucket_tags()


def single_key(game: str) -> str:
    """The deadline set of ``game`` on a single Redis."""
    return f"roost:deadlines:{game}"


def bucket_keys(game: str) -> list[str]:
    """Every deadline set of ``game`` on a cluster (the poller reads them all)."""
    return [f"roost:deadlines:{game}:{{{tag}}}" for tag in TAGS.values()]


def bucket_key(game: str, game_id: str) -> str | None:
    """The cluster deadline set in ``game_id``'s slot (None: the id is in no bucket's slot)."""
    tag = TAGS.get(key_slot(game_id.encode()))
    return None if tag is None else f"roost:deadlines:{game}:{{{tag}}}"


def placed(candidate: str, cluster: bool) -> bool:
    """True when ``candidate`` can have a deadline entry (always on a single Redis)."""
    return not cluster or key_slot(candidate.encode()) in TAGS


def new_game_id(cluster: bool) -> str:
    """A new game id of 24 hex digits; on a cluster one whose slot has a bucket
    (80 random bits and a 16-bit suffix searched for the slot)."""
    if not cluster:
        return secrets.token_hex(12)
    while True:
        prefix = secrets.token_hex(10)
        for suffix in range(1 << 16):
            candidate = f"{prefix}{suffix:04x}"
            if placed(candidate, cluster):
                return candidate


def derived_game_id(seed: str, cluster: bool) -> str:
    """The first of the ids derived from ``seed`` (24 hex digits of SHA-256) that
    is :func:`placed`: the same for every caller, so derived ids (a rematch's)
    never name two games."""
    candidate = hashlib.sha256(seed.encode()).hexdigest()[:24]
    n = 0
    while not placed(candidate, cluster):
        n += 1
        candidate = hashlib.sha256(f"{seed}:{n}".encode()).hexdigest()[:24]
    return candidate

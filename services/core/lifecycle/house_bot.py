"""The house bot: the decision the server makes for a seat that timed out or left.

Deterministic and secret-safe: it picks uniformly among the seat's legal
actions with the project's seeded generator, seeded from the game id, the
version and the seat only, so every replica that fires the same expiry picks
the same action, and the choice reveals nothing hidden (the legal list is the
seat's own).
"""

from __future__ import annotations

import hashlib

from services.core.engine import Action, Rng


def seed_for(game_id: str, version: int, seat: int) -> int:
    """The generator seed of the house bot's decision at ``version`` for ``seat``."""
    digest = hashlib.sha256(f"house-bot:{game_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(game_id: str, version: int, seat: int, legal: list[Action]) -> Action:
    """The house bot's action among ``legal`` (which must not be empty)."""
    if not legal:
        raise ValueError("the house bot needs at least one legal action")
    return Rng(seed_for(game_id, version, seat)).choice(legal)

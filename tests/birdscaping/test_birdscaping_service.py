"""Birdscaping through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for solo and 2 players.
Secrets: the deck order, the other seat's hand, the generator state.
"""

from __future__ import annotations

from typing import Any

from services.birdscaping.service import SPEC
from tests.service_contract import ServiceContract


class TestBirdscapingService(ServiceContract):
    """Birdscaping issue: the complete game as a service."""

    spec = SPEC
    player_counts = (1, 2)
    full_games_per_count = 2
    preview_is_exact = False

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """The deck order and every other seat's hand."""
        return [list(state.deck)] + [
            list(hand) for seat, hand in enumerate(state.hands) if seat != reader
        ]

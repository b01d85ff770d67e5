"""Under the Leaves through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for 2, 3 and 4 players.
Secrets: the bag order and the generator state.
"""

from __future__ import annotations

from typing import Any

from services.undertheleaves.service import SPEC
from tests.service_contract import ServiceContract


class TestUnderTheLeavesService(ServiceContract):
    """Platform issue: Under the Leaves end to end."""

    spec = SPEC
    player_counts = (2, 3, 4)

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """The bag order must never be visible."""
        return [list(state.bag)]

    def test_options_reach_the_engine(self, client: Any) -> None:
        """Options: first-game dwellers and an explicit card set are applied."""
        created = client.new_game(2, seed=5, dwellers="first_game", allow_flip=False)
        names = {card.name for card in created.view.dweller_cards}
        assert names == {"Thoughtful", "Diver", "Host"}

"""Under the Leaves through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for 2, 3 and 4 players.
Secrets: the bag order and the generator state.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from undertheleaves_builder import with_other_bag

from services.undertheleaves.service import SPEC
from tests.harness import game_server
from tests.service_contract import ServiceContract
from tests.stored_previews import previews_of_stored


class TestUnderTheLeavesService(ServiceContract):
    """Platform issue: Under the Leaves end to end."""

    spec = SPEC
    player_counts = (2, 3, 4)
    catalogue_refs: ClassVar[dict[str, str]] = {
        "tile": "tiles",
        "taken_tile": "tiles",
        "DwellerCard.id": "dwellers",
        "card": "dwellers",
        "pending_card": "dwellers",
    }

    def expected_assumed(self) -> dict[str, set[Any]]:
        """Nothing: tiles and dweller cards are sourced from the BGA port (data/README.md)."""
        return {}

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """The bag order must never be visible."""
        return [list(state.bag)]

    def test_options_reach_the_engine(self, client: Any) -> None:
        """Options: first-game dwellers and an explicit card set are applied."""
        created = client.new_game(2, seed=5, dwellers="first_game", allow_flip=False)
        names = {card.name for card in created.view.dweller_cards}
        assert names == {"Thoughtful", "Diver", "Host"}

    def test_previews_ignore_the_bag(
        self, client: Any, raw_redis: Any, redis_server_url: str
    ) -> None:
        """Legal(with_score_preview) through the service: two stored games that differ only
        in the bag (its order, which tiles it holds) and the generator give identical
        previews (the previews run on Engine.determinize's sample)."""
        created = client.new_game(3, seed=23)
        tokens = {c.seat: c.token for c in created.credentials}
        chooser = random.Random(2)
        version, seat = created.version, created.to_act[0]
        for _ in range(13):  # six turns and a tile taken: the next decision places it
            legal = client.legal(created.game_id, tokens[seat]).actions
            reply = client.apply(
                created.game_id, tokens[seat], version, chooser.randrange(len(legal))
            )
            version, seat = reply.version, reply.to_act[0]
        state = self.engine_state(raw_redis, created.game_id)
        assert state.phase == "place_tile"
        other = with_other_bag(state, shift=5)
        assert set(other.bag) != set(state.bag)
        first, _ = previews_of_stored(SPEC, redis_server_url, created.game_id, state, tokens[seat])
        second, _ = previews_of_stored(SPEC, redis_server_url, created.game_id, other, tokens[seat])
        assert first == second and len({score for _, score in first}) > 1
        # The second replica played on the stored variant: placing the tile refills the
        # market from the variant's bag.
        with game_server(SPEC, redis_server_url) as replica:
            fresh = type(client)(replica, SPEC)
            reply = fresh.apply(created.game_id, tokens[seat], version, action_id=0)
            fresh.channel.close()
        assert reply.view.market[-1].tile == other.bag[-1] != state.bag[-1]

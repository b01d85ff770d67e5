"""Sky Garden through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for 1 to 4 players, plus
the secret Event card choice: no other seat and no spectator learns a seat's
dealt or kept Event card before the end.
"""

from __future__ import annotations

from typing import Any

from services.skygarden.service import SPEC
from tests.service_contract import Client, ServiceContract


class TestSkyGardenService(ServiceContract):
    """Sky Garden issue: the complete game as a service, 1 to 4 players."""

    spec = SPEC
    player_counts = (1, 2, 3, 4)
    preview_is_exact = False

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """Sky Garden's only secrets are the Event cards (checked below) and the generator."""
        return []

    def test_event_cards_stay_secret_until_the_end(self, client: Client) -> None:
        """Setup: 2 Event cards dealt, keep 1, simultaneously and secretly."""
        created = client.new_game(3, seed=8)
        tokens = {c.seat: c.token for c in created.credentials}
        assert sorted(created.to_act) == [0, 1, 2], "all seats choose at once"
        version = created.version
        for seat in (2, 0):
            legal = client.legal(created.game_id, tokens[seat]).actions
            assert {a.ref.kind for a in legal} == {"keep_event"}
            reply = client.apply(created.game_id, tokens[seat], version, action_id=0)
            version = reply.version
            assert reply.event.seat == seat
        for reader in (None, 0, 1, 2):
            token = tokens.get(reader) if reader is not None else None
            view = client.state(created.game_id, token).view
            for seat, player in enumerate(view.seats):
                if seat != reader:
                    assert player.event_card == ""
                    assert list(player.dealt_events) == []
            for entry in client.log(created.game_id, token).entries[1:]:
                if entry.event.seat != reader:
                    assert entry.event.redacted
                    assert not entry.HasField("action")

"""Birdscaping through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for solo and 2 players.
Secrets: the deck order, the other seat's hand, the generator state.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from birdscaping_helpers import same_game_other_secrets

from services.birdscaping.rules.cards import RAW_CARDS
from services.birdscaping.service import SPEC
from tests.service_contract import ServiceContract
from tests.stored_previews import previews_of_stored


class TestBirdscapingService(ServiceContract):
    """Birdscaping issue: the complete game as a service."""

    spec = SPEC
    player_counts = (1, 2)
    full_games_per_count = 2
    preview_is_exact = False
    catalogue_refs: ClassVar[dict[str, str]] = {
        name: "cards"
        for name in (
            "card", "hand", "offer", "discard_pile", "ai_column", "pending_discards",
            "set_aside", "looked", "draft_packet", "activation_queue", "ability_card",
        )
    }  # fmt: skip

    def expected_assumed(self) -> dict[str, set[Any]]:
        """Every card: no public card list exists (data/README.md)."""
        cards = RAW_CARDS["cards"]
        assert all("assumed" in c["source"] for c in cards)
        return {"cards": {c["id"] for c in cards}}

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """The deck order and every other seat's hand."""
        return [list(state.deck)] + [
            list(hand) for seat, hand in enumerate(state.hands) if seat != reader
        ]

    def test_previews_ignore_what_the_seat_cannot_see(
        self, client: Any, raw_redis: Any, redis_server_url: str
    ) -> None:
        """Legal(with_score_preview) through the service: two stored games that differ only
        in what the asking seat cannot see (the deck, the other hand, the generator) give
        identical previews (the previews run on Engine.determinize's sample). A total after
        one decision comes from tableaus only, so this pins the service's path (stored state,
        fresh replicas, the seed of the sample); test_birdscaping_hidden checks the sample."""
        created = client.new_game(2, seed=61)
        tokens = {c.seat: c.token for c in created.credentials}
        chooser = random.Random(5)
        version, to_act = created.version, list(created.to_act)
        for _ in range(30):  # into the play phase
            seat = chooser.choice(to_act)
            legal = client.legal(created.game_id, tokens[seat]).actions
            reply = client.apply(
                created.game_id, tokens[seat], version, chooser.randrange(len(legal))
            )
            version, to_act = reply.version, list(reply.to_act)
        state = self.engine_state(raw_redis, created.game_id)
        seat = to_act[0]
        assert state.phase == "play"
        other = same_game_other_secrets(state, seat, shift=2)
        assert other.hands[1 - seat] != state.hands[1 - seat] and other.deck != state.deck
        first, first_view = previews_of_stored(
            SPEC, redis_server_url, created.game_id, state, tokens[seat], tokens[1 - seat]
        )
        second, second_view = previews_of_stored(
            SPEC, redis_server_url, created.game_id, other, tokens[seat], tokens[1 - seat]
        )
        assert first == second and len(first) > 1
        # Each replica read the state it was given: the other seat's hand tells them apart.
        assert first_view.seats[1 - seat].hand != second_view.seats[1 - seat].hand
        # A third replica reading the first state again previews the same: the sample's
        # seed depends only on the game, the version and the seat.
        again, _ = previews_of_stored(SPEC, redis_server_url, created.game_id, state, tokens[seat])
        assert again == first

    def test_a_secret_draft_keep_leaves_no_trace_through_the_service(self, client: Any) -> None:
        """The Initial Draft through the service: two games from one seed in which seat 0
        keeps different cards look the same to seat 1 and to a spectator until the packets
        are passed: GetState, GetLog and Watch (times aside) and seat 1's Legal."""

        def seen(game_id: str, token: str | None) -> list[Any]:
            state = client.state(game_id, token)
            state.game_id = ""
            log = client.log(game_id, token)
            for entry in log.entries:
                entry.event.time_ms = 0
            stream = client.watch(game_id, token, from_version=0)
            events = [next(stream).event for _ in range(state.version)]
            stream.cancel()
            for event in events:
                event.time_ms = 0
            out = [state, log, events]
            if token is not None:
                out.append([(a.ref, a.action) for a in client.legal(game_id, token).actions])
            return out

        games = []
        for choice in (0, 2):
            created = client.new_game(2, seed=404)
            tokens = {c.seat: c.token for c in created.credentials}
            client.apply(created.game_id, tokens[0], created.version, action_id=choice)
            games.append((created.game_id, tokens))
        (first, tokens_a), (second, tokens_b) = games
        assert seen(first, tokens_a[1]) == seen(second, tokens_b[1])
        assert seen(first, None) == seen(second, None)
        own = [client.state(g, t[0]).view.seats[0].hand for g, t in games]
        assert own[0] != own[1]  # the keeps did differ, as seat 0 sees
        label = client.log(first, tokens_a[1]).entries[-1].event
        assert label.redacted and label.label == "Seat 0 kept a card" and not label.kind

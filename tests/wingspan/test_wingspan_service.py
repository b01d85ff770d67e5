"""Wingspan through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for 2 to 5 players.
Secrets: the bird and bonus decks, other seats' hands and bonus cards, the
generator state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import redis
from wingspan_helpers import owl_decision

from services.core.store import game_key
from services.wingspan.service import SPEC
from tests.harness import game_server
from tests.service_contract import Client, ServiceContract

DATA = Path(__file__).resolve().parents[2] / "services" / "wingspan" / "rules" / "data"


class TestWingspanService(ServiceContract):
    """Wingspan issue: the complete game as a service, 2 to 5 players."""

    spec = SPEC
    player_counts = (2, 3, 4, 5)
    preview_is_exact = False
    catalogue_refs: ClassVar[dict[str, str]] = {
        "bird": "birds",
        "birds": "birds",
        "BonusCard.bonus": "bonus_cards",
        "KeepBonus.bonus": "bonus_cards",
        "RoundGoal.goal_id": "goals",
    }

    def expected_assumed(self) -> dict[str, set[Any]]:
        """The three bonus ladders the data README names as assumed; nothing else."""
        data = json.loads((DATA / "bonus_cards.json").read_text())["bonus_cards"]
        ladders = {"Backyard Birder", "Photographer", "Anatomist"}
        return {"bonus_cards": {i for i, c in enumerate(data) if c["name"] in ladders}}

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """Deck orders, and every other seat's hand and bonus cards."""
        secrets = [list(state.bird_deck), list(state.bonus_deck)]
        for seat in range(state.players):
            if seat != reader:
                secrets.append(list(state.hands[seat]))
                secrets.append(list(state.bonus_cards[seat]))
        return secrets

    def test_options_reach_the_engine(self, client: Client) -> None:
        """Variants: the goal side and the deck options are applied."""
        created = client.new_game(2, seed=3, goal_side="blue", swift_start=True)
        assert created.view.options.goal_side == "blue"
        assert created.view.options.swift_start

    def test_setup_choices_are_simultaneous_and_secret(self, client: Client) -> None:
        """Setup: every seat keeps birds, food and a bonus card at once, in secret."""
        created = client.new_game(3, seed=4)
        assert sorted(created.to_act) == [0, 1, 2]
        tokens = {c.seat: c.token for c in created.credentials}
        reply = client.apply(created.game_id, tokens[2], created.version, action_id=0)
        for reader in (None, 0, 1):
            token = tokens.get(reader) if reader is not None else None
            entry = client.log(created.game_id, token).entries[-1]
            assert entry.event.redacted
            assert not entry.HasField("action")
        own = client.log(created.game_id, tokens[2]).entries[-1]
        assert not own.event.redacted
        assert reply.version == 2

    def test_score_previews_do_not_tell_hidden_information(
        self, client: Client, raw_redis: redis.Redis, redis_server_url: str
    ) -> None:
        """Hidden information in score previews, end to end: Legal with a score
        preview gives identical previews for stored games that differ only in
        hidden information. Each game waits on seat 0's choice to use Barred
        Owl (tuck the top card of the deck if its wingspan is under 75 cm);
        the stored state is written behind the service's back twice, once with
        a real top card that qualifies and once with one that does not, and
        each is read by a fresh service process (nothing cached)."""
        engine = self.spec.engine
        games = []
        for seed in range(8):
            created = client.new_game(2, seed=seed)
            games.append((created.game_id, created.credentials[0].token, seed))

        def previews(qualifies: bool) -> list[list[tuple[str, int]]]:
            for game_id, _, seed in games:
                state = engine.encode(owl_decision(seed, qualifies))
                raw_redis.hset(game_key(game_id), mapping={"version": 7, "state": state})
            out = []
            with game_server(self.spec, redis_server_url) as handle:
                fresh_client = Client(handle, self.spec)
                for game_id, token, _ in games:
                    legal = fresh_client.stub.Legal(
                        self.spec.messages.LegalRequest(game_id=game_id, with_score_preview=True),
                        metadata=fresh_client.md(token),
                    )
                    assert legal.version == 7
                    out.append([(a.ref.label, a.score_after) for a in legal.actions])
                fresh_client.channel.close()
            return out

        tucks = previews(True)
        assert [len(p) for p in tucks] == [2] * len(games)
        assert previews(False) == tucks

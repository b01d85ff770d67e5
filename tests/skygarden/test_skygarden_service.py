"""Sky Garden through the service: real gRPC sockets, a real Redis.

The whole service contract (tests/service_contract.py) for 1 to 4 players, plus
the secret Event card choice (no other seat and no spectator learns a seat's
dealt cards, nor its kept card before every seat has chosen) and score previews
that hide what is hidden.
"""

from __future__ import annotations

from typing import Any, ClassVar

import redis
from skygarden_helpers import hidden_variant

from services.core.store import game_key
from services.skygarden.rules import data as D
from services.skygarden.service import SPEC
from tests.service_contract import Client, ServiceContract


class TestSkyGardenService(ServiceContract):
    """Sky Garden issue: the complete game as a service, 1 to 4 players."""

    spec = SPEC
    player_counts = (1, 2, 3, 4)
    preview_is_exact = False
    catalogue_refs: ClassVar[dict[str, str]] = {
        **{
            name: "birds"
            for name in (
                "bird", "birds", "chip_bird", "nest_birds", "nest_box", "event_birds",
                "pending_bird", "bird_choice", "bonus_birds",
            )
        },
        "event_card": "event_cards",
        "dealt_events": "event_cards",
        "KeepEvent.card": "event_cards",
        "MilestoneSlot.tile": "milestones",
        "setup_card": "setup_cards",
        "Advertise.ad": "advertisements",
        "LineBonus.line": "line_bonuses",
    }  # fmt: skip
    #: The Nest Box's Golden Egg icon (SeatView.nest_box) is no bird.
    catalogue_non_ids = frozenset({"golden_egg"})

    def expected_assumed(self) -> dict[str, set[Any]]:
        """What the data files tag assumed: the Special Birds, Event cards, Milestone
        tiles and starting setup cards, and where each birdcage bonus sits."""
        return {
            "birds": set(D.SPC),
            "event_cards": set(D.EVENT_IDS),
            "milestones": set(D.TILE_IDS),
            "setup_cards": set(D.SETUP_IDS),
            "line_bonuses": set(D.LINE_NAMES),
        }

    def secret_sequences(self, state: Any, reader: int | None) -> list[list[Any]]:
        """Sky Garden's only secrets are the Event cards (checked below) and the generator."""
        return []

    def test_event_cards_stay_secret_while_seats_choose(self, client: Client) -> None:
        """Setup step 15: 2 Event cards dealt, keep 1, simultaneously and secretly:
        while seat 1 still chooses, nobody sees another seat's cards."""
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

    def _twin_games(self, client: Client, players: int, seed: int, decisions: int):
        """Two games with the same seed and the same first ``decisions`` decisions (the
        first legal action of the first seat asked each time): identical but for
        their ids. Returns both (game id, tokens) and the version reached."""
        games = []
        for _ in range(2):
            created = client.new_game(players, seed=seed)
            games.append((created.game_id, {c.seat: c.token for c in created.credentials}))
        version = created.version
        to_act = list(created.to_act)
        for _ in range(decisions):
            seat = min(to_act)
            for game_id, tokens in games:
                reply = client.apply(game_id, tokens[seat], version, action_id=0)
            version, to_act = reply.version, list(reply.to_act)
        return games, version

    def test_previews_identical_for_games_differing_only_in_hidden_information(
        self, client: Client, raw_redis: redis.Redis
    ) -> None:
        """Issue 14, Legal(with_score_preview) hides what is hidden: two stored games
        that differ only in what the asking seat cannot see (other seats' Event cards,
        secret or returned, the cards in the box, the generator) preview the same.
        The second game's state is written behind the service's back, as another
        replica would store a version."""
        engine = SPEC.engine
        # 2 decisions: seats 0 and 1 kept a card in secret, seat 2 chooses last;
        # 20: mid-game, the kept cards face up.
        for decisions in (2, 20):
            games, version = self._twin_games(client, 3, seed=5, decisions=decisions)
            state = self.engine_state(raw_redis, games[0][0])
            reader = engine.to_act(state)[0]
            assert (state.phase == "event") == (decisions == 2)
            variant = hidden_variant(state, reader)
            for (game_id, _tokens), stored in zip(games, (state, variant), strict=True):
                raw_redis.hset(
                    game_key(game_id),
                    mapping={"version": version + 1, "state": engine.encode(stored)},
                )
            replies = []
            for game_id, tokens in games:
                legal = client.stub.Legal(
                    SPEC.messages.LegalRequest(game_id=game_id, with_score_preview=True),
                    metadata=client.md(tokens[reader]),
                )
                assert legal.version == version + 1
                view = client.state(game_id, tokens[reader]).view
                replies.append(([(a.ref.label, a.score_after) for a in legal.actions], view))
            assert replies[0] == replies[1]
            assert engine.encode(state) != engine.encode(variant)

    def test_secret_event_choice_leaves_no_trace_through_the_service(self, client: Client) -> None:
        """Setup step 15 and issue 14 (secret simultaneous decisions): in two games that
        differ only in the card seat 0 kept, every other seat and a spectator read the
        same view, score board, log and Watch events until the last seat has chosen;
        then both see the card seat 0 kept."""
        games, version = self._twin_games(client, 3, seed=9, decisions=0)
        kept = []
        for choice, (game_id, tokens) in enumerate(games):
            reply = client.apply(game_id, tokens[0], version, action_id=choice)
            kept.append(client.state(game_id, tokens[0]).view.seats[0].event_card)
        assert kept[0] != kept[1]
        version = reply.version

        def seen(reader: int | None) -> list[Any]:
            reads = []
            for game_id, tokens in games:
                token = tokens.get(reader) if reader is not None else None
                entries = list(client.log(game_id, token).entries)
                stream = client.watch(game_id, token, from_version=0)
                events = [next(stream).event for _ in range(version)]
                stream.cancel()
                for event in [e.event for e in entries] + events:
                    event.ClearField("time_ms")
                reads.append(
                    (
                        client.state(game_id, token).view,
                        client.score(game_id).scoreboard,
                        entries,
                        events,
                    )
                )
            return reads

        for seat in (1, 2):
            for reader in (None, 1, 2):
                first, second = seen(reader)
                assert first == second, f"reader {reader} tells seat 0's choices apart"
            for game_id, tokens in games:
                reply = client.apply(game_id, tokens[seat], version, action_id=0)
            version = reply.version
        for reader in (None, 1, 2):
            for (game_id, tokens), card in zip(games, kept, strict=True):
                token = tokens.get(reader) if reader is not None else None
                assert client.state(game_id, token).view.seats[0].event_card == card

"""The Wingspan observation builder of the search bot: the decisions it rebuilds show
the same View, give the server's legal list and the real flow stack; the others are
detected and played greedy."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import grpc
import pytest
from roost.common.v1 import common_pb2
from roost.wingspan.v1 import types_pb2

from clients import registry
from clients.bots.pool import BotPool, BotSeat
from clients.bots.search import builder, wingspan
from clients.bots.search.ismcts import Budget, search
from clients.bots.search.policy import SearchPolicy, same_actions
from clients.bots.search.protoview import to_values
from tests.bots.bot_positions import Position, messages, positions, view_message
from tests.harness import game_server

ENGINE = wingspan.ENGINE
KIND = types_pb2.DecisionKind.Name
#: Decisions the builder claims (some of their positions are still refused: see below).
CLAIMED = {
    "DECISION_KIND_SETUP",
    "DECISION_KIND_TURN",
    "DECISION_KIND_BONUS_EXCHANGE",
    "DECISION_KIND_TAKE_DIE",
    "DECISION_KIND_LAY_EGG",
    "DECISION_KIND_DRAW_CARD",
    "DECISION_KIND_PAY_FOOD",
    "DECISION_KIND_ACTIVATE_POWER",
    "DECISION_KIND_REPEAT_POWER",
    "DECISION_KIND_TRADE_FOOD",
    "DECISION_KIND_DISCARD_EGG",
    "DECISION_KIND_MOVE_BIRD",
    "DECISION_KIND_CHOOSE_PLAYER",
    "DECISION_KIND_TUCK_CARD",
}
#: Claimed kinds that random games of the tests' seeds reach, rebuilt.
REACHED = CLAIMED - {"DECISION_KIND_REPEAT_POWER", "DECISION_KIND_TRADE_FOOD"}


def _kind(position: Position) -> str:
    return KIND(position.view.decision.kind)


def _is_decline(action: Any) -> bool:
    return action.action.WhichOneof("kind") == "decline"


@pytest.mark.parametrize("players", [2, 3])
def test_a_rebuilt_decision_shows_the_view_the_legal_list_and_the_stack(players: int) -> None:
    """Over every decision of real seeded games: when the builder rebuilds a state, the
    seat sees exactly its View there and the flow stack is the real one; the legal list
    is the server's, except for a die a power lets the seat take (its list offers to
    decline, the action's does not), which the policy's check turns into a greedy move."""
    rebuilt: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for position in positions("wingspan", ENGINE, players, games_count=2, seed=40):
        kind = _kind(position)
        try:
            built = wingspan.build(to_values(position.view), position.seat)
        except wingspan.NotRebuilt:
            refused[kind] += 1
            continue
        assert kind in CLAIMED
        assert view_message("wingspan", ENGINE, built, position.seat) == position.view
        real = position.state
        assert built.hands[position.seat] == real.hands[position.seat]
        assert built.bonus_cards[position.seat] == real.bonus_cards[position.seat]
        if same_actions(ENGINE.legal(built, position.seat), position.actions):
            assert [t.row() for t in built.stack] == [t.row() for t in real.stack]
            rebuilt[kind] += 1
        else:
            assert kind == "DECISION_KIND_TAKE_DIE"
            assert any(_is_decline(a) for a in position.actions)
            refused[kind] += 1
    assert REACHED <= set(rebuilt) <= CLAIMED
    # Most decisions are searched (about two in three in random games).
    assert sum(rebuilt.values()) > 1.2 * sum(refused.values())
    assert "DECISION_KIND_PAY_EGG" in refused


def test_unclaimed_decisions_are_refused() -> None:
    """The view does not show what the seat kept at setup, which bird it is paying eggs
    for, or what a power of another seat or a played bird still has to do: such
    decisions raise NotRebuilt (the policy then plays greedy)."""
    refused = 0
    for position in positions("wingspan", ENGINE, 3, games_count=1, seed=11):
        kind = _kind(position)
        values = to_values(position.view)
        later_setup = kind == "DECISION_KIND_SETUP" and (
            values["players"][position.seat]["setup_stage"] != "SETUP_STAGE_BIRDS"
        )
        other_seat = kind != "DECISION_KIND_SETUP" and position.seat != values["turn_seat"]
        if kind not in CLAIMED or later_setup or other_seat:
            with pytest.raises(wingspan.NotRebuilt):
                wingspan.build(values, position.seat)
            refused += 1
    assert refused > 10


def _first(kind_wanted: str, rebuilt: bool) -> Position:
    for position in positions("wingspan", ENGINE, 2, games_count=1, seed=5):
        if _kind(position) != kind_wanted or len(position.actions) < 2:
            continue
        try:
            wingspan.build(to_values(position.view), position.seat)
        except wingspan.NotRebuilt:
            if not rebuilt:
                return position
        else:
            if rebuilt:
                return position
    raise AssertionError(f"no {kind_wanted} position")


def test_the_policy_searches_a_turn_and_plays_greedy_where_it_cannot_rebuild(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A turn's choice is searched (no fallback); an egg cost (the view does not say for
    which bird) is played greedy, with a warning saying why; both answers are legal."""
    assert builder("wingspan") is wingspan
    policy = SearchPolicy("wingspan", Budget(playouts=4), random.Random(2))
    turn = _first("DECISION_KIND_TURN", rebuilt=True)
    assert 0 <= policy.choose(turn.actions, turn.view) < len(turn.actions)
    assert policy.fallbacks == 0 and policy.last is not None
    power = _first("DECISION_KIND_PAY_EGG", rebuilt=False)
    with caplog.at_level("WARNING", logger="roost.bots.search"):
        assert 0 <= policy.choose(power.actions, power.view) < len(power.actions)
    assert policy.fallbacks == 1 and "could not be rebuilt" in caplog.text


def test_search_chooses_a_legal_action_within_its_playouts() -> None:
    """From rebuilt states of several kinds, a playout budget is met exactly."""
    seen: set[str] = set()
    for position in positions("wingspan", ENGINE, 2, games_count=1, seed=9):
        kind = _kind(position)
        if kind in seen or len(position.actions) < 2:
            continue
        try:
            state = wingspan.build(to_values(position.view), position.seat)
        except wingspan.NotRebuilt:
            continue
        if not same_actions(ENGINE.legal(state, position.seat), position.actions):
            continue
        seen.add(kind)
        result = search(
            ENGINE, state, position.seat, Budget(playouts=6), random.Random(1), wingspan.SETTINGS
        )
        assert 0 <= result.choice < len(position.actions)
        assert result.playouts == 6
    assert {"DECISION_KIND_SETUP", "DECISION_KIND_TURN", "DECISION_KIND_TAKE_DIE"} <= seen


@pytest.mark.slow
def test_a_real_wingspan_game_over_grpc_with_the_search_bot_in_a_seat(
    redis_server_url: str,
) -> None:
    """The search bot plays a whole Wingspan game against a random bot through a real
    service and Redis, from its own views (greedy inside powers)."""
    from services.wingspan.service import SPEC

    with game_server(SPEC, redis_server_url) as server:
        asyncio.run(_play_one(server.address))


async def _play_one(address: str) -> None:
    channel = grpc.aio.insecure_channel(address)
    created = (
        await registry.game("wingspan")
        .stub(channel)
        .NewGame(
            messages("wingspan").NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=3))
        )
    )
    await channel.close()
    pool = BotPool(seed=1)
    try:
        seats = [
            BotSeat("wingspan", address, created.game_id, c.seat, c.token, kind)
            for c, kind in zip(created.credentials, ("search@2p", "random"), strict=True)
        ]
        results = await pool.play(seats)
        policy = pool.policy("wingspan", "search@2p")
    finally:
        await pool.close()
    assert all(not isinstance(r, BaseException) for r in results), results
    assert all(r.finished for r in results)
    assert isinstance(policy, SearchPolicy) and policy.last is not None
    assert policy.fallbacks < results[0].decisions / 2

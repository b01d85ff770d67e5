"""The search bot: observation builders, the legal-action mapping, the search itself,
and a real game over gRPC with the search bot in a seat."""

from __future__ import annotations

import asyncio
import functools
import importlib
import random
from collections.abc import Iterator

import grpc
import pytest
from roost.common.v1 import common_pb2

from clients import registry
from clients.bots.policies import make
from clients.bots.pool import BotPool, BotSeat
from clients.bots.search import BUILDERS, builder
from clients.bots.search.ismcts import Budget, search
from clients.bots.search.policy import SearchPolicy, same_actions
from clients.bots.search.protoview import to_values
from tests.bots.bot_positions import messages, positions, view_message
from tests.harness import game_server

#: (game, players) pairs whose positions the mapping is checked over.
TABLES = [("undertheleaves", 2), ("undertheleaves", 3), ("birdscaping", 2), ("birdscaping", 1)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_rebuilt_state_shows_the_view_and_has_the_servers_legal_actions(
    game: str, players: int
) -> None:
    """Over every decision of real games: the state built from the seat's View message
    shows that seat exactly the same View, and the engine's legal actions there equal
    the service's legal actions (kind and arguments, in order), so a search index is
    an index into the server's list."""
    module = builder(game)
    assert module is not None
    engine = module.ENGINE
    checked = 0
    for position in positions(game, engine, players, games_count=2, seed=40):
        built = module.build(to_values(position.view), position.seat)
        assert view_message(game, engine, built, position.seat) == position.view
        assert same_actions(engine.legal(built, position.seat), position.actions)
        checked += 1
    assert checked > 50


def test_a_different_legal_list_is_noticed() -> None:
    """The mapping check compares arguments, not just lengths and kinds."""
    module = builder("undertheleaves")
    assert module is not None
    position = next(
        p for p in positions("undertheleaves", module.ENGINE, 2, 1) if len(p.actions) > 3
    )
    engine_actions = module.ENGINE.legal(position.state, position.seat)
    assert same_actions(engine_actions, position.actions)
    assert not same_actions(engine_actions[::-1], position.actions)
    assert not same_actions(engine_actions[:-1], position.actions)


def _search_positions(game: str, players: int) -> Iterator[object]:
    module = builder(game)
    assert module is not None
    for index, position in enumerate(positions(game, module.ENGINE, players, 1, seed=7)):
        if index % 9 == 0 and len(position.actions) > 1:
            yield position


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_search_chooses_a_legal_action_within_its_budget(game: str, players: int) -> None:
    """A playout budget is met exactly; a time budget stops the search once the clock
    has passed it (the clock is the search's own, here one that ticks per reading)."""
    module = builder(game)
    assert module is not None
    engine = module.ENGINE
    for position in list(_search_positions(game, players))[:6]:
        state = module.build(to_values(position.view), position.seat)
        result = search(engine, state, position.seat, Budget(playouts=12), random.Random(1))
        assert 0 <= result.choice < len(position.actions)
        assert result.playouts == 12
        ticks = iter(range(10**6))  # a clock that moves 1 ms each time it is read
        clock = functools.partial(lambda t: next(t) / 1000, ticks)
        timed = search(engine, state, position.seat, Budget(ms=5), random.Random(1), clock=clock)
        assert 0 <= timed.choice < len(position.actions)
        assert 1 <= timed.playouts <= 5


def test_a_seeded_search_is_deterministic() -> None:
    """Same position, same seed, same playout budget: the same choice and statistics."""
    module = builder("birdscaping")
    assert module is not None
    for position in list(_search_positions("birdscaping", 2))[:4]:
        state = module.build(to_values(position.view), position.seat)
        runs = [
            search(module.ENGINE, state, position.seat, Budget(playouts=16), random.Random(5))
            for _ in range(2)
        ]
        assert runs[0].choice == runs[1].choice
        assert runs[0].visits == runs[1].visits and runs[0].means == runs[1].means


def test_the_search_policy_answers_from_the_view_alone() -> None:
    """The policy reads the View message and the LegalAction messages only, and its index
    is legal; a builder that leaves decisions to the greedy fallback asks for previews."""
    policy = SearchPolicy("undertheleaves", Budget(playouts=8), random.Random(3))
    assert policy.wants_view and not policy.wants_preview
    for position in list(_search_positions("undertheleaves", 2))[:4]:
        assert 0 <= policy.choose(position.actions, position.view) < len(position.actions)
    assert policy.fallbacks == 0
    # Wingspan's builder leaves about one decision in four to the greedy fallback.
    assert SearchPolicy("wingspan", Budget(playouts=8)).wants_preview


def test_budgets_are_spelled_in_the_kind() -> None:
    assert make("search@30ms", True, game="birdscaping").budget == Budget(ms=30)
    assert make("search@16p", True, game="birdscaping").budget == Budget(playouts=16)
    assert make("search", True, game="birdscaping").budget.ms is not None
    assert sorted(BUILDERS) == ["birdscaping", "skygarden", "undertheleaves", "wingspan"]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["undertheleaves", "birdscaping"])
def test_a_real_game_over_grpc_with_the_search_bot_in_a_seat(
    game: str, redis_server_url: str
) -> None:
    """The search bot plays a whole game against a random bot through a real service and
    Redis, from its own views, never falling back to greedy."""
    spec = importlib.import_module(f"services.{game}.service").SPEC
    with game_server(spec, redis_server_url) as server:
        asyncio.run(_play_one(game, server.address))


async def _play_one(game: str, address: str) -> None:
    channel = grpc.aio.insecure_channel(address)
    created = (
        await registry.game(game)
        .stub(channel)
        .NewGame(messages(game).NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=3)))
    )
    await channel.close()
    pool = BotPool(seed=1)
    try:
        seats = [
            BotSeat(game, address, created.game_id, c.seat, c.token, kind)
            for c, kind in zip(created.credentials, ("search@8p", "random"), strict=True)
        ]
        results = await pool.play(seats)
        policy = pool.policy(game, "search@8p")
    finally:
        await pool.close()
    assert all(not isinstance(r, BaseException) for r in results), results
    assert all(r.finished for r in results)
    assert results[0].decisions > 5
    assert isinstance(policy, SearchPolicy) and policy.fallbacks == 0


def test_a_legal_list_that_differs_falls_back_to_greedy(caplog: pytest.LogCaptureFixture) -> None:
    """When the server's legal list is not the rebuilt state's, the policy does not
    search: it plays greedy on the previews and logs a warning."""
    policy = SearchPolicy("undertheleaves", Budget(playouts=8), random.Random(3))
    position = next(p for p in _search_positions("undertheleaves", 2) if len(p.actions) > 2)
    shuffled = list(reversed(position.actions))
    shuffled[1].score_after = 99
    with caplog.at_level("WARNING", logger="roost.bots.search"):
        assert policy.choose(shuffled, position.view) == 1
    assert policy.fallbacks == 1 and "legal actions differ" in caplog.text

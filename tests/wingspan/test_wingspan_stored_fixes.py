"""Stored Wingspan games stay playable across rule fixes (services/wingspan/rules/storage.py).

``data/saved_state_empty_feeder.json`` was stored by an engine from before the
feeder fix (rulebook: the birdfeeder is never empty; the moment its last die
is taken all five are rolled back in). That engine left the feeder empty, and
from there every forest action gave nothing and dice predators rolled all five
dice. Read by today's engine, the state has the feeder rolled, from the
game's own generator, and plays to its end under the fixed rule.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from services.core.store import game_key
from services.wingspan.rules import ENGINE
from services.wingspan.service import SPEC as WINGSPAN
from tests.harness import ServerHandle, game_server
from tests.service_contract import Client

FOREST = "HABITAT_FOREST"
STORED = Path(__file__).parent / "data" / "saved_state_empty_feeder.json"


def test_the_state_was_stored_with_an_empty_feeder() -> None:
    """The fixture is what the old engine wrote: an empty ``feeder`` in its JSON."""
    assert b'"feeder":[]' in STORED.read_bytes().replace(b" ", b"")


def test_an_empty_feeder_is_rolled_when_read_the_same_everywhere() -> None:
    """Rulebook 共通の場 (the feeder holds five dice): five dice after the read,
    the same five on every decode of the same bytes (no replica rolls otherwise)."""
    first = ENGINE.decode(STORED.read_bytes())
    again = ENGINE.decode(STORED.read_bytes())
    assert len(first.feeder) == 5 and first.feeder == again.feeder
    assert first.rng.state == again.rng.state


def test_the_game_plays_to_its_end_and_forest_actions_give_food() -> None:
    """From the stored state on, every forest action offers food from the
    feeder and the feeder is never empty again, to the end of the game."""
    state = ENGINE.decode(STORED.read_bytes())
    chooser = random.Random(7)
    forest_actions = 0
    while not ENGINE.is_over(state):
        assert state.feeder, "the feeder is never empty"
        seat = chooser.choice(ENGINE.to_act(state))
        actions = ENGINE.legal(state, seat)
        forest = [a for a in actions if a.kind == "take_action" and a.arg("habitat") == FOREST]
        state = ENGINE.apply(state, seat, forest[0] if forest else chooser.choice(actions))
        if forest:  # the seat takes the forest action whenever it may
            forest_actions += 1
            offered = {a.kind for a in ENGINE.legal(state, seat)}
            assert offered & {"take_die", "reroll_feeder"}, offered
    assert forest_actions > 0


@pytest.fixture(scope="module")
def server(redis_server_url: str) -> Iterator[ServerHandle]:
    with game_server(WINGSPAN, redis_server_url) as handle:
        yield handle


@pytest.mark.service
def test_a_game_stored_with_an_empty_feeder_is_served_with_five_dice(
    server: ServerHandle, redis_server_url: str
) -> None:
    """A game whose stored state is the old engine's: GetState shows five dice
    in the birdfeeder and the seat asked decides by Apply."""
    client = Client(server, WINGSPAN)
    created = client.new_game(2, seed=1)
    tokens = {c.seat: c.token for c in created.credentials}
    raw = redis.Redis.from_url(redis_server_url)
    raw.hset(game_key(created.game_id), "state", STORED.read_bytes())
    state = client.state(created.game_id)
    assert len(state.view.birdfeeder) == 5 and state.view.dice_outside == 0
    seat = state.to_act[0]
    legal = client.legal(created.game_id, tokens[seat])
    applied = client.apply(created.game_id, tokens[seat], legal.version, action_id=0)
    assert applied.version == legal.version + 1

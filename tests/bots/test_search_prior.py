"""The search with the greedy bot's judgement as a prior, and paired playouts."""

from __future__ import annotations

import random
from dataclasses import replace

from clients.bots.greedy import potential_of
from clients.bots.search import birdscaping
from clients.bots.search.ismcts import Budget, _first_look, search
from clients.bots.search.policy import PRIOR, WIDTH, settings_of

ENGINE = birdscaping.ENGINE
SETTINGS = replace(
    birdscaping.SETTINGS, potential=potential_of("birdscaping"), prior=PRIOR, width=WIDTH
)


def _position():  # type: ignore[no-untyped-def]
    """A Birdscaping decision with more than four legal actions (random play, seeded)."""
    rng = random.Random(4)
    state = ENGINE.setup(2, {}, 4)
    while True:
        seat = ENGINE.to_act(state)[0]
        actions = ENGINE.legal(state, seat)
        if len(actions) > WIDTH and state.phase == "play":
            return state, seat, actions
        state = ENGINE.apply(state, seat, actions[rng.randrange(len(actions))])


def test_the_lookahead_games_search_with_greedys_prior() -> None:
    settings = settings_of("birdscaping", birdscaping)
    assert settings.prior == PRIOR and settings.width == WIDTH and settings.potential
    assert settings_of("undertheleaves", None).prior == 0


def test_with_no_playouts_the_search_plays_greedys_choice() -> None:
    """The prior alone decides when no playout is run: the best first look."""
    state, seat, actions = _position()
    first = _first_look(ENGINE, state, seat, actions, random.Random(5), SETTINGS)
    result = search(ENGINE, state, seat, Budget(playouts=0), random.Random(5), SETTINGS)
    assert first[result.choice] == max(first)
    assert len(result.visits) == WIDTH and set(result.visits.values()) == {PRIOR}


def test_prior_visits_count_with_the_playouts() -> None:
    state, seat, actions = _position()
    result = search(ENGINE, state, seat, Budget(playouts=12), random.Random(6), SETTINGS)
    assert result.playouts == 12
    assert sum(result.visits.values()) == 12 + PRIOR * WIDTH
    assert 0 <= result.choice < len(actions)


def test_paired_playouts_give_every_candidate_the_same_samples() -> None:
    state, seat, _ = _position()
    paired = replace(SETTINGS, paired=True)
    result = search(ENGINE, state, seat, Budget(playouts=3 * WIDTH), random.Random(7), paired)
    assert set(result.visits.values()) == {PRIOR + 3}
    again = search(ENGINE, state, seat, Budget(playouts=3 * WIDTH), random.Random(7), paired)
    assert again.choice == result.choice and again.means == result.means

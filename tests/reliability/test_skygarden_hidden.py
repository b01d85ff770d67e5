"""Sky Garden's hidden information (issue 14, "Hidden information"; setup step 15).

What a seat cannot see is another seat's dealt Event cards, the card another seat
kept until every seat has kept one, and the generator (rules/hidden.py). These tests
check that ``determinize`` resamples exactly that, that two states differing only in
it give the same sample and the same score previews, and that the secret Event-card
choice leaves no trace in any other seat's or a spectator's view before the reveal.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from services.core.engine import Rng
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D
from services.skygarden.rules.hidden import events_revealed
from services.skygarden.rules.state import GameState
from tests.skygarden.skygarden_helpers import act, hidden_variant, random_game_states, undealt

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]

ALL_CARDS = set(range(len(D.EVENT_IDS)))


def previews(state: GameState, seat: int, seed: int) -> list[int]:
    """The seat's total after each of its legal actions, simulated as the service
    does (game_context.preview_scores): on one determinized copy."""
    sample = ENGINE.encode(ENGINE.determinize(state, seat, Rng(seed)))
    totals = []
    for action in ENGINE.legal(state, seat):
        trial = ENGINE.apply(ENGINE.decode(sample), seat, action)
        totals.append(ENGINE.score(trial).seats[seat].total)
    return totals


def played(players: int, seed: int, decisions: int) -> dict[str, Any]:
    """The state of a "busy" random game after ``decisions`` decisions."""
    for i, (st, _seat, _action) in enumerate(random_game_states(players, seed, busy=True)):
        if i == decisions:
            return st
    raise AssertionError("the game ended first")


def event_choice_position() -> dict[str, Any]:
    """3 players choosing Event cards: seat 1 has kept its second card, seats 0 and 2
    still choose (two cards are in the box undealt)."""
    st = ENGINE.setup(3, {}, 17)
    act(st, 1, "keep_event", card=D.EVENT_IDS[st.players[1].dealt_events[1]])
    return st


def test_event_choice_position_variant_differs_only_in_what_seat_0_cannot_see() -> None:
    """Setup step 15, seen from seat 0: seat 1 kept the other card, seat 2 was dealt
    the two box cards, and the generator differs; the same sample, the same previews."""
    st = event_choice_position()
    other = copy.deepcopy(st)
    p1, p2 = other.players[1], other.players[2]
    p1.event_card = p1.dealt_events[0]  # the other secret choice
    p1.dealt_events.reverse()  # dealt in the other order
    p2.dealt_events = undealt(st)
    other.rng = st.rng ^ 0x5DEECE66D
    _assert_same_for(st, other, viewer=0)


def test_event_choice_position_variant_seen_by_a_spectator() -> None:
    """Setup step 15, seen by a spectator: every seat's cards may be others."""
    st = event_choice_position()
    other = copy.deepcopy(st)
    box = undealt(st)
    other.players[0].dealt_events, other.players[2].dealt_events = (
        other.players[2].dealt_events,
        box,
    )
    p1 = other.players[1]
    p1.event_card = p1.dealt_events[0]
    other.rng = 12345
    _assert_same_for(st, other, viewer=None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mid_game_variant_differs_only_in_returned_cards_and_generator(players: int) -> None:
    """Mid-game (kept cards face up): the cards the others returned to the box, the
    cards nobody was dealt and the generator drawing the next rounds are unseen; every
    seat and a spectator get the same sample and the same previews from either state."""
    st = played(players, seed=8, decisions=60)
    assert events_revealed(st) and not ENGINE.is_over(st)
    for viewer in [None, *range(players)]:
        _assert_same_for(st, hidden_variant(st, viewer), viewer)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_hidden_variants_through_random_games(players: int) -> None:
    """Issue 14, previews hide what is hidden: at every Event-choice decision and every
    ninth decision of random games, for every seat and a spectator, a state differing
    only in what the reader cannot see gives the same sample and the same previews."""
    for i, (st, _seat, _action) in enumerate(random_game_states(players, 70 + players)):
        if i % 9 and st.phase != "event":
            continue
        for viewer in [None, *range(players)]:
            _assert_same_for(st, hidden_variant(st, viewer), viewer, seeds=2)


def _assert_same_for(st: GameState, other: GameState, viewer: int | None, seeds: int = 8) -> None:
    """``st`` and ``other`` differ, look the same to ``viewer``, and determinize to
    byte-identical samples (so identical previews) for several generators."""
    assert ENGINE.encode(st) != ENGINE.encode(other)
    assert ENGINE.view(st, viewer) == ENGINE.view(other, viewer), "only hidden parts differ"
    for seed in range(seeds):
        a = ENGINE.determinize(st, viewer, Rng(seed))
        b = ENGINE.determinize(other, viewer, Rng(seed))
        assert ENGINE.encode(a) == ENGINE.encode(b)
        if viewer is not None and ENGINE.legal(st, viewer):
            assert previews(st, viewer, seed) == previews(other, viewer, seed)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_determinize_keeps_what_the_seat_sees_and_never_changes_the_state(players: int) -> None:
    """Engine contract, determinize: the copy looks the same to the seat (same view,
    same legal actions, same seats to act), the original is untouched, the generator
    is reseeded, and the Event cards stay a consistent deal (each card with one seat
    at most, each kept card one of its seat's dealt pair)."""
    for i, (st, _seat, _action) in enumerate(random_game_states(players, 40 + players)):
        if i % 9 and st.phase != "event":
            continue
        before = ENGINE.encode(st)
        for viewer in [None, *range(players)]:
            sample = ENGINE.determinize(st, viewer, Rng(i))
            assert ENGINE.encode(st) == before
            assert ENGINE.view(sample, viewer) == ENGINE.view(st, viewer)
            assert ENGINE.to_act(sample) == ENGINE.to_act(st)
            if viewer is not None:
                assert ENGINE.legal(sample, viewer) == ENGINE.legal(st, viewer)
            assert sample.rng != st.rng
            dealt = [c for p in sample.players for c in p.dealt_events]
            assert len(dealt) == len(set(dealt)) == D.EVENT_DEAL * players
            for p in sample.players:
                assert p.event_card < 0 or p.event_card in p.dealt_events


def test_determinize_draws_unseen_cards_only_and_all_of_them() -> None:
    """What remains possible for seat 0 while seat 1 has chosen in secret: any card but
    seat 0's own two, for seat 1's pair and for its kept card alike."""
    st = event_choice_position()
    own = set(st.players[0].dealt_events)
    kept, pairs = set(), set()
    for seed in range(300):
        sample = ENGINE.determinize(st, 0, Rng(seed))
        p1 = sample.players[1]
        assert not own & set(p1.dealt_events)
        kept.add(p1.event_card)
        pairs.add(tuple(p1.dealt_events))
    assert kept == ALL_CARDS - own
    assert len(pairs) == 15  # every pair of the 6 unseen cards


def test_determinize_seed_gives_the_sample() -> None:
    """The sample depends on the generator passed in: same seed, same copy; another
    seed, another draw of the hidden cards."""
    st = event_choice_position()
    same = {ENGINE.encode(ENGINE.determinize(st, None, Rng(5))) for _ in range(3)}
    assert len(same) == 1
    deals = {
        tuple(tuple(p.dealt_events) for p in ENGINE.determinize(st, None, Rng(s)).players)
        for s in range(20)
    }
    assert len(deals) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_secret_event_choice_leaves_no_trace_before_the_reveal(players: int) -> None:
    """Setup step 15 and issue 14 (secret simultaneous decisions): whichever card a
    seat keeps, every other seat's view, the spectator's view, the score board and the
    public label of the decision are identical until the last seat has chosen; then
    every view shows the card."""
    for chooser in range(players):
        base = ENGINE.setup(players, {}, 60 + chooser)
        options = ENGINE.legal(base, chooser)
        assert len(options) == 2 and all(a.secret for a in options)
        assert options[0].public_label == options[1].public_label
        label = options[0].public_label
        assert not any(name in label for name in (*D.EVENT_IDS, *D.BIRD_NAME))
        branches = []
        for action in options:
            st = copy.deepcopy(base)
            ENGINE.apply(st, chooser, action)
            branches.append(st)
        others = [s for s in range(players) if s != chooser]
        for step, seat in enumerate(others):
            for reader in [None, *others]:
                views = [ENGINE.view(st, reader) for st in branches]
                assert views[0] == views[1], f"reader {reader} tells the choices apart"
            scores = [ENGINE.score(st) for st in branches]
            assert scores[0] == scores[1]
            own = [ENGINE.view(st, chooser)["seats"][chooser]["event_card"] for st in branches]
            assert own[0] != own[1]  # the chooser sees its own choice
            for st in branches:  # every other seat keeps the same card in both
                act(st, seat, "keep_event", card=D.EVENT_IDS[st.players[seat].dealt_events[0]])
            if step < len(others) - 1:
                assert all(st.phase == "event" for st in branches)
        for st, action in zip(branches, options, strict=True):
            assert st.phase == "play"
            for reader in [None, *others]:
                seat_view = ENGINE.view(st, reader)["seats"][chooser]
                assert seat_view["event_card"] == action.arg("card")

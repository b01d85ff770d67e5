"""Secret simultaneous decisions leave no trace before the reveal.

Birdscaping's one simultaneous decision is The Initial Draft (2 players): both seats
keep a card of their packet at once, in secret, then pass the rest on. Until the
packets are passed, the other seat and a spectator must learn nothing of the choice:
not from their views, the public label of the event, who is still to act, their own
legal actions, nor from a sample of what they cannot see (Engine.determinize, which
score previews and search bots use). The pass is the reveal (the card missing from
the packet received tells the other seat); a spectator learns nothing until the last
pick's leftovers start the offer.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules import actions as A
from services.birdscaping.rules.cards import KEY, NAME
from services.birdscaping.rules.engine import State
from services.core.engine import Action, Rng

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]


def draft_at_pick(pick: int, seed: int = 8) -> State:
    """A 2-player game at the start of draft pick ``pick`` (both seats kept their first card)."""
    s = ENGINE.setup(2, {}, seed)
    while s.pick_no < pick:
        for seat in (0, 1):
            ENGINE.apply(s, seat, ENGINE.legal(s, seat)[0])
    return s


def seen_by(s: State, observer: int | None) -> dict[str, Any]:
    """Everything ``observer`` (None: a spectator) can learn from the state."""
    seen: dict[str, Any] = {
        "view": ENGINE.view(s, observer),
        "to_act": ENGINE.to_act(s),
        "sample": ENGINE.encode(ENGINE.determinize(s, observer, Rng(11))),
    }
    if observer is not None:
        seen["legal"] = [(a.kind, a.args, a.label) for a in ENGINE.legal(s, observer)]
    return seen


def event_seen_by_others(action: Action) -> tuple[str, bool]:
    """What the log and Watch show other seats of a decision (GameServicer._event)."""
    return (action.public_label if action.secret else action.label), action.secret


def _after(base: State, seat: int, action: Action) -> State:
    s = base.copy()
    ENGINE.apply(s, seat, action)
    return s


@pytest.mark.parametrize("pick", [1, 2, 3])
@pytest.mark.parametrize("decider", [0, 1])
def test_a_draft_keep_leaves_no_trace_before_the_pass(pick: int, decider: int) -> None:
    """The Initial Draft ("keep one card, pass the rest", both seats at once): whichever
    card a seat keeps, the other seat and a spectator see the same view, the same event
    label, the same seats to act, the same legal actions and the same sample of what they
    cannot see, until the packets are passed."""
    base = draft_at_pick(pick)
    other = 1 - decider
    choices = ENGINE.legal(base, decider)
    assert len(choices) == 5 - pick and all(c.kind == "draft_keep" for c in choices)
    for observer in (other, None):
        seen = [seen_by(_after(base, decider, choice), observer) for choice in choices]
        assert all(x == seen[0] for x in seen[1:]), f"seat {decider}'s keep shows to {observer}"
    events = {event_seen_by_others(choice) for choice in choices}
    assert events == {(f"Seat {decider} kept a card", True)}


@pytest.mark.parametrize("pick", [1, 2])
def test_a_spectator_learns_nothing_of_the_picks_when_the_packets_pass(pick: int) -> None:
    """The Initial Draft: a spectator never sees a packet or a hand, so the pass after both
    seats kept a card reveals nothing to it either (only the last pick's leftovers, which
    start the bird offer, are seen face up)."""
    base = draft_at_pick(pick)
    seen = []
    for choice in ENGINE.legal(base, 0):
        s = _after(base, 0, choice)
        ENGINE.apply(s, 1, ENGINE.legal(s, 1)[0])
        assert s.pick_no == pick + 1  # passed on
        seen.append(seen_by(s, None))
    assert all(x == seen[0] for x in seen[1:])


def test_the_last_pick_is_revealed_by_the_offer() -> None:
    """The reveal: after the third pick the two leftover cards start the offer face up, so
    different keeps are seen from then on (the check above is not vacuous)."""
    base = draft_at_pick(3)
    offers = set()
    for choice in ENGINE.legal(base, 0):
        s = _after(base, 0, choice)
        ENGINE.apply(s, 1, ENGINE.legal(s, 1)[0])
        offers.add(tuple(ENGINE.view(s, None)["offer"]))
    assert len(offers) == 2


def test_public_labels_of_secret_decisions_name_no_card() -> None:
    """Action.secret / public_label: every secret decision (draft_keep, ability_keep) has a
    public label, and it names no card (by name or key)."""
    secret = [a for table in (A.DRAFT_KEEP, A.ABILITY_KEEP) for row in table for a in row]
    assert secret and all(a.secret and a.public_label for a in secret)
    words = {n.lower() for n in NAME} | set(KEY)
    for action in secret:
        label = action.public_label.lower()
        assert not [w for w in words if w in label], action.public_label
    labels = {a.public_label for a in A.DRAFT_KEEP[0]}
    assert labels == {"Seat 0 kept a card"}


def test_the_draft_is_the_only_simultaneous_decision() -> None:
    """Only The Initial Draft asks two seats at once, and only its keep is secret among
    simultaneous decisions (random 2-player and solo games)."""
    for players in (1, 2):
        for seed in range(8):
            s = ENGINE.setup(players, {}, seed)
            chooser = Rng(seed)
            while not ENGINE.is_over(s):
                seats = ENGINE.to_act(s)
                if len(seats) > 1:
                    assert s.phase == "draft"
                    kinds = {a.kind for seat in seats for a in ENGINE.legal(s, seat)}
                    assert kinds == {"draft_keep"}
                seat = seats[chooser.below(len(seats))]
                actions = ENGINE.legal(s, seat)
                ENGINE.apply(s, seat, actions[chooser.below(len(actions))])

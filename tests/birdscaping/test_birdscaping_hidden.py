"""determinize: a copy with everything a seat cannot see redrawn from what it cannot
tell apart (the engine contract's ``Engine.determinize``; Birdscaping's rules of what
is hidden are in services/birdscaping/rules/hidden.py).

Hidden for a seat: the deck, the other seat's hand and draft packet, the cards the
other seat's Woodpecker looks at, the generator. A spectator sees no hand at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from birdscaping_helpers import act, all_cards_accounted, make, same_game_other_secrets

from services.birdscaping.rules import ENGINE
from services.birdscaping.rules.cards import ID, N_CARDS
from services.birdscaping.rules.state import PLAY, State
from services.core.engine import Rng
from services.core.game_context import preview_scores

OBSERVERS = {1: (0, None), 2: (0, 1, None)}


def positions(players: int, seed: int, every: int = 3) -> Iterator[State]:
    """Every ``every``-th state of a random game (copies), to its end."""
    s = ENGINE.setup(players, {}, seed)
    chooser = Rng(seed * 31 + players)
    step = 0
    while not ENGINE.is_over(s):
        if step % every == 0:
            yield s.copy()
        seats = ENGINE.to_act(s)
        seat = seats[chooser.below(len(seats))]
        actions = ENGINE.legal(s, seat)
        ENGINE.apply(s, seat, actions[chooser.below(len(actions))])
        step += 1


def previews(s: State, seat: int) -> list[int]:
    """The score previews the service computes (services.core.game_context.preview_scores)."""
    return preview_scores(ENGINE, "game", 7, s, seat, ENGINE.legal(s, seat))


def _lists(s: State) -> list[list[object]]:
    out: list[list[object]] = []

    def walk(value: object) -> None:
        if isinstance(value, list):
            out.append(value)
            for inner in value:
                walk(inner)

    for name in State.__slots__:
        walk(getattr(s, name))
    return out


@pytest.mark.parametrize("players", [1, 2])
def test_determinize_changes_only_what_the_seat_cannot_see(players: int) -> None:
    """Engine.determinize: the seat's view and its own legal actions are the same in the
    copy, every card is still in one place, the original is untouched and shares no list
    with the copy."""
    checked = 0
    for seed in range(4):
        for s in positions(players, seed):
            before = ENGINE.encode(s)
            for seat in OBSERVERS[players]:
                copy = ENGINE.determinize(s, seat, Rng(seed * 101 + checked))
                assert ENGINE.encode(s) == before
                assert ENGINE.view(copy, seat) == ENGINE.view(s, seat)
                if seat is not None:
                    assert ENGINE.legal(copy, seat) == ENGINE.legal(s, seat)
                assert ENGINE.to_act(copy) == ENGINE.to_act(s)
                assert all_cards_accounted(copy)
                originals = {id(x) for x in _lists(s)}
                assert not originals & {id(x) for x in _lists(copy)}
                assert copy.rng is not s.rng
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [1, 2])
def test_states_that_differ_only_in_hidden_cards_sample_and_preview_the_same(
    players: int,
) -> None:
    """Engine.determinize: the sample depends only on what the seat can see (or remembers)
    and on the generator given, so two states that differ only in hidden cards (and in
    their generators) give the identical copy, and the same score previews."""
    differing = 0
    for seed in range(4):
        for s in positions(players, seed, every=5):
            for seat in OBSERVERS[players]:
                other = same_game_other_secrets(s, seat, shift=1 + seed)
                assert ENGINE.view(other, seat) == ENGINE.view(s, seat)
                differing += ENGINE.encode(other) != ENGINE.encode(s)
                a = ENGINE.determinize(s, seat, Rng(77))
                b = ENGINE.determinize(other, seat, Rng(77))
                assert ENGINE.encode(a) == ENGINE.encode(b)
                if seat is not None and seat in ENGINE.to_act(s):
                    assert previews(s, seat) == previews(other, seat)
    assert differing > 20


def test_determinize_redraws_the_hidden_cards_and_the_generator() -> None:
    """Engine.determinize: the deck order, the other hand and the generator are drawn anew
    (different generators give different samples; none keeps the true generator)."""
    s = next(p for p in positions(2, 3) if p.phase == PLAY and len(p.deck) >= 6)
    decks = set()
    hands = set()
    for k in range(20):
        copy = ENGINE.determinize(s, 0, Rng(k))
        assert copy.rng.state != s.rng.state
        assert Counter(copy.deck + copy.hands[1]) == Counter(s.deck + s.hands[1])
        decks.add(tuple(copy.deck))
        hands.add(tuple(copy.hands[1]))
    assert len(decks) > 10 and len(hands) > 2


def test_a_card_taken_face_up_into_a_hand_stays_there_in_every_sample() -> None:
    """Draft Cards from the offer or the top of the discard pile happens in sight of all:
    every seat and the spectator know those cards are in that hand."""
    s = make(
        hands={0: ["robin"], 1: ["mallard", "dunnock"]},
        offer=["blue_tit", "great_tit"],
        discard=["nuthatch"],
        turn=1,
        fill_deck=True,
    )
    act(s, 1, "draft_discard", card="mallard")  # 2 curious birds
    act(s, 1, "draft_from_offer", card="blue_tit")
    act(s, 1, "draft_from_discard", card="nuthatch")
    for seat in (0, None):
        for k in range(30):
            hand = ENGINE.determinize(s, seat, Rng(k)).hands[1]
            assert ID["blue_tit"] in hand and ID["nuthatch"] in hand
    # The card the seat holds from the start (drawn unseen) is redrawn.
    held = {tuple(ENGINE.determinize(s, 0, Rng(k)).hands[1]) for k in range(30)}
    assert len(held) > 1


def test_round_one_draws_are_known_by_elimination_after_the_reshuffle() -> None:
    """Round End: the new deck is the discard pile and the offer, seen face up, so after the
    reshuffle the cards the other seat drew in round 1 are the only ones unaccounted for:
    every sample keeps them in that hand, and redraws only the new deck's order."""
    s = make(
        hands={0: [], 1: ["robin", "woodpecker"]},
        deck=["mallard"],
        offer=["blue_tit", "great_tit"],
        discard=["nuthatch", "dunnock", "grey_heron", "house_sparrow"],
        rows={0: {"trees": ["eurasian_jay"]}},
        turn=0,
    )
    # Hand-built states start with every card in the round-1 deck's pool, so the other
    # seat's two cards are drawn ones, as in a real game.
    act(s, 0, "draw_card")  # the last card: round 2, a new deck from discard + offer
    assert s.round == 2
    for k in range(20):
        copy = ENGINE.determinize(s, 0, Rng(k))
        assert sorted(copy.hands[1]) == sorted(s.hands[1])
        assert sorted(copy.deck) == sorted(s.deck)
    assert len({tuple(ENGINE.determinize(s, 0, Rng(k)).deck) for k in range(20)}) > 5


def _draft_at_pick(seed: int, pick: int, keep: int = 0) -> State:
    """A 2-player game at the start of draft pick ``pick`` (both seats keep card ``keep``)."""
    s = ENGINE.setup(2, {}, seed)
    while s.pick_no < pick:
        for seat in (0, 1):
            ENGINE.apply(s, seat, ENGINE.legal(s, seat)[keep])
    return s


def test_the_kept_draft_card_is_secret_from_the_passer_until_the_pass() -> None:
    """The Initial Draft: the seat that passed a packet knows its cards, not which one the
    other seat keeps; samples spread the kept card over the packet until the packets are
    passed on, when the card missing from the packet is known to be in that hand."""
    s = _draft_at_pick(seed=5, pick=2)
    passed = sorted(s.packets[1])  # seat 0 passed these at the end of pick 1
    kept = s.packets[1][0]
    ENGINE.apply(s, 1, ENGINE.legal(s, 1)[0])
    in_hand = set()
    for k in range(40):
        copy = ENGINE.determinize(s, 0, Rng(k))
        assert sorted(copy.packets[1] + [c for c in copy.hands[1] if c in passed]) == passed
        in_hand.update(c for c in copy.hands[1] if c in passed)
    assert in_hand == set(passed)
    ENGINE.apply(s, 0, ENGINE.legal(s, 0)[0])  # both kept: the packets are passed on
    for k in range(10):
        assert kept in ENGINE.determinize(s, 0, Rng(k)).hands[1]


def test_states_stored_before_the_knowledge_table_still_load() -> None:
    """A state stored without ``unseen`` reads with every card in the round-1 deck's pool."""
    import json

    s = next(positions(2, 1))
    data = json.loads(ENGINE.encode(s))
    del data["unseen"]
    old = ENGINE.decode(json.dumps(data).encode())
    assert old.unseen == [[1] * N_CARDS for _ in range(3)]
    assert ENGINE.view(ENGINE.determinize(old, 0, Rng(1)), 0) == ENGINE.view(s, 0)

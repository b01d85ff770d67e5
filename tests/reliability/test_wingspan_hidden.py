"""Hidden information: determinize, score previews, secret setup choices.

The engine contract's ``determinize(state, seat, rng)`` redraws everything a
seat cannot see; score previews run on its sample, so a preview never tells
what is hidden. Secret simultaneous setup choices leave no trace in another
seat's view (or the log's public labels) before the reveal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from services.core.engine.contract import Action
from services.core.engine.rng import Rng
from services.wingspan.rules import acts
from services.wingspan.rules.cards import N_BASE, NB, NBONUS
from services.wingspan.rules.engine import bonus_cards, deck_birds
from services.wingspan.rules.hidden import clone
from services.wingspan.rules.scenario import birds_being_placed
from services.wingspan.rules.state import OVER, PLAY_PHASE, SETUP, State
from tests.wingspan.test_wingspan_invariants import _check
from tests.wingspan.wingspan_helpers import E, bird, owl_decision

# Random games, floods and faults: left out of make test-fast.
pytestmark = [pytest.mark.reliability, pytest.mark.slow]

SEATS_AND_SPECTATOR = (0, 1, 2, None)


# ------------------------------------------------------------------ helpers
def random_states(players: int, seed: int, every: int = 7) -> Iterator[State]:
    """Snapshots (copies) of one random game, every ``every`` decisions, from
    the first setup decision to the end."""
    s = E.setup(players, {"swift_start": seed % 2 == 1}, seed)
    chooser = Rng(seed * 7 + 1)
    step = 0
    while True:
        if step % every == 0 or s.phase == SETUP or E.is_over(s):
            yield clone(s)
        if E.is_over(s):
            return
        seats = E.to_act(s)
        seat = seats[chooser.below(len(seats))]
        legal = E.legal(s, seat)
        E.apply(s, seat, legal[chooser.below(len(legal))])
        step += 1


def scramble(s: State, seat: int | None, r: random.Random) -> State:
    """Another state that differs from ``s`` only in what ``seat`` cannot see:
    the unseen bird cards (deck, discard pile, other hands and setup deals,
    tucked cards) and bonus cards (bonus deck and discard, other seats' bonus
    cards, setup pairs and offer) dealt again at random, other seats' secret
    setup choices made again, a new generator. Written independently of the
    engine's sampler: Python's generator, its own order of places."""
    t = clone(s)
    n = s.players
    me = seat if seat is not None else -1
    others = [p for p in range(n) if p != me]
    final = s.phase == OVER
    present = set(s.bird_deck) | set(s.bird_discard) | set(s.tray) | set(s.draft)
    for p in range(n):
        present |= set(s.hands[p]) | set(s.setup_birds[p])
        present |= {b for row in s.rows[p] for b in row}
    present |= set(birds_being_placed(s))
    tucked = [b for b in deck_birds(s.options) if b not in present]  # gone, unseen
    places = (
        [t.bird_deck, t.bird_discard]
        + [t.hands[p] for p in others]
        + [t.setup_birds[p] for p in others]
    )
    unseen = [b for place in places for b in place] + tucked
    r.shuffle(unseen)
    for place in reversed(places):
        size = len(place)
        place[:] = unseen[:size]
        del unseen[:size]
    offer_seen = me >= 0 and s.bonus_offer and s.phase == PLAY_PHASE and E.to_act(s) == [me]
    bplaces = [t.bonus_deck, t.bonus_discard] + [t.setup_bonus[p] for p in others]
    if not final:
        bplaces += [t.bonus_cards[p] for p in others]
    if not offer_seen:
        bplaces.append(t.bonus_offer)
    bunseen = [k for place in bplaces for k in place]
    r.shuffle(bunseen)
    for place in bplaces:
        size = len(place)
        place[:] = bunseen[:size]
        del bunseen[:size]
    if s.phase == SETUP:
        for p in others:
            stage = s.setup_stage[p]
            kept = sorted(r.sample(t.setup_birds[p], r.randint(0, 5))) if stage >= 1 else []
            t.setup_kept[p] = kept
            t.setup_food[p] = sorted(r.sample(range(5), 5 - len(kept))) if stage >= 2 else []
    t.rng = Rng(r.getrandbits(64))
    return t


def previews(s: State, seat: int, sample_seed: int) -> list[int]:
    """The seat's total after each of its legal actions, on the determinized
    copy, as score previews compute it."""
    sample = E.determinize(s, seat, Rng(sample_seed))
    encoded = E.encode(sample)
    out = []
    for action in E.legal(s, seat):
        trial = E.apply(E.decode(encoded), seat, action)
        out.append(next(x.total for x in E.score(trial).seats if x.seat == seat))
    return out


def seats_of(s: State) -> list[int | None]:
    return [*range(s.players), None]


# ------------------------------------------------------- determinize itself
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_determinize_keeps_everything_the_seat_sees(players):
    """Contract (determinize): the copy shows the seat exactly its own view, its
    legal actions are the same, the card counts still add up (tucked cards
    included), and the original state is untouched."""
    deck_size = {0: N_BASE, 1: NB}
    for seed in range(2):
        for s in random_states(players, seed, every=11):
            before = E.encode(s)
            for seat in seats_of(s):
                copy = E.determinize(s, seat, Rng(seed + 99))
                assert E.encode(s) == before
                assert E.view(copy, seat) == E.view(s, seat)
                if seat is not None:
                    assert [a.key() for a in E.legal(copy, seat)] == [
                        a.key() for a in E.legal(s, seat)
                    ]
                    if seat in E.to_act(s):
                        E.apply(clone(copy), seat, E.legal(s, seat)[0])  # accepted
                _check(copy, deck_size[seed % 2], NBONUS)
                assert E.to_act(copy) == E.to_act(s)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_determinized_sample_ignores_the_true_hidden_information(players):
    """Contract (determinize): two states that differ only in what the seat
    cannot see (deck and discard order and contents, other hands, tucked
    cards, bonus deck, other seats' bonus cards, secret setup choices, the
    generator) give the identical sample, and so identical score previews,
    for the same rng."""
    r = random.Random(players)
    checked = 0
    for s in random_states(players, 5 + players, every=9):
        for seat in seats_of(s):
            other = scramble(s, seat, r)
            assert E.view(other, seat) == E.view(s, seat)
            one = E.encode(E.determinize(s, seat, Rng(1234)))
            two = E.encode(E.determinize(other, seat, Rng(1234)))
            assert one == two
            if seat is not None and E.legal(s, seat):
                assert previews(s, seat, 77) == previews(other, seat, 77)
                checked += 1
    assert checked > 20


def test_determinize_redraws_the_hidden_information():
    """The sample is not the truth: other hands, the deck order and the
    generator change with the rng (while the seat's own hand does not)."""
    s = next(x for x in random_states(3, 4, every=40) if x.phase == PLAY_PHASE and x.round >= 1)
    hands, decks, gens = set(), set(), set()
    for k in range(20):
        copy = E.determinize(s, 0, Rng(k))
        assert copy.hands[0] == s.hands[0]
        hands.add(tuple(copy.hands[1]))
        decks.add(tuple(copy.bird_deck))
        gens.add(copy.rng.state)
    assert len(hands) > 10 and len(decks) == 20 and len(gens) == 20
    assert s.rng.state not in gens


def test_determinize_during_setup_redraws_other_seats_deals_and_choices():
    """Secret setup choices not yet revealed are redrawn: another seat's dealt
    birds, how many and which it kept, its food and its bonus pair; the seat's
    own deal and choices stay."""
    s = E.setup(3, {}, 21)
    for seat in (0, 1):
        E.apply(s, seat, E.legal(s, seat)[-1])  # keep all 5 birds
        E.apply(s, seat, E.legal(s, seat)[0])
    kept = set()
    for k in range(30):
        copy = E.determinize(s, 0, Rng(k))
        assert (copy.setup_birds[0], copy.setup_kept[0], copy.setup_food[0]) == (
            s.setup_birds[0],
            s.setup_kept[0],
            s.setup_food[0],
        )
        assert set(copy.setup_kept[1]) <= set(copy.setup_birds[1])
        assert len(copy.setup_food[1]) == 5 - len(copy.setup_kept[1])
        kept.add(len(copy.setup_kept[1]))
    assert len(kept) >= 3


# -------------------------------------------------- previews hide the deck
def test_predator_look_preview_is_not_a_function_of_the_real_top_card():
    """Hidden information in score previews: the preview of a "look at the top
    card, tuck it if small enough" power is computed on a determinized copy, so
    it is the same whether the real top card qualifies or not (on the true
    state, even reseeded, it showed +1 exactly when the card qualified)."""
    seen = set()
    for seed in range(41):
        yes = owl_decision(seed, True)
        no = owl_decision(seed, False)
        now = E.score(yes).seats[0].total
        assert E.score(no).seats[0].total == now
        preview = previews(yes, 0, seed)
        assert previews(no, 0, seed) == preview
        seen.add(preview[0] - now)
        # the leak being fixed: the true state's own deck decides the outcome
        assert E.score(E.apply(clone(yes), 0, E.legal(yes, 0)[0])).seats[0].total == now + 1
        assert E.score(E.apply(clone(no), 0, E.legal(no, 0)[0])).seats[0].total == now
    assert seen == {0, 1}


# ------------------------------------------------ secret setup decisions
def _script(legal: list[Action], stage: int, choice: tuple[int, int, int]) -> Action:
    """The choice's option at this stage: birds by how many are kept (the
    ``which``-th subset of that size), food and bonus by index."""
    keep, food_pick, bonus_pick = choice
    if stage == 0:
        subsets = [a for a in legal if len(a.arg("birds")) == keep]
        return subsets[food_pick % len(subsets)]
    if stage == 1:
        return legal[food_pick % len(legal)]
    return legal[bonus_pick % len(legal)]


CHOICES = [(0, 0, 0), (5, 0, 1), (2, 0, 0), (2, 3, 1), (3, 7, 0), (1, 2, 1), (4, 1, 0)]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_secret_setup_choices_leave_no_trace_before_the_reveal(players):
    """Setup is secret and simultaneous (summary: 各プレイヤーごとの準備): for each
    seat, whatever it keeps (0, some or 5 birds, any food, either bonus card),
    every other seat's view and the spectator's are identical after each of
    its decisions until the reveal, and so are the public labels of its
    decisions and their number (a seat keeping 0 or 5 birds still confirms its
    only food choice)."""
    for target in range(players):
        traces = []
        for choice in CHOICES:
            s = E.setup(players, {}, 40 + target)
            for p in range(players):  # the others have chosen their birds
                if p != target:
                    E.apply(s, p, E.legal(s, p)[p % 3])
            trace = []
            stage = 0
            while target in E.to_act(s):
                legal = E.legal(s, target)
                action = _script(legal, stage, choice)
                assert action.secret
                assert {a.public_label for a in legal} == {action.public_label}
                E.apply(s, target, action)
                stage += 1
                trace.append(action.public_label)
                trace.append([E.view(s, q) for q in [*range(players), None] if q != target])
            assert stage == 3 and s.phase == SETUP
            traces.append(trace)
        assert all(trace == traces[0] for trace in traces)


def test_setup_reveal_shows_the_choices():
    """Once every seat has chosen, the choices are revealed: the views then
    differ (the test above compares views that could differ)."""
    totals = set()
    for choice in CHOICES[:2]:
        s = E.setup(2, {}, 3)
        for stage in range(3):
            E.apply(s, 0, _script(E.legal(s, 0), stage, choice))
        while 1 in E.to_act(s):
            E.apply(s, 1, E.legal(s, 1)[0])
        assert s.phase != SETUP
        totals.add(E.view(s, 1)["players"][0]["food_total"])
    assert totals == {5, 0}


def test_public_labels_of_secret_actions_name_nothing_hidden():
    """Secret actions (discarding or tucking a card from hand, keeping a bonus
    card, the setup choices) show other seats one public label whatever card
    was chosen."""
    target = bird("Barred Owl")
    assert len({acts.DISCARD_CARD[b].public_label for b in range(NB)}) == 1
    assert len({acts.tuck(b, target).public_label for b in range(NB)}) == 1
    assert len({acts.KEEP_BONUS[k].public_label for k in range(NBONUS)}) == 1
    assert all(a.secret for a in (*acts.DISCARD_CARD, *acts.KEEP_BONUS, acts.tuck(0, target)))
    assert len({acts.keep_birds(tuple(range(k))).public_label for k in range(6)}) == 1
    assert len({acts.keep_food(tuple(range(k))).public_label for k in range(6)}) == 1


@pytest.mark.parametrize("players", [2, 4])
def test_secret_actions_share_one_public_label_per_kind(players):
    """In random games, at every decision, the secret options of one kind all
    carry the same public label: what others see never depends on the card."""
    for s in random_states(players, 60 + players, every=1):
        for seat in E.to_act(s):
            labels: dict[str, set[str]] = {}
            for a in E.legal(s, seat):
                if a.secret:
                    assert a.public_label
                    labels.setdefault(a.kind, set()).add(a.public_label)
            assert all(len(v) == 1 for v in labels.values())
        if s.phase == OVER:
            break


def test_bonus_cards_of_the_options_are_the_pool():
    """The sampler draws bonus cards from this game's bonus deck (the language
    cards are out when the option says so)."""
    s = E.setup(2, {"no_language_bonus_cards": True}, 2)
    pool = set(bonus_cards(s.options))
    for k in range(10):
        copy = E.determinize(s, None, Rng(k))
        assert set(copy.bonus_deck) | {x for d in copy.setup_bonus for x in d} == pool

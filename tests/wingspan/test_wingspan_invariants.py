"""Invariants checked after every decision of many random games."""

from __future__ import annotations

import pytest

from services.core.engine import Rng
from services.wingspan.rules import ENGINE as E
from services.wingspan.rules.cards import LIMIT, N_BASE, NB, NBONUS
from services.wingspan.rules.scenario import birds_being_placed


def _check(s, deck_size, bonus_size):
    n = s.players
    boards = [b for p in range(n) for row in s.rows[p] for b in row]
    assert len(boards) == len(set(boards))
    for p in range(n):
        assert all(len(row) <= 5 for row in s.rows[p])
        assert s.eggs_by_seat[p] == sum(s.eggs[b] for row in s.rows[p] for b in row)
        assert all(f >= 0 for f in s.food[p])
    for b in boards:
        assert 0 <= s.eggs[b] <= LIMIT[b]
    limbo = birds_being_placed(s)
    cards = (
        list(s.bird_deck)
        + list(s.bird_discard)
        + list(s.tray)
        + [b for h in s.hands for b in h]
        + boards
        + list(s.draft)
        + limbo
        + [b for d in s.setup_birds for b in d]
    )
    assert len(cards) == len(set(cards))
    assert len(cards) + sum(s.tucked) == deck_size
    assert len(s.tray) <= 3
    # official rule: the feeder is rolled again the moment its last die is taken
    assert 1 <= len(s.feeder) <= 5
    bonus = (
        list(s.bonus_deck)
        + list(s.bonus_discard)
        + [k for b in s.bonus_cards for k in b]
        + list(s.bonus_offer)
        + [k for d in s.setup_bonus for k in d]
    )
    assert sorted(bonus) == sorted(set(bonus)) and len(bonus) == bonus_size


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_hold_through_random_games(players):
    for seed in range(4):
        options = {"swift_start": seed % 2 == 1, "no_language_bonus_cards": seed == 2}
        s = E.setup(players, options, 100 + seed)
        deck_size = NB if options["swift_start"] else N_BASE
        bonus_size = NBONUS - (4 if seed == 2 else 0)
        chooser = Rng(seed)
        while not E.is_over(s):
            _check(s, deck_size, bonus_size)
            seats = E.to_act(s)
            seat = seats[chooser.below(len(seats))]
            acts = E.legal(s, seat)
            E.apply(s, seat, acts[chooser.below(len(acts))])
        _check(s, deck_size, bonus_size)

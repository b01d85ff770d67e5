"""Random full games, determinism, rejected actions, hidden information."""

from __future__ import annotations

import json

import pytest

from services.core.engine import Action, IllegalAction, OptionError, Rng
from services.core.engine.playout import random_playout
from services.wingspan.rules import ENGINE
from services.wingspan.rules.cards import NAME

E = ENGINE
VARIANTS = [
    {},
    {"goal_side": "blue"},
    {"swift_start": True},
    {"no_language_bonus_cards": True, "no_powerful_birds": True},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_reach_the_end(players, seed):
    """Random full games of 2 to 5 players end after 4 rounds with valid scores."""
    options = VARIANTS[(seed + players) % len(VARIANTS)]
    state, board, decisions = random_playout(E, players, seed, options)
    assert E.is_over(state) and board.final and decisions > 0
    assert E.to_act(state) == [] and E.legal(state, 0) == []
    assert sorted(s.seat for s in board.seats) == list(range(players))
    for seat_score in board.seats:
        assert seat_score.total == sum(seat_score.categories.values())
        assert list(seat_score.categories) == [
            "birds",
            "bonus_cards",
            "goals",
            "eggs",
            "cached_food",
            "tucked_cards",
        ]
        assert all(v >= 0 for v in seat_score.categories.values())
        assert seat_score.tiebreak == (sum(state.food[seat_score.seat]),)
    assert min(s.rank for s in board.seats) == 1
    # 26 action cubes per player were used: 8 + 7 + 6 + 5
    assert state.round == 4 and all(r for r in state.goal_points)
    with pytest.raises(IllegalAction) as err:
        E.apply(state, 0, Action("take_action", (("habitat", "HABITAT_FOREST"),)))
    assert err.value.reason == "WINGSPAN_OVER"


def test_each_player_takes_26_turns():
    """Summary ゲームの全体像: 8+7+6+5 = 26 actions per player."""
    state = E.setup(3, {}, 11)
    chooser = Rng(5)
    turns = [0, 0, 0]
    while not E.is_over(state):
        seats = E.to_act(state)
        seat = seats[chooser.below(len(seats))]
        acts = E.legal(state, seat)
        a = acts[chooser.below(len(acts))]
        turn = E.view(state, None)["decision"]["kind"] == "DECISION_KIND_TURN"
        if a.kind in ("take_action",) or (a.kind == "play_bird" and turn):
            turns[seat] += 1
        E.apply(state, seat, a)
    assert turns == [26, 26, 26]


def _replay(players, seed, options, steps=None):
    state = E.setup(players, options, seed)
    chooser = Rng(seed * 7 + 1)
    out = [E.encode(state)]
    n = 0
    while not E.is_over(state) and (steps is None or n < steps):
        seats = E.to_act(state)
        seat = seats[chooser.below(len(seats))]
        acts = E.legal(state, seat)
        state = E.apply(state, seat, acts[chooser.below(len(acts))])
        out.append(E.encode(state))
        n += 1
    return out


def test_rejected_action_leaves_state_unchanged():
    state = E.setup(2, {}, 4)
    chooser = Rng(8)
    checked = 0
    while not E.is_over(state) and checked < 300:
        seats = E.to_act(state)
        before = E.encode(state)
        other = [p for p in range(2) if p not in seats]
        for p in other:
            with pytest.raises(IllegalAction) as err:
                E.apply(state, p, E.legal(state, seats[0])[0])
            assert err.value.reason == "NOT_YOUR_TURN"
        for bogus in (
            Action("play_bird", (("bird", 999), ("habitat", "HABITAT_FOREST"))),
            Action("lay_egg", (("bird", -5),)),
            Action("nonsense"),
        ):
            with pytest.raises(IllegalAction) as err:
                E.apply(state, seats[0], bogus)
            assert err.value.reason == "NOT_LEGAL"
        assert E.encode(state) == before
        seat = seats[chooser.below(len(seats))]
        acts = E.legal(state, seat)
        E.apply(state, seat, acts[chooser.below(len(acts))])
        checked += 1


def test_options_are_validated():
    with pytest.raises(OptionError) as err:
        E.setup(1, {}, 0)
    assert err.value.field_name == "players"
    with pytest.raises(OptionError):
        E.setup(6, {}, 0)
    with pytest.raises(OptionError) as err:
        E.setup(2, {"goal_side": "red"}, 0)
    assert err.value.field_name == "goal_side"
    with pytest.raises(OptionError):
        E.setup(2, {"swift_start": "yes"}, 0)
    with pytest.raises(OptionError) as err:
        E.setup(2, {"expansion": True}, 0)
    assert err.value.field_name == "expansion"


def _walk_views(players, seed, check):
    state = E.setup(players, {}, seed)
    chooser = Rng(seed)
    while True:
        check(state)
        if E.is_over(state):
            return state
        seats = E.to_act(state)
        seat = seats[chooser.below(len(seats))]
        acts = E.legal(state, seat)
        E.apply(state, seat, acts[chooser.below(len(acts))])


def _birds_in(obj, out):
    """Every value stored under a "bird" key anywhere in a view."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "bird":
                out.add(v)
            else:
                _birds_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _birds_in(v, out)
    return out


def test_views_never_leak_hidden_information():
    """Hands, bonus cards, setup choices, deck order and the generator stay secret."""

    def check(state):
        n = state.players
        for viewer in [None, *range(n)]:
            view = E.view(state, viewer)
            text = json.dumps(view)
            assert str(state.rng.state) not in text
            shown = _birds_in(view, set())
            hidden = set(state.bird_deck)
            for p in range(n):
                if p != viewer:
                    hidden.update(state.hands[p])
                    hidden.update(state.setup_birds[p])
            assert not (shown & hidden)
            assert view["deck_count"] == len(state.bird_deck)
            for p, pv in enumerate(view["players"]):
                if p != viewer:
                    assert pv["hand"] == [] and pv["setup_birds"] == []
                    assert pv["setup_bonus_cards"] == [] and pv["bonus_offer"] == []
                    if not E.is_over(state):
                        assert pv["bonus_cards"] == []
                        assert pv["score_breakdown"][1]["points"] == 0
                else:
                    assert [c["bird"] for c in pv["hand"]] == state.hands[p]
                    assert len(pv["bonus_cards"]) == len(state.bonus_cards[p])

    _walk_views(3, 12, check)


def test_secret_actions_have_public_labels():
    state = E.setup(2, {}, 3)
    for seat in (0, 1):
        for a in E.legal(state, seat):
            assert a.secret and a.public_label and a.label
            for b in state.setup_birds[seat]:
                assert NAME[b] not in a.public_label


def test_score_is_valid_mid_game():
    state = E.setup(2, {}, 21)
    chooser = Rng(1)
    for _ in range(150):
        seats = E.to_act(state)
        seat = seats[chooser.below(len(seats))]
        acts = E.legal(state, seat)
        E.apply(state, seat, acts[chooser.below(len(acts))])
    board = E.score(state)
    assert not board.final
    for s in board.seats:
        assert s.total == sum(s.categories.values()) and s.categories["bonus_cards"] == 0

"""Random full games, determinism, rejected actions, hidden information, invariants."""

from __future__ import annotations

import json

import pytest
from skygarden_helpers import count_components, expected_components, random_game_states

from services.core.engine import Action, IllegalAction, ScoreBoard
from services.core.engine.playout import random_playout
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D

CATEGORIES = [
    "birds",
    "special_birds",
    "eggs",
    "milestones",
    "event_card",
    "standby",
    "additional_area",
]


def _check_final(board: ScoreBoard, players: int) -> None:
    assert board.final
    assert len(board.seats) == players
    for s in board.seats:
        assert list(s.categories) == CATEGORIES
        assert s.total == sum(s.categories.values())
        assert all(v >= 0 for v in s.categories.values())
        assert s.rank >= 1
    if players == 1:  # Solo Rules: a win is a target reached
        assert board.solo is not None
        assert board.winners == ([0] if board.solo.won else [])
    else:
        assert board.solo is None
        assert board.winners


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_full_games_end_with_valid_scores(players: int, seed: int) -> None:
    """Game End and Final Scoring: uniformly random games of every player count finish."""
    state, board, decisions = random_playout(ENGINE, players, seed, max_decisions=20_000)
    assert ENGINE.is_over(state)
    assert ENGINE.to_act(state) == []
    assert decisions < 20_000
    _check_final(board, players)
    assert state.round == D.ROUNDS[players]
    if players == 1:
        assert board.solo is not None and board.solo.targets == (130, 150)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("busy", [False, True])
def test_invariants_through_a_random_game(players: int, busy: bool) -> None:
    """Components are conserved, placement rules always hold, legal lists stay small.
    The busy bot rarely ends turns, enters Standby or discards, so games go deep."""
    expected = expected_components()
    biggest = 0
    for st, seat, _action in random_game_states(players, 100 + players, busy=busy):
        assert count_components(st) == expected
        biggest = max(biggest, len(ENGINE.legal(st, seat)))
        for p in st.players:
            assert 0 <= p.funds <= D.FUNDS_MAX
            assert 0 <= p.egg_marker <= D.EGG_MAX
            for ai, a in enumerate(p.areas):
                assert not (a.tree and a.lake)
                if st.turn.pending and st.turn.pending[0] == ("adjust", ai):
                    continue
                cap = D.AREA_BASE + (D.AREA_BONUS if a.tree or a.lake else 0)
                assert sum(D.SIZE[i] * c for i, c in enumerate(a.birds)) <= cap
                assert all(c <= 1 for c in a.birds[D.NREG :])
                assert len(a.nest_birds) <= D.NEST_CAP
                for bird in a.nest_birds:
                    assert a.birds[bird] >= a.nest_birds.count(bird)
    assert biggest < 300


def test_rejected_actions_leave_the_state_unchanged() -> None:
    """apply validates first: IllegalAction with a reason, state byte-identical."""
    for i, (st, seat, _action) in enumerate(random_game_states(2, 5)):
        if i % 10:
            continue
        before = ENGINE.encode(st)
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(st, seat, Action("move_owner", (("space", 99),)))
        assert err.value.reason == "NOT_LEGAL"
        others = [s for s in range(2) if s not in ENGINE.to_act(st)]
        for other in others:
            with pytest.raises(IllegalAction) as err:
                ENGINE.apply(st, other, Action("end_turn"))
            assert err.value.reason == "NOT_YOUR_TURN"
        assert ENGINE.encode(st) == before
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(st, 0, Action("end_turn"))
    assert err.value.reason in ("SKYGARDEN_OVER", "NOT_YOUR_TURN", "NOT_LEGAL")


def test_game_over_rejects_everything() -> None:
    """After the end, every action is refused with SKYGARDEN_OVER."""
    state, _, _ = random_playout(ENGINE, 3, 4)
    before = ENGINE.encode(state)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, Action("end_turn"))
    assert err.value.reason == "SKYGARDEN_OVER"
    assert ENGINE.encode(state) == before
    assert all(ENGINE.legal(state, s) == [] for s in range(3))


def _json_only(value) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str)
            _json_only(v)
    elif isinstance(value, list):
        for v in value:
            _json_only(v)
    else:
        assert isinstance(value, str | int | bool), value
        assert value is not None


@pytest.mark.parametrize("players", [2, 4])
def test_views_hide_other_seats_event_cards(players: int) -> None:
    """Setup step 15 (secret, simultaneous choice): no view shows another seat's dealt
    cards, nor its kept card before every seat has chosen, nor the generator state;
    once all have chosen every view shows every kept card. Everything is JSON-like."""
    for i, (st, _seat, _action) in enumerate(random_game_states(players, 21)):
        if i % 7 and st.phase != "event":
            continue
        for viewer in [None, *range(players)]:
            view = ENGINE.view(st, viewer)
            _json_only(view)
            text = json.dumps(view)
            assert str(st.rng) not in text
            for other, p in enumerate(st.players):
                sv = view["seats"][other]
                if other == viewer:
                    continue
                assert sv["dealt_events"] == []
                if st.phase != "event":
                    assert sv["event_card"] == D.EVENT_IDS[p.event_card]
                    assert sv["event_marker"] >= 0
                    continue
                assert sv["event_card"] == ""
                assert sv["event_marker"] == -1
                assert sv["event_birds"] == []
                assert sv["event_kept"] == (p.event_card >= 0)


def test_view_shows_event_cards_at_the_end() -> None:
    """Event Cards: every kept card is face up at final scoring."""
    state, board, _ = random_playout(ENGINE, 3, 9)
    view = ENGINE.view(state, None)
    assert view["phase"] == "PHASE_GAME_OVER"
    for seat, p in enumerate(state.players):
        assert view["seats"][seat]["event_card"] == D.EVENT_IDS[p.event_card]
        assert view["seats"][seat]["event_vp"] == board.seats[seat].categories["event_card"]
    assert view["winners"] == board.winners

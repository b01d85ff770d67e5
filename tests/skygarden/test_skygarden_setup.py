"""Setup: board, player setup, funds, the secret Event-card choice, options."""

from __future__ import annotations

from collections import Counter

import pytest
from skygarden_helpers import act, count_components, expected_components, started

from services.core.engine import OptionError
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_board_setup_steps_3_to_12(players: int) -> None:
    """Board Setup 3-12: 3A+3B+2C+1D milestones, bonus birds, Forest chips with birds,
    a 19-space track from 14 green + 4 blue + the round-1 chip, special cards."""
    st = ENGINE.setup(players, {}, 42)
    letters = Counter(D.TILE_LETTER[t] for t in st.milestone_tiles)
    assert letters == Counter(D.MS_DRAW)
    assert len(set(st.milestone_tiles)) == 9
    assert st.bonus_birds == [1] * D.NREG
    assert len(st.forest.chips) == 2
    for chip in st.forest.chips:
        assert (
            chip.chip_bird < D.NREG and chip.bird == chip.chip_bird
        )  # green chip with its bird from the supply
    track = st.track
    assert len(track) == 19
    assert sum(1 for c in track if c < D.BLUE_BASE) == 14
    assert sorted(c for c in track if D.BLUE_BASE <= c < D.ORANGE_BASE) == [
        D.BLUE_BASE + i for i in range(4)
    ]
    assert [c for c in track if c >= D.ORANGE_BASE] == [D.ORANGE_BASE + 1]
    greens = Counter(c for c in track if c < D.BLUE_BASE) + Counter(
        c.chip_bird for c in st.forest.chips
    )
    assert greens == Counter(D.GREEN)
    assert st.special_left == list(D.SPECIAL_TOKENS)
    assert st.round == 1
    assert st.rounds == D.ROUNDS[players]
    assert count_components(st) == expected_components()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_player_setup_steps_13_to_21(players: int) -> None:
    """Player Setup 13-21 and Funds: starting setup card (nest, tree, lake), 2 funds,
    Egg marker on 0, Employee on the dotted start space, 2 Event cards dealt."""
    st = ENGINE.setup(players, {}, 7)
    dealt = []
    for p in st.players:
        nest_a, tree_a, lake_a = D.SETUP_CARDS[p.setup_card]
        areas = p.areas
        assert [ai for ai, a in enumerate(areas) if a.nest] == [nest_a]
        assert [ai for ai, a in enumerate(areas) if a.tree] == [tree_a]
        assert [ai for ai, a in enumerate(areas) if a.lake] == [lake_a]
        assert all(sum(a.birds) == 0 for a in areas)
        assert p.funds == D.FUNDS_START == 2
        assert p.egg_marker == 0
        assert p.nest_box == [0] * D.BOX_SIZE
        assert p.employee == D.EMP_START and D.EMP_IDS[p.employee] == "P6"
        assert p.milestones_achieved == 0
        assert len(p.dealt_events) == 2
        dealt.extend(p.dealt_events)
        assert p.event_card == -1
    assert len(set(dealt)) == len(dealt)
    assert len({p.setup_card for p in st.players}) == players
    assert st.forest.trees == D.TREES_TOTAL - players
    assert st.forest.nests == D.NESTS_TOTAL - players


@pytest.mark.parametrize("players", [1, 3, 4])
def test_initial_standby_order_is_random_and_complete(players: int) -> None:
    """Round Flow / AMBIGUITIES 6: all Owner tokens start on the Standby track in a
    random order; the bottom (1st) token plays first."""
    orders = set()
    for seed in range(12):
        st = started(players, seed)
        slots = [p.standby_slot for p in st.players]
        assert sorted(slots) == list(range(players))
        assert st.turn.seat == slots.index(0)
        orders.add(tuple(slots))
    if players > 1:
        assert len(orders) > 1


def test_event_choice_is_simultaneous_and_secret() -> None:
    """Setup 15: every seat is asked at once and keeps 1 of its 2 cards in secret (the
    other goes to the box, unseen by others); once every seat has chosen, every kept
    card is face up for every seat and spectators."""
    st = ENGINE.setup(3, {}, 3)
    assert ENGINE.to_act(st) == [0, 1, 2]
    for seat in range(3):
        legal = ENGINE.legal(st, seat)
        assert [a.kind for a in legal] == ["keep_event", "keep_event"]
        assert all(a.secret and a.public_label == f"Seat {seat} kept an Event card" for a in legal)
        assert [a.arg("card") for a in legal] == [
            D.EVENT_IDS[c] for c in st.players[seat].dealt_events
        ]
    dealt = list(st.players[1].dealt_events)
    kept = D.EVENT_IDS[dealt[1]]
    act(st, 1, "keep_event", card=kept)
    assert ENGINE.to_act(st) == [0, 2]
    assert ENGINE.legal(st, 1) == []
    assert st.players[1].dealt_events == dealt, "its owner knows the card it returned"
    assert ENGINE.view(st, 1)["seats"][1]["dealt_events"] == []
    for viewer in (None, 0, 2):
        seat_view = ENGINE.view(st, viewer)["seats"][1]
        assert seat_view["event_kept"] is True
        assert seat_view["event_card"] == ""
    assert ENGINE.view(st, 1)["seats"][1]["event_card"] == kept
    assert ENGINE.view(st, 0)["seats"][0]["dealt_events"] == [
        D.EVENT_IDS[c] for c in st.players[0].dealt_events
    ]
    assert ENGINE.view(st, 1)["seats"][0]["dealt_events"] == []
    act(st, 2, "keep_event", card=D.EVENT_IDS[st.players[2].dealt_events[0]])
    assert st.phase == "event"
    # until the last seat has chosen, no score board counts an Event card
    assert all(s.categories["event_card"] == 0 for s in ENGINE.score(st).seats)
    act(st, 0, "keep_event", card=D.EVENT_IDS[st.players[0].dealt_events[0]])
    assert st.phase == "play"
    assert ENGINE.to_act(st) == [st.turn.seat]
    for viewer in (None, 0, 1, 2):
        seats = ENGINE.view(st, viewer)["seats"]
        assert [s["event_card"] for s in seats] == [D.EVENT_IDS[p.event_card] for p in st.players]
        assert seats[1]["event_card"] == kept
        assert all(s["dealt_events"] == [] for s in seats), "returned cards stay unseen"
    board = ENGINE.score(st)
    for seat, p in enumerate(st.players):
        assert board.seats[seat].categories["event_card"] == D.EVENT_VP[p.event_card][0]


def test_bad_player_counts_and_options() -> None:
    """Setup options: 1-4 players; no options exist, unknown names are refused."""
    for bad in (0, 5, -1):
        with pytest.raises(OptionError) as err:
            ENGINE.setup(bad, {}, 1)
        assert err.value.field_name == "players"
    with pytest.raises(OptionError):
        ENGINE.setup(True, {}, 1)
    with pytest.raises(OptionError) as err:
        ENGINE.setup(3, {"variant": "x"}, 1)
    assert err.value.field_name == "variant"
    assert ENGINE.name == "skygarden"
    assert (ENGINE.min_players, ENGINE.max_players) == (1, 4)


def test_seed_drives_every_random_choice() -> None:
    """All randomness comes from the seeded generator in the state."""
    a = ENGINE.encode(ENGINE.setup(4, {}, 5))
    b = ENGINE.encode(ENGINE.setup(4, {}, 5))
    c = ENGINE.encode(ENGINE.setup(4, {}, 6))
    assert a == b
    assert a != c

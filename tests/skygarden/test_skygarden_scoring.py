"""Game End and Final Scoring: every category, the Event card, shared ties."""

from __future__ import annotations

from skygarden_helpers import (
    FLAMINGO,
    HAWK,
    JAVA,
    OWL,
    RIFLE,
    SHIM,
    SWAN,
    TOUCAN,
    WWE,
    blank,
    set_event,
    started,
)

from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D


def _scored_position() -> tuple[dict, dict]:
    st = started(3, seed=2)
    p = st.players[0]
    blank(p)
    a = p.areas
    a[0].tree = 1
    a[0].birds[SHIM], a[0].birds[WWE], a[0].birds[HAWK] = 2, 1, 1  # 1 set x4 + Hawk 3 = 7
    a[1].lake = 1
    a[1].birds[FLAMINGO], a[1].birds[TOUCAN], a[1].birds[SWAN] = 1, 1, 1  # 3 + 3 + 5 = 11
    a[2].birds[SHIM], a[2].birds[WWE], a[2].birds[HAWK] = 1, 1, 1  # 2 + 2 = 4
    a[3].birds[FLAMINGO], a[3].birds[TOUCAN], a[3].birds[JAVA] = 1, 1, 1  # 2 + 2; Java 2
    a[4].lake = 1
    a[4].birds[SWAN], a[4].birds[HAWK] = 1, 1  # 5 + 2 (a lake does not help a Hawk) = 7
    a[5].tree = 1
    a[5].birds[FLAMINGO], a[5].birds[SWAN] = 1, 1  # 2 + 3 (a tree helps neither) = 5
    p.additional_area = "tree"
    a[D.AX].tree = 1
    a[D.AX].birds[OWL], a[D.AX].birds[RIFLE] = 1, 1  # Owl 8 (tree), Riflebird 4
    p.nest_box[SHIM] = p.nest_box[HAWK] = p.nest_box[D.GOLDEN] = 1
    p.egg_marker = 5
    p.milestones_achieved = 4
    set_event(p, "E1")  # Shimaenaga + White-Eye: A3 holds 1 set, A4 none
    p.standby_slot = 1
    return st, p


def test_final_scoring_every_category() -> None:
    """Bird Tokens, Eggs, Milestones, Event Cards, Standby Track, Additional Area."""
    st, _p = _scored_position()
    st.phase = "over"
    cats = ENGINE.score(st).seats[0].categories
    assert cats == {
        "birds": 7 + 11 + 4 + 4 + 7 + 5,
        "special_birds": 2 + 8 + 4,
        "eggs": 3 * D.EGG_POINTS[5],
        "milestones": D.MILESTONE_VP[4],
        "event_card": D.EVENT_VP[D.EVENT_INDEX["E1"]][1],
        "standby": D.STANDBY_VP[1],
        "additional_area": 3,
    }
    assert ENGINE.score(st).final


def test_event_card_points_count_once_the_cards_are_face_up() -> None:
    """Setup step 15 / Event Cards: the kept cards lie face up once every seat has
    chosen, so mid-game score boards count each seat's running Event VP and every
    view shows it; while a seat still chooses, no score board counts any Event card."""
    st, p = _scored_position()
    vp = D.EVENT_VP[D.EVENT_INDEX["E1"]][1]
    board = ENGINE.score(st)
    assert not board.final
    assert board.seats[0].categories["event_card"] == vp
    for viewer in (None, 0, 1):
        seat_view = ENGINE.view(st, viewer)["seats"][0]
        assert seat_view["event_card"] == "E1" and seat_view["event_marker"] == 1
        assert seat_view["event_vp"] == vp
    st.phase = "event"  # the same boards while seat 2 still chooses
    st.players[2].event_card = -1
    assert all(s.categories["event_card"] == 0 for s in ENGINE.score(st).seats)
    assert ENGINE.view(st, 1)["seats"][0]["event_vp"] == -1
    assert ENGINE.view(st, 0)["seats"][0]["event_vp"] == vp
    assert p.event_card == D.EVENT_INDEX["E1"]


def test_eggs_are_tokens_times_egg_points() -> None:
    """Eggs: (egg tokens in the Nest Box) x (Egg points above the Egg marker)."""
    st = started(3)
    p = st.players[0]
    blank(p)
    p.nest_box = [1, 1, 0, 0, 1, 0, 1]
    for space, points in enumerate(D.EGG_POINTS):
        p.egg_marker = space
        assert ENGINE.score(st).seats[0].categories["eggs"] == 4 * points


def test_milestone_track_points() -> None:
    """Milestones: the VP beside the lowest uncovered space (by tiles achieved)."""
    st = started(3)
    p = st.players[0]
    for n, vp in enumerate(D.MILESTONE_VP):
        p.milestones_achieved = n
        assert ENGINE.score(st).seats[0].categories["milestones"] == vp


def test_standby_points_only_on_the_standby_track() -> None:
    """Standby Track: VP of the space the Owner token is on (none on the Main track)."""
    st = started(3)
    for p in st.players:
        assert (
            ENGINE.score(st).seats[st.players.index(p)].categories["standby"]
            == (D.STANDBY_VP[p.standby_slot])
        )
    st.players[0].standby_slot = -1
    st.players[0].track_space = 4
    assert ENGINE.score(st).seats[0].categories["standby"] == 0


def test_ties_are_shared() -> None:
    """In case of a tie, all players tied for the highest score win."""
    st = started(3)
    for seat, p in enumerate(st.players):
        blank(p)
        p.standby_slot = 3
        p.milestones_achieved = 2 if seat < 2 else 1
    board = ENGINE.score(st)
    assert [s.rank for s in board.seats] == [1, 1, 3]
    assert board.winners == [0, 1]
    assert all(s.tiebreak == () for s in board.seats)

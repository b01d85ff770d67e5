"""Game End and Final Scoring, and the Solo Rules' End of Game and Final Scoring."""

from __future__ import annotations

from services.core.engine import ScoreBoard, SeatScore, SoloResult

from . import data as D
from . import hidden
from .economy import event_marker
from .state import GameState, Phase, Player, narea


def seat_categories(st: GameState, p: Player, reveal: bool) -> dict[str, int]:
    """Game End and Final Scoring: one player's categories (Bird Tokens in Your Aviary,
    Eggs, Milestones, Event Cards, Standby Track, Additional Area Tile; AMBIGUITIES
    22). The Event card counts only once the kept cards are face up (Setup step 15)."""
    birds = 0
    specials = 0
    for a in p.areas[: narea(p)]:
        tree, lake = a.tree, a.lake
        b = a.birds
        sets = min(b[x] for x in D.SET_BIRDS)
        if sets:
            per = D.SET_VP_TREE if tree else D.SET_VP_LAKE if lake else D.SET_VP_PLAIN
            birds += sets * per
        for i in range(D.NB):
            c = b[i]
            if c:
                vp = D.VP_TREE[i] if tree else D.VP_LAKE[i] if lake else D.VP_PLAIN[i]
                if i < D.NREG:
                    birds += c * vp
                else:
                    specials += c * vp
    eggs = sum(p.nest_box) * D.EGG_POINTS[p.egg_marker]
    event = 0
    if reveal and p.event_card >= 0:
        event = D.EVENT_VP[p.event_card][event_marker(p)]
    standby = D.STANDBY_VP[p.standby_slot] if p.standby_slot >= 0 else 0
    return {
        "birds": birds,
        "special_birds": specials,
        "eggs": eggs,
        "milestones": D.MILESTONE_VP[p.milestones_achieved],
        "event_card": event,
        "standby": standby,
        "additional_area": D.AX_VP if p.additional_area else 0,
    }


def solo_result(total: int) -> SoloResult:
    """Solo Rules, End of Game: the player aims at 130 VP, then 150 (the rules data's
    targets); reaching one is a win, the highest reached is reported (0: none)."""
    reached = [target for target in D.SOLO_TARGETS if total >= target]
    return SoloResult(
        won=bool(reached), targets=tuple(D.SOLO_TARGETS), target_reached=max(reached, default=0)
    )


def score_board(st: GameState) -> ScoreBoard:
    """Game End and Final Scoring: every seat's categories and total; tied seats share
    the rank (AMBIGUITIES 23); solo adds its target result (Solo Rules)."""
    over = st.phase == Phase.OVER
    revealed = hidden.events_revealed(st)
    seats = []
    for seat, p in enumerate(st.players):
        cats = seat_categories(st, p, revealed)
        seats.append(SeatScore(seat=seat, total=sum(cats.values()), categories=cats))
    board = ScoreBoard(seats=seats, final=over)
    board.rank_seats()
    if st.player_count == 1:
        board.solo = solo_result(seats[0].total)
    return board

"""Turn flow: who plays next, the Owner token on the Main track, Move to Standby, Lucy.

Round Flow and its Important Note About Turn Order (the farthest-behind token
plays), On Your Turn (moving the Owner token), Move to Standby, and the
Two-Player Rules (sections, Lucy).
"""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .breeding import breed
from .chip import take_chip_bird
from .setup import next_round
from .state import GameState, Phase, Player, Step, Token, new_turn


def tokens(st: GameState) -> list[Token]:
    """Two-Player Rules: the tokens on the tracks, the players' and Lucy's."""
    toks = list(st.players)
    if st.lucy is not None:
        toks.append(st.lucy)
    return toks


def lowest_free_slot(st: GameState) -> int:
    """Move to Standby: the lowest Standby space no token holds (AMBIGUITIES 7)."""
    taken = {t.standby_slot for t in tokens(st) if t.standby_slot >= 0}
    for slot in range(D.STANDBY_SLOTS):
        if slot not in taken:
            return slot
    raise RuntimeError("no free Standby space")


def occupied(st: GameState) -> set[int]:
    """On Your Turn: the Main track spaces a token stands on (AMBIGUITIES 9)."""
    return {t.track_space for t in tokens(st) if t.track_space > 0}


def to_standby(st: GameState, tok: Token) -> None:
    """Move to Standby: the token takes the lowest free Standby space and is out of
    this round's Action phase (AMBIGUITIES 8)."""
    tok.standby_slot = -1
    tok.track_space = 0
    tok.standby_slot = lowest_free_slot(st)
    tok.finished_round = True


def lucy_move(st: GameState) -> None:
    """Two-Player Rules: Lucy stops on the next free space, blue ones included, else
    goes to Standby (AMBIGUITIES 21)."""
    lucy = st.lucy
    occ = occupied(st)
    for space in range(lucy.track_space + 1, D.TRACK_LEN + 1):
        if space not in occ:
            lucy.track_space = space
            lucy.standby_slot = -1
            return
    to_standby(st, lucy)


def advance(st: GameState) -> None:
    """Important Note About Turn Order: give the turn to the farthest-behind token
    (waiting Standby tokens first, AMBIGUITIES 8), moving Lucy automatically; when
    every token is done, the next round (Round Flow) or the end (Game End and Final
    Scoring)."""
    while True:
        players = st.players
        if all(p.finished_round for p in players):
            lucy = st.lucy
            if lucy is not None and not lucy.finished_round:
                to_standby(st, lucy)
            if st.round >= st.rounds:
                st.phase = Phase.OVER
                st.turn = new_turn(-1)
                return
            next_round(st)
            continue
        best = -1
        best_key = 1 << 30
        for seat, p in enumerate(players):
            if not p.finished_round:
                key = p.standby_slot if p.track_space == 0 else D.STANDBY_SLOTS + p.track_space
                if key < best_key:
                    best, best_key = seat, key
        lucy = st.lucy
        if lucy is not None and not lucy.finished_round:
            key = lucy.standby_slot if lucy.track_space == 0 else D.STANDBY_SLOTS + lucy.track_space
            if key < best_key:
                lucy_move(st)
                continue
        st.turn = new_turn(best)
        return


def legal_move(st: GameState, seat: int, p: Player, out: list[Action]) -> None:
    """On Your Turn: move the Owner token forward to a free space, or Move to
    Standby (AMBIGUITIES 9); two players: one stop per section (AMBIGUITIES 21)."""
    pos = p.track_space
    occ = occupied(st)
    track = st.track
    if st.player_count == 2:
        sec = p.sections_done
        k = 0
        while sec >> k & 1:
            k += 1
        if k < len(D.SECTIONS):
            start = D.SECTIONS[k][0]
            for space in range(pos + 1, D.TRACK_LEN + 1):
                if space in occ:
                    continue
                s_of = D.SECTION_OF[space]
                if s_of == k or (s_of < 0 and space < start):
                    out.append(A.move_owner(space, track[space - 1]))
            if not out:
                out.append(A.ENTER_STANDBY)
        else:
            out.append(A.ENTER_STANDBY)
        return
    for space in range(pos + 1, D.TRACK_LEN + 1):
        if space not in occ:
            out.append(A.move_owner(space, track[space - 1]))
    out.append(A.ENTER_STANDBY)


def move_owner(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """On Your Turn: the Owner token lands on a space and its chip is resolved: a bird
    chip gives its bird (an orange chip with two available asks which, If the chip is
    orange), a blue chip its actions (solo: once, Solo Rules)."""
    p = st.players[seat]
    t = st.turn
    space = args["space"]
    p.track_space = space
    p.standby_slot = -1
    if st.player_count == 2 and D.SECTION_OF[space] >= 0:
        p.sections_done |= 1 << D.SECTION_OF[space]
    chip = st.track[space - 1]
    t.landed_space = space
    t.chip = chip
    if D.BLUE_BASE <= chip < D.ORANGE_BASE:
        if st.player_count == 1 and st.blue_face_down[chip - D.BLUE_BASE]:
            t.step = Step.AFTER  # a used solo chip: no chip action
        else:
            t.step = Step.CHIP
        return
    t.step = Step.CHIP
    birds = (chip,) if chip < D.BLUE_BASE else D.ORANGE[chip - D.ORANGE_BASE]
    avail = [b for b in birds if st.supply[b] > 0]
    if len(avail) > 1:
        t.bird_choice = avail
    elif avail:
        take_chip_bird(st, avail[0])


def enter_standby(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Move to Standby: the lowest free Standby space, out of this Action phase.

    Solo Rules, Moving to Standby (AMBIGUITIES 24): the breeds happen on entering,
    and Free Actions "may also be performed during a turn when you are transitioning
    to the Standby phase", so the turn stays open (step ``standby``) for free actions,
    such as a milestone those breeds just met, until ``end_turn``; after round 3 that
    is the last chance before final scoring. With more players nothing changes on
    entering Standby, so the turn ends at once (free actions came before it)."""
    p = st.players[seat]
    to_standby(st, p)
    if st.player_count == 1:
        for _ in range(D.SOLO_BREEDS.get(st.round, 0)):
            breed(st, p)
        st.turn.step = Step.STANDBY
        return
    advance(st)


def end_turn(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """On Your Turn: the player ends its turn; the next token plays (Important Note
    About Turn Order)."""
    advance(st)

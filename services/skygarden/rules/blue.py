"""If the chip is blue: advertise, or Purchase a Special Bird Token (also the space
action and the discounted milestone bonus)."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .aviary import fits
from .economy import ad_gain, gain_funds
from .state import GameState, Player, Step, narea


def flip_solo_blue(st: GameState) -> None:
    """Solo Rules: a blue chip used in solo is turned face down for the rest of the
    game."""
    chip = st.turn.chip
    if st.player_count == 1 and D.BLUE_BASE <= chip < D.ORANGE_BASE:
        st.blue_face_down[chip - D.BLUE_BASE] = 1


def legal_blue_chip(st: GameState, p: Player, out: list[Action]) -> None:
    """If the chip is blue: one advertisement (label: the funds it gives now) or one
    special bird; no Employee move, no purchases (AMBIGUITIES 14)."""
    for ad in range(len(D.AD_IDS)):
        out.append(A.advertise(ad, ad_gain(p, ad)))
    legal_specials(st, p, 0, out)


def legal_specials(st: GameState, p: Player, discount: int, out: list) -> None:
    """Purchase a Special Bird Token: every affordable special bird, in every area it
    fits (AMBIGUITIES 13, 15)."""
    areas = p.areas
    for k in range(len(D.SPC)):
        if st.special_left[k] <= 0:
            continue
        cost = max(0, D.SPECIAL_COST[k] - discount)
        if p.funds < cost:
            continue
        bird = D.NREG + k
        for ai in range(narea(p)):
            if fits(areas[ai], bird):
                out.append(A.buy_special(bird, ai, cost))


def advertise(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """If the chip is blue: advertise, gaining the advertisement's funds."""
    p = st.players[seat]
    gain_funds(p, ad_gain(p, D.AD_IDS.index(args["ad"])))
    flip_solo_blue(st)
    st.turn.step = Step.AFTER


def buy_special(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Purchase a Special Bird Token: as a milestone bonus at a discount (AMBIGUITIES
    17), as the blue chip action, or as the space action."""
    p = st.players[seat]
    t = st.turn
    bird = D.BIDX[args["bird"]]
    k = bird - D.NREG
    cost = D.SPECIAL_COST[k]
    if t.pending:  # a birdcage bonus at a discount
        cost = max(0, cost - t.pending[0].amount)
        t.pending.pop(0)
    elif t.step == Step.CHIP and D.BLUE_BASE <= t.chip < D.ORANGE_BASE:  # blue chip
        flip_solo_blue(st)
        t.step = Step.AFTER
    else:  # the space action
        t.space_action_used = True
        t.step = Step.AFTER
    p.funds -= cost
    st.special_left[k] -= 1
    p.areas[args["area"]].birds[bird] += 1

"""The flow's dispatch tables and the loop that runs them.

The flow is a stack of small tasks (the records of ``tasks.py``). A task
code below ``D_BASE`` is procedural: :func:`advance` runs it. A code from
``D_BASE`` up is a decision: its legal list is computed once, cached in the
state under the decision counter, and ``apply`` runs its handler. A
decision with no legal option is dropped; one with exactly one option is
applied at once. The tables are written out in full so a reader
finds every task's rule from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.core.engine.contract import Action

from . import decisions, flow, powers_board, powers_cards, powers_food, powers_meta
from .state import (
    D_ACTIVATE,
    D_BASE,
    D_BONUS,
    D_CHOOSE_FOOD,
    D_CHOOSE_PLAYER,
    D_DISCARD_EOT,
    D_DRAFT,
    D_DRAW,
    D_EGG_COST,
    D_FEEDER_ALL,
    D_KEEP_BONUS,
    D_LAY_EGG,
    D_MOVE,
    D_PAY_EGG,
    D_PAY_FOOD,
    D_PLAY_EXTRA,
    D_REPEAT,
    D_TAKE_DIE,
    D_TRADE,
    D_TUCK,
    D_TURN,
    N_CODES,
    OVER,
    P_DRAFT_END,
    P_END_TURN,
    P_EXTRA_EGG,
    P_PINK,
    P_PLACE,
    P_ROW,
    P_START_TURN,
    P_WHITE,
    State,
)

#: (state, task) -> None: a procedural task (pops itself when done).
Runner = Callable[[State, Any], None]
#: (state, task) -> the legal list of a decision task.
LegalList = Callable[[State, Any], list[Action]]
#: (state, task, a legal action) -> None; changes the state in place.
Handler = Callable[[State, Any, Action], None]

#: Procedural task code -> its runner.
RUNNERS: dict[int, Runner] = {
    P_START_TURN: flow.run_start_turn,
    P_END_TURN: flow.run_end_turn,
    P_ROW: flow.run_row,
    P_PLACE: flow.run_place,
    P_WHITE: flow.run_white,
    P_PINK: flow.run_pink,
    P_EXTRA_EGG: flow.run_extra_egg,
    P_DRAFT_END: flow.run_draft_end,
}
#: Decision task code -> (its legal list, its handler).
DECISIONS: dict[int, tuple[LegalList, Handler]] = {
    D_TURN: (decisions.lg_turn, decisions.ap_turn),
    D_BONUS: (decisions.lg_bonus, decisions.ap_bonus),
    D_TAKE_DIE: (decisions.lg_take_die, decisions.ap_take_die),
    D_LAY_EGG: (decisions.lg_lay_egg, decisions.ap_lay_egg),
    D_DRAW: (decisions.lg_draw, decisions.ap_draw),
    D_PAY_FOOD: (decisions.lg_pay_food, decisions.ap_pay_food),
    D_PAY_EGG: (decisions.lg_pay_egg, decisions.ap_pay_egg),
    D_DISCARD_EOT: (decisions.lg_discard_eot, decisions.ap_discard_eot),
    D_ACTIVATE: (powers_meta.lg_activate, powers_meta.ap_activate),
    D_REPEAT: (powers_meta.lg_repeat, powers_meta.ap_repeat),
    D_CHOOSE_FOOD: (powers_food.lg_choose_food, powers_food.ap_choose_food),
    D_FEEDER_ALL: (powers_food.lg_feeder_all, powers_food.ap_feeder_all),
    D_CHOOSE_PLAYER: (powers_food.lg_choose_player, powers_food.ap_choose_player),
    D_TRADE: (powers_food.lg_trade, powers_food.ap_trade),
    D_DRAFT: (powers_cards.lg_draft, powers_cards.ap_draft),
    D_KEEP_BONUS: (powers_cards.lg_keep_bonus, powers_cards.ap_keep_bonus),
    D_EGG_COST: (powers_cards.lg_egg_cost, powers_cards.ap_egg_cost),
    D_TUCK: (powers_cards.lg_tuck, powers_cards.ap_tuck),
    D_MOVE: (powers_board.lg_move, powers_board.ap_move),
    D_PLAY_EXTRA: (powers_board.lg_play_extra, powers_board.ap_play_extra),
}

# The same tables as lists indexed by task code (the hot path).
RUN: tuple[Runner | None, ...] = tuple(RUNNERS.get(c) for c in range(N_CODES))
LEGAL: tuple[LegalList | None, ...] = tuple(
    DECISIONS[c][0] if c in DECISIONS else None for c in range(N_CODES)
)
APPLY: tuple[Handler | None, ...] = tuple(
    DECISIONS[c][1] if c in DECISIONS else None for c in range(N_CODES)
)
assert set(RUNNERS) | set(DECISIONS) == set(range(N_CODES)) - set(range(P_DRAFT_END + 1, D_BASE))


def advance(s: State) -> None:
    """Run procedural tasks until a decision with options is on top (or the
    game is over); cache that decision's legal list. Summary ゲームの進行: a
    decision with a single option is no decision, so it is applied at once."""
    stack = s.stack
    while stack:
        t = stack[-1]
        c = t.code
        if c < D_BASE:
            RUN[c](s, t)
            continue
        acts = LEGAL[c](s, t)
        if not acts:
            stack.pop()
            continue
        if len(acts) == 1:
            APPLY[c](s, t, acts[0])
            continue
        s.legal_cache = (s.decisions, t.seat, tuple(acts))
        return
    s.phase = OVER
    s.legal_cache = None

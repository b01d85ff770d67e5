"""The dispatch tables, written out in full so a reader finds every rule from here:
the legal list of each turn step and of each pending sub-decision, and the handler of
each action kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.core.engine import Action

from . import actions as A
from . import blue, chip, events, flow, free, milestones, purchases, space
from .state import GameState, Pending, Player, Step

#: (state, seat, its player, the list to extend) -> None.
StepLegal = Callable[[GameState, int, Player, list[Action]], None]
#: (state, player, the entry's amount) -> the legal list while that entry is first.
PendingLegal = Callable[[GameState, Player, int], list[Action]]
#: (state, seat, the action's args as a dict) -> None; changes the state in place.
Handler = Callable[[GameState, int, dict[str, Any]], None]


def _legal_standby_step(st: GameState, seat: int, p: Player, out: list) -> None:
    """Solo Rules, Moving to Standby (AMBIGUITIES 24): after the Standby breeds, the
    free actions and the end of the turn."""
    out.append(A.END_TURN)


#: Turn step (``turn["step"]``) -> the decisions it offers before the free actions.
LEGAL_AT_STEP: dict[str, StepLegal] = {
    Step.MOVE: flow.legal_move,
    Step.CHIP: chip.legal_chip_step,
    Step.AFTER: space.legal_after_step,
    Step.STANDBY: _legal_standby_step,
}

#: Pending sub-decision kind -> its legal list (asked before anything else).
LEGAL_FOR_PENDING: dict[str, PendingLegal] = {
    Pending.ADJUST: free.legal_adjust,
    Pending.SPECIAL: milestones.legal_special_bonus,
    Pending.BONUS_BIRD: milestones.legal_bonus_bird,
    Pending.ELEMENTS: milestones.legal_bonus_elements,
    Pending.EGG: milestones.legal_bonus_egg,
}

#: Action kind (the proto ``Action`` oneof field) -> its handler.
APPLY_BY_KIND: dict[str, Handler] = {
    "keep_event": events.keep_event,
    "move_owner": flow.move_owner,
    "enter_standby": flow.enter_standby,
    "choose_chip_bird": chip.choose_chip_bird,
    "move_employee": chip.move_employee,
    "place_bird": chip.place_bird,
    "release_bird": chip.release_bird,
    "buy_nest": purchases.buy_nest,
    "buy_tree": purchases.buy_tree,
    "buy_lake": purchases.buy_lake,
    "buy_forest_bird": purchases.buy_forest_bird,
    "buy_additional_area": purchases.buy_additional_area,
    "advertise": blue.advertise,
    "buy_special": blue.buy_special,
    "breed": space.breed_action,
    "claim_milestone": milestones.claim_milestone,
    "bird_to_forest": free.bird_to_forest,
    "tree_to_forest": free.tree_to_forest,
    "refill_lake": free.refill_lake,
    "nest_add": free.nest_add,
    "nest_remove": free.nest_remove,
    "bonus_bird": milestones.bonus_bird,
    "bonus_element": milestones.bonus_element,
    "bonus_egg": milestones.bonus_egg,
    "skip_bonus": milestones.skip_bonus,
    "end_turn": flow.end_turn,
}
if set(APPLY_BY_KIND) != set(A.KINDS):  # pragma: no cover - a new kind in actions.py
    raise ValueError("every action kind needs exactly one handler")


def legal_turn(st: GameState, seat: int) -> list[Action]:
    """On Your Turn: a pending sub-decision first (Bonuses for Achieving Milestones,
    the adjustment after an area shrinks), an orange chip's bird choice alone (If the
    chip is orange), else the step's decisions followed by the Free Actions."""
    t = st.turn
    p = st.players[seat]
    pending = t.pending
    if pending:
        first = pending[0]
        return LEGAL_FOR_PENDING[first.kind](st, p, first.amount)
    if t.bird_choice:
        return chip.legal_chip_bird_choice(st)
    out: list[Action] = []
    LEGAL_AT_STEP[t.step](st, seat, p, out)
    free.legal_free(st, p, out)
    return out

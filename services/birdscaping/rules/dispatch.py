"""The two dispatch tables: the legal list of each pending step, the handler of
each action kind. Written out in full so a reader finds every rule from here."""

from __future__ import annotations

from collections.abc import Callable

from services.birdscaping.rules import abilities, choose, drafting, flow, payment, setup
from services.birdscaping.rules.actions import KINDS
from services.birdscaping.rules.state import (
    S_ADISCARD,
    S_CHOOSE,
    S_DRAFT,
    S_DSPEND,
    S_DTAKE,
    S_GIVE,
    S_KEEP,
    S_KOFFER,
    S_LIMIT,
    S_ORDER,
    S_OUNTILT,
    S_PAY,
    S_TILT,
    State,
)
from services.core.engine import Action

#: (state, seat asked) -> that seat's legal decisions at this step.
LegalList = Callable[[State, int], list[Action]]
#: (state, seat, a legal action) -> None; changes the state in place.
Handler = Callable[[State, int, Action], None]

#: Pending step (``State.step``) -> its legal list.
LEGAL_AT_STEP: dict[str, LegalList] = {
    S_DRAFT: setup.legal_draft_keep,
    S_GIVE: setup.legal_solo_give,
    S_CHOOSE: choose.legal_choose,
    S_PAY: payment.legal_pay,
    S_ORDER: payment.legal_order,
    S_DTAKE: drafting.legal_take,
    S_DSPEND: drafting.legal_spend,
    S_KEEP: abilities.legal_keep,
    S_TILT: abilities.legal_tilt,
    S_KOFFER: abilities.legal_take_offer,
    S_ADISCARD: abilities.legal_discard,
    S_OUNTILT: abilities.legal_opponent_untilt,
    S_LIMIT: flow.legal_hand_limit,
}

#: Action kind (the proto ``Action`` oneof field) -> its handler.
APPLY_BY_KIND: dict[str, Handler] = {
    "draft_keep": setup.draft_keep,
    "solo_give": setup.solo_give,
    "activate_row": abilities.activate_row,
    "play_card": payment.play_card,
    "pay_discard": payment.pay_discard,
    "pay_spend": payment.pay_spend,
    "order_discard": payment.order_discard,
    "draft_discard": drafting.draft_discard,
    "draft_spend": drafting.draft_spend,
    "draft_spend_done": drafting.draft_spend_done,
    "draft_from_offer": drafting.draft_from_offer,
    "draft_from_discard": drafting.draft_from_discard,
    "draft_from_deck": drafting.draft_from_deck,
    "draft_stop": drafting.draft_stop,
    "untilt": choose.untilt,
    "draw_card": choose.draw_card,
    "forfeit_action": choose.forfeit_action,
    "ability_keep": abilities.ability_keep,
    "ability_tilt": abilities.ability_tilt,
    "ability_take_offer": abilities.ability_take_offer,
    "ability_discard": abilities.ability_discard,
    "opponent_untilt": abilities.opponent_untilt,
    "hand_limit_discard": flow.hand_limit_discard,
}
if set(APPLY_BY_KIND) != set(KINDS):  # pragma: no cover - a new kind in actions.py
    raise ValueError("every action kind needs exactly one handler")

"""Event Cards at Setup (Player Setup, step 15): every seat keeps one of two dealt
cards, at once and in secret (see :mod:`.hidden`)."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from . import hidden
from .flow import advance
from .state import GameState, Phase


def legal_keep_event(st: GameState, seat: int) -> list[Action]:
    """Player Setup, step 15: a seat still choosing may keep either dealt card."""
    if not 0 <= seat < st.player_count:
        return []
    p = st.players[seat]
    if p.event_card >= 0:
        return []
    return [A.keep_event(seat, c) for c in p.dealt_events]


def keep_event(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Player Setup, step 15: keep one dealt Event card in secret; the other goes back
    to the box (``dealt`` still records the pair: its owner knows both). Once every
    seat has kept one, the kept cards are face up (:func:`.hidden.events_revealed`)
    and play begins."""
    p = st.players[seat]
    p.event_card = D.EVENT_INDEX[args["card"]]
    if hidden.events_revealed(st):
        st.phase = Phase.PLAY
        advance(st)

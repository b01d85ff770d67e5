"""The space action: the icon of the Main track space landed on (Breed, Purchase a
Special Bird Token), once a turn after the chip; AMBIGUITIES 5."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .blue import legal_specials
from .breeding import breed, can_breed
from .state import GameState, Player, Step


def icons_active(st: GameState, space: int) -> list[str]:
    """On Your Turn: the space-action icons used at ``space`` in this game
    (AMBIGUITIES 5; none in solo)."""
    return space_icons(st.player_count, space)


def space_icons(players: int, space: int) -> list[str]:
    """On Your Turn: the space-action icons used at ``space`` with ``players`` players
    (AMBIGUITIES 5; none in solo)."""
    if players == 1 or space <= 0:
        return []
    return [icon for icon, low in D.ICONS[space] if players >= low]


def legal_space(st: GameState, p: Player, out: list[Action]) -> None:
    """On Your Turn (AMBIGUITIES 5): the active icons of the space landed on: Breed
    when a nest can lay, a special bird at full cost."""
    for icon in icons_active(st, st.turn.landed_space):
        if icon == "breed":
            if can_breed(p):
                out.append(A.BREED)
        elif icon == "purchase_special_bird":
            legal_specials(st, p, 0, out)


def legal_after_step(st: GameState, seat: int, p: Player, out: list[Action]) -> None:
    """On Your Turn: the chip is done; the space action if not used yet, and end the
    turn."""
    if not st.turn.space_action_used:
        legal_space(st, p, out)
    out.append(A.END_TURN)


def breed_action(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Breed (the space action): every breeding pair lays an egg."""
    breed(st, st.players[seat])
    t = st.turn
    t.space_action_used = True
    t.step = Step.AFTER

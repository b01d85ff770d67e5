"""Sky Garden: what a seat's resources are worth beyond its score, in points.

The score counts the birds in the aviary, eggs, milestones, the Event card,
the Standby space and the Additional Area. It does not count funds, and every
purchase (a nest, a tree, a lake, a Forest bird, the Additional Area, a special
bird, an Employee's 4th and 5th step) is paid with them. Valued at nothing,
funds are spent on anything that scores no less than keeping them: a tree in
an area with no bird that wants one, a lake nobody uses, a paid Employee step
that leads nowhere better. Each fund is worth :data:`FUND` points while the game
runs (a purchase for 2 funds then has to bring more than one point) and nothing
once it is over (funds left at the end score nothing).
"""

from __future__ import annotations

from services.skygarden.rules.state import GameState, Phase

#: Points a fund is worth while the game runs.
FUND = 0.5


def potential(state: GameState, seat: int) -> float:
    """The seat's funds in points (see the module docstring)."""
    if state.phase is Phase.OVER:
        return 0.0
    return FUND * state.players[seat].funds

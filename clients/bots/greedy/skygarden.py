"""Sky Garden: what a seat's resources are worth beyond its score, in points.

The score counts the birds in the aviary, eggs, milestones, the Event card,
the Standby space and the Additional Area. It does not count two things a
seat spends:

* **Funds.** Every purchase (a nest, a tree, a lake, a Forest bird, the
  Additional Area, a special bird, an Employee's 4th and 5th step) is paid with
  them. Valued at nothing, funds are spent on anything that scores no less than
  keeping them: a tree in an area with no bird that wants one, a lake nobody
  uses, a paid Employee step that leads nowhere better. Each fund is worth
  :data:`FUND` points while the game runs (a purchase for 2 funds then has to
  bring more than one point).
* **The track ahead, in the solo game.** Alone on the Main track, every space
  the Owner token jumps over is a chip this round will not give (Move Your
  Owner Token: no moving backward). Each space still ahead is worth
  :data:`SOLO_SPACE` points, so a move has to gain more than the turns it
  skips. With two players each section gives one stop whatever the space
  (AMBIGUITIES 21), and with three or four the other tokens decide who moves
  next, so there the track is worth nothing extra.

Nothing is worth anything once the game is over (funds left at the end score
nothing).
"""

from __future__ import annotations

from services.skygarden.rules import data as D
from services.skygarden.rules.state import GameState, Phase

#: Points a fund is worth while the game runs.
FUND = 0.5
#: Points a Main track space still ahead is worth in the solo game.
SOLO_SPACE = 1.5


def spaces_ahead(state: GameState, seat: int) -> int:
    """The Main track spaces still ahead of the seat's Owner token this round (all
    of them from the Standby track at a round's start, none once it is out)."""
    player = state.players[seat]
    if state.phase != Phase.PLAY or player.finished_round:
        return 0
    return D.TRACK_LEN - player.track_space


def potential(state: GameState, seat: int) -> float:
    """The seat's funds, and alone its track ahead, in points (see the module docstring)."""
    if state.phase == Phase.OVER:
        return 0.0
    worth = FUND * state.players[seat].funds
    if state.player_count == 1:
        worth += SOLO_SPACE * spaces_ahead(state, seat)
    return worth

"""Positions set up by hand, for tests and worked examples: the rules
package's one door into the flow of turns.

A test builds a table by editing the stored fields of a :class:`State`
(hands, boards, food, the feeder) and then calls one of these functions to
let the engine's own flow take it from there; it never writes flow tasks
itself. Every function bumps ``State.decisions``, so no legal list worked
out before the edit is reused, and runs the flow to the next decision.
"""

from __future__ import annotations

from .dispatch import advance
from .state import P_PLACE, State
from .tasks import CHOOSE_TURN, END_TURN, ActivateRow


def start_turn(s: State, seat: int) -> None:
    """Whatever was pending is dropped and ``seat`` is to choose its turn's
    action (summary ②–④ and 1 action per turn), the turn ending as usual."""
    s.turn = seat
    s.stack = [END_TURN[seat], CHOOSE_TURN[seat]]
    s.decisions += 1
    advance(s)


def activate_row(s: State, seat: int, habitat: int) -> None:
    """On top of the pending decision, ``seat`` activates the brown powers of
    its ``habitat`` row, right to left (summary ②–④: activate the row's birds
    after the main step), then returns to what was pending."""
    s.stack.append(ActivateRow(seat, habitat, 0))
    s.decisions += 1
    advance(s)


def birds_being_placed(s: State) -> list[int]:
    """The birds out of a hand and not yet on a board: a bird being played,
    until it enters its habitat."""
    return [t.bird for t in s.stack if t.code == P_PLACE]

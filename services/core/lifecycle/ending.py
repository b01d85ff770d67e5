"""The score board of a game with leavers or an early ending.

* A seat that left ranks below every seat that did not, whatever its points,
  and never wins; the others are ranked by total, then tiebreak, as usual.
* A game ended early (resign, forfeit, a cap) is scored as it stands, with
  ``final`` set.
* An aborted game has no winners and no ranks.
"""

from __future__ import annotations

from roost.common.v1 import common_pb2

from services.core.engine.contract import ScoreBoard
from services.core.lifecycle.record import ABORTED, Life


def adjust(board: ScoreBoard, life: Life) -> ScoreBoard:
    """``board`` (the engine's) with the lifecycle's ending and leavers applied."""
    if life.ending:
        board.final = True
    if life.ending == ABORTED:
        for seat_score in board.seats:
            seat_score.rank = 0
        return board
    if not life.left:
        return board
    left = set(life.left)
    keyed = sorted(
        board.seats, key=lambda s: (s.seat not in left, s.total, s.tiebreak), reverse=True
    )
    previous: tuple[bool, int, tuple[int, ...]] | None = None
    rank = 0
    for position, seat_score in enumerate(keyed, start=1):
        key = (seat_score.seat not in left, seat_score.total, seat_score.tiebreak)
        if key != previous:
            rank, previous = position, key
        seat_score.rank = rank
    return board


def fill_proto(message: common_pb2.ScoreBoard, life: Life, finished: bool) -> None:
    """Set ``ending`` and ``left_seats`` of a ScoreBoard message (winners never
    include a seat that left; an aborted game has none)."""
    if finished:
        message.ending = common_pb2.GameEnding.Value(f"GAME_ENDING_{life.ending or 'NORMAL'}")
    message.left_seats.extend(life.left)
    if life.ending == ABORTED:
        del message.winners[:]
        return
    if life.left:
        kept = [w for w in message.winners if w not in life.left]
        del message.winners[:]
        message.winners.extend(kept)

"""Building a :class:`GameRecord` from what the store holds.

A game's record is its metadata (players, options, seat names, seed), its
event log (every decision's seat, kind, arguments, time, status and seats
asked), its lifecycle record (time control, ending, leavers) and its score
board at the last version. While the game is in progress only its public part
is given: no seed, no view digests, and every secret decision's kind and
arguments left out (what a spectator's GetLog shows). Once it has ended the
record is complete: the seed, every action, and the view and state digests
of every version, computed by replaying the log through the engine
(:func:`services.core.engine.replay.replay`), which also proves that the
record re-simulates to the stored final state.
"""

from __future__ import annotations

from typing import Any

from roost.common.v1 import common_pb2, record_pb2

from services.core.convert import scoreboard_to_proto
from services.core.engine import jsonstate
from services.core.engine.replay import Decision, replay
from services.core.events import OVER, StoredEvent, status_value
from services.core.lifecycle import ending as lifecycle_ending
from services.core.lifecycle.record import Life
from services.core.store import GameMeta

#: The record format's version (GameRecord.format_version).
FORMAT_VERSION = 1


class RecordMismatch(RuntimeError):
    """The stored log does not replay to the stored final state (a bug, never
    a client mistake)."""


def decision_of(event: StoredEvent) -> Decision:
    """A stored event as :func:`replay` reads it."""
    return Decision(
        version=event.version,
        seat=event.seat,
        kind=event.kind,
        args_json=event.args_json,
        over=event.finished,
        to_act=event.to_act,
    )


def canonical_options(options: dict[str, Any]) -> str:
    """Options as canonical JSON (sorted keys, no spaces), as GetLog gives them."""
    return jsonstate.dumps(options, sort_keys=True).decode()


def build_record(
    *,
    game: str,
    game_id: str,
    rules_version: str,
    engine: Any,
    meta: GameMeta,
    state: Any,
    status: str,
    life: Life,
    events: list[StoredEvent],
) -> record_pb2.GameRecord:
    """The game's record: complete once ``status`` is over, public before."""
    complete = status in OVER
    record = record_pb2.GameRecord(
        format_version=FORMAT_VERSION,
        game=game,
        game_id=game_id,
        rules_version=rules_version,
        options_json=canonical_options(meta.options),
        players=meta.players,
        seats=[
            record_pb2.RecordedSeat(
                seat=i,
                name=name,
                identity=meta.identities[i] if i < len(meta.identities) else "",
            )
            for i, name in enumerate(meta.seat_names)
        ],
        seed=meta.seed if complete else 0,
        status=status_value(status),
        complete=complete,
    )
    if life.tc.timed:
        record.time_control.CopyFrom(life.tc.to_proto())
    digests = _view_digests(engine, meta, state, events) if complete else {}
    for event in events:
        hidden = event.secret and not complete
        record.decisions.append(
            record_pb2.RecordedDecision(
                version=event.version,
                seat=event.seat,
                kind="" if hidden else event.kind,
                args_json="" if hidden else event.args_json,
                label=(event.public_label or f"Seat {event.seat} made a secret decision")
                if hidden
                else event.label,
                secret=event.secret,
                time_ms=event.time_ms,
                status=status_value(event.status),
                to_act=event.to_act,
                view_sha256=digests.get(event.version, ("", ""))[0],
                state_sha256=digests.get(event.version, ("", ""))[1],
            )
        )
    if events:
        record.created_ms = events[0].time_ms
        if complete:
            record.ended_ms = events[-1].time_ms
    board = scoreboard_to_proto(lifecycle_ending.adjust(engine.score(state), life))
    lifecycle_ending.fill_proto(board, life, complete)
    record.scoreboard.CopyFrom(board)
    record.ending = board.ending if complete else common_pb2.GAME_ENDING_UNSPECIFIED
    return record


def _view_digests(
    engine: Any, meta: GameMeta, state: Any, events: list[StoredEvent]
) -> dict[int, tuple[str, str]]:
    """Each version's view and state digests, by replaying the log; checks
    that the replay ends in the stored state."""
    digests: dict[int, tuple[str, str]] = {}
    last: Any = None
    for step in replay(
        engine, meta.players, meta.options, meta.seed, (decision_of(e) for e in events)
    ):
        digests[step.version] = (step.view_sha256, step.state_sha256)
        last = step.state
    if last is not None and engine.encode(last) != engine.encode(state):
        raise RecordMismatch("the log does not replay to the stored final state")
    return digests

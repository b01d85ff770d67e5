"""Replaying a recorded game through its engine (pure: no I/O, no protobuf).

A record (docs/RECORDS.md) lists every decision with its seat, its action
(kind and the engine's canonical argument JSON) and what followed it: the
game's status, the seats asked to decide and, in a full record, digests of
every view (the spectator's and each seat's) and of the engine state.
:func:`replay` sets the game up from the players, options and seed, applies
each decision in version order and checks each of those facts at each step;
the first that differs raises
:class:`ReplayMismatch` naming the version and the fact. The service builds
its records with the same function (so a record it writes replays by
construction), and ``roost replay --verify`` checks one.

Lifecycle events (``resign``, ``abort``, ``timeout``) change no engine state:
they are kept in the record for the clock and the ending, and skipped here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from services.core.engine import jsonstate
from services.core.engine.contract import Action, Engine

#: Events that change no engine state (services/core/lifecycle/).
LIFECYCLE_KINDS = frozenset({"resign", "abort", "timeout"})
#: The creation event's kind.
NEW_GAME = "new_game"


@dataclass(frozen=True, slots=True)
class Decision:
    """One recorded decision, as :func:`replay` reads it."""

    version: int
    seat: int
    kind: str
    args_json: str
    #: The stored status after it: ``IN_PROGRESS``, ``FINISHED`` or ``ABORTED``.
    over: bool
    to_act: tuple[int, ...]
    #: The views' digest after it (:func:`view_digest`; "" = not checked).
    view_sha256: str = ""
    #: The state's digest after it (:func:`state_digest`; "" = not checked).
    state_sha256: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """The game after one replayed decision."""

    version: int
    state: Any
    #: The views' digest after it (:func:`view_digest`; "" without views).
    view_sha256: str
    #: The state's digest after it (:func:`state_digest`; "" without views).
    state_sha256: str


class ReplayMismatch(Exception):
    """The replay differs from the record at ``version`` in ``fact``
    (``version``, ``seat``, ``action``, ``to_act``, ``status``, ``view``,
    ``state``, ``score``)."""

    def __init__(self, version: int, fact: str, message: str) -> None:
        super().__init__(f"version {version}: {fact}: {message}")
        self.version = version
        self.fact = fact
        self.message = message


def view_digest(engine: Engine[Any], state: Any, players: int) -> str:
    """First 16 hex digits of the SHA-256 of the canonical JSON (sorted keys,
    no spaces, tuples as arrays) of every view of ``state``: the spectator's,
    then each seat's, as one JSON array. A decision hidden from the spectator
    still changes its own seat's view, so a changed action is caught at its
    own version."""
    views = [engine.view(state, None), *(engine.view(state, s) for s in range(players))]
    return hashlib.sha256(jsonstate.dumps(views, sort_keys=True)).hexdigest()[:16]


def state_digest(engine: Engine[Any], state: Any) -> str:
    """First 16 hex digits of the SHA-256 of the engine's encoded state."""
    return hashlib.sha256(engine.encode(state)).hexdigest()[:16]


def action_of(kind: str, args_json: str) -> Action:
    """The engine action a record's kind and argument JSON name (lists become tuples)."""
    pairs = tuple(
        (name, tuple(value) if isinstance(value, list) else value)
        for name, value in json.loads(args_json or "[]")
    )
    return Action(kind, pairs)


def legal_match(engine: Engine[Any], state: Any, seat: int, wanted: Action) -> Action | None:
    """The legal action of ``seat`` equal to ``wanted`` (kind and args), or None."""
    key = wanted.key()
    for action in engine.legal(state, seat):
        if action.key() == key:
            return action
    return None


def replay(
    engine: Engine[Any],
    players: int,
    options: Mapping[str, Any],
    seed: int,
    decisions: Iterable[Decision],
    *,
    with_views: bool = True,
) -> Iterator[Step]:
    """Replay ``decisions`` (creation first), yielding the game after each one
    and raising :class:`ReplayMismatch` at the first that differs."""
    state = engine.setup(players, dict(options), seed)
    expected_version = 1
    for decision in decisions:
        if decision.version != expected_version:
            raise ReplayMismatch(
                expected_version, "version", f"the record has version {decision.version} here"
            )
        if decision.kind != NEW_GAME and decision.kind not in LIFECYCLE_KINDS:
            state = _apply(engine, state, decision)
        over = engine.is_over(state)
        if decision.kind not in LIFECYCLE_KINDS and not decision.over:
            asked = tuple(engine.to_act(state))
            if asked != decision.to_act:
                raise ReplayMismatch(
                    decision.version,
                    "to_act",
                    f"the record asks {list(decision.to_act)}, the replay {list(asked)}",
                )
        if over and not decision.over:
            raise ReplayMismatch(decision.version, "status", "the replay ended the game here")
        digest = view_digest(engine, state, players) if with_views else ""
        if decision.view_sha256 and with_views and digest != decision.view_sha256:
            raise ReplayMismatch(
                decision.version,
                "view",
                f"a view differs (record {decision.view_sha256}, replay {digest})",
            )
        state_sha = state_digest(engine, state) if with_views else ""
        if decision.state_sha256 and with_views and state_sha != decision.state_sha256:
            raise ReplayMismatch(
                decision.version,
                "state",
                f"the state differs (record {decision.state_sha256}, replay {state_sha})",
            )
        yield Step(decision.version, state, digest, state_sha)
        expected_version += 1


def _apply(engine: Engine[Any], state: Any, decision: Decision) -> Any:
    """``state`` after the decision; ReplayMismatch when it is not legal there."""
    if decision.seat not in engine.to_act(state):
        raise ReplayMismatch(
            decision.version, "seat", f"seat {decision.seat} is not asked to decide here"
        )
    try:
        wanted = action_of(decision.kind, decision.args_json)
    except (ValueError, TypeError) as exc:
        raise ReplayMismatch(decision.version, "action", f"unreadable action: {exc}") from exc
    legal = legal_match(engine, state, decision.seat, wanted)
    if legal is None:
        raise ReplayMismatch(
            decision.version,
            "action",
            f"{decision.kind} {decision.args_json} is not a legal action of seat {decision.seat}",
        )
    return engine.apply(state, decision.seat, legal)

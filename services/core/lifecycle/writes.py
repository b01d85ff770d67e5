"""The lifecycle's writes: expiries, resignations and aborts, through the Apply's
compare-and-set.

Each write reads the stored version, decides with the pure rules of this
package (:mod:`.transitions`, :mod:`.house_bot`) and writes version + 1 with
the same script as an Apply (services/core/store.py): the state, the decision
epochs, the lifecycle record, the event and the game's entry in the deadline
set together, only if the game is still at the version read. So an expiry
that fires after the seat's decision landed finds a new version and does
nothing, and of two replicas firing the same expiry exactly one writes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from roost.common.v1 import common_pb2

from services.core import errors
from services.core import pending as pending_rule
from services.core.convert import args_to_json
from services.core.engine import Action
from services.core.events import ABORTED as ABORTED_STATUS
from services.core.events import FINISHED, IN_PROGRESS, OVER, StoredEvent, status_value
from services.core.lifecycle import clock as clocks
from services.core.lifecycle import house_bot, transitions
from services.core.lifecycle.progress import caps_for
from services.core.lifecycle.record import ABORTED, Life
from services.core.lifecycle.timecontrol import TimeControl, TimeControlError, from_proto
from services.core.logging import get_logger
from services.core.store import GameMeta, StoredGame, game_key

if TYPE_CHECKING:
    from services.core.game_context import GameContext

log = get_logger("roost.lifecycle")

#: ``fire``'s stored game when the caller did not read it ahead.
UNREAD: Any = object()

#: Event kinds of the lifecycle's own writes (no Action of the game).
KINDS = frozenset({"resign", "abort", "timeout"})


def now_ms() -> int:
    """The server's time, ms since the Unix epoch (every charge and deadline uses it)."""
    return int(time.time() * 1000)


def status_name(life: Life, engine_over: bool) -> str:
    """The stored status after a write."""
    if life.ending == ABORTED:
        return ABORTED_STATUS
    return FINISHED if engine_over or life.ending else IN_PROGRESS


def deadline_arg(life: Life) -> str:
    """The write's deadline-set argument: ``"x"`` for a game that never has a
    deadline (untimed, nobody left), ``""`` for none now, else the ms."""
    if not life.tc.timed and not life.left:
        return "x"
    if life.ending:
        return ""
    at = clocks.next_deadline(life.tc, life.clocks, life.left)
    return str(at) if at else ""


def event_life(life: Life) -> str:
    """The record a stored event carries (``StoredEvent.life``), so the event
    carries the clock: only when the game has a clock or a seat that left."""
    return life.to_json().decode() if life.tc.timed or life.left else ""


def life_clock(life: Life) -> common_pb2.Clock | None:
    """The Clock of a version (None in an untimed game nobody left)."""
    return life.clock()


@dataclass(slots=True)
class Loaded:
    """A stored version with its decoded parts."""

    stored: StoredGame
    state: Any
    pending: pending_rule.Pending | None
    life: Life


class Lifecycle:
    """The lifecycle side of one game (its engine, store and caches)."""

    def __init__(self, context: GameContext) -> None:
        self.context = context
        self.engine = context.engine
        self.store = context.store
        self.game = context.spec.name
        self.settings = context.settings
        self.caps = caps_for(self.engine)
        # game id -> (version, its lifecycle record) this process wrote or read last
        self.cache: dict[str, tuple[int, Life]] = {}

    def remember(self, game_id: str, version: int, life: Life) -> None:
        """Keep ``life`` as the record of ``version`` (bounded like the other caches)."""
        if len(self.cache) >= 4096:
            self.cache.pop(next(iter(self.cache)))
        self.cache[game_id] = (version, life)

    def forget(self, game_id: str) -> None:
        """Drop what this process keeps of the game's latest version (a write of
        the lifecycle, not of this process's Apply, changed it)."""
        self.context.state_cache.pop(game_id, None)
        self.cache.pop(game_id, None)

    async def life_at(self, game_id: str, meta: GameMeta, version: int) -> Life:
        """The record of ``version`` (read when not kept; a newer one read then
        only makes the write lose its compare-and-set)."""
        kept = self.cache.get(game_id)
        if kept is not None and kept[0] == version:
            return kept[1]
        raw = await self.store.client.hget(game_key(game_id), "life")
        return Life.from_json(raw, meta.players)

    # ----------------------------------------------------------- NewGame

    def time_control(self, common: common_pb2.CommonOptions) -> TimeControl:
        """The checked time control of a NewGame (INVALID_OPTIONS otherwise)."""
        if not common.HasField("time_control"):
            return TimeControl()
        try:
            tc = from_proto(common.time_control, self.settings.day_seconds)
        except TimeControlError as exc:
            path = f"common.time_control.{exc.field_name}"
            raise errors.invalid_options(path, exc.message) from exc
        return tc

    # ------------------------------------------------------------- Apply

    def check_decision(self, life: Life, seat: int, at_ms: int) -> None:
        """Refuse a seat's own decision on an ended game, from a seat that left,
        or after its deadline (FAILED_PRECONDITION)."""
        if life.ending:
            raise errors.precondition("ERROR_REASON_GAME_OVER", "the game has ended")
        if seat in life.left:
            raise errors.precondition(
                "ERROR_REASON_SEAT_LEFT", f"seat {seat} has left; the house bot plays it"
            )
        due = clocks.deadline(life.tc, life.clocks[seat], False)
        if life.tc.timed and due and at_ms > due:
            raise errors.precondition(
                "ERROR_REASON_DEADLINE_PASSED",
                f"seat {seat}'s deadline passed {at_ms - due} ms before this decision arrived",
            )

    def after_decision(
        self,
        life: Life,
        state: Any,
        seat: int,
        to_act: list[int],
        finished: bool,
        at_ms: int,
        *,
        spent_cap_ms: int | None = None,
    ) -> Life:
        """The record after ``seat``'s decision (``life`` is left unchanged)."""
        after = life.copy()
        transitions.decided(
            after, self.caps, state, seat, to_act, finished, at_ms, spent_cap_ms=spent_cap_ms
        )
        return after

    # ---------------------------------------------------------- loading

    async def load(self, game_id: str, meta: GameMeta) -> Loaded:
        """The stored version (NOT_FOUND when the game is gone)."""
        stored = await self.store.load(game_id, meta)
        if stored is None:
            raise errors.not_found(game_id)
        return Loaded(
            stored,
            self.engine.decode(stored.state),
            pending_rule.decode(stored.pending, stored.version),
            Life.from_json(stored.life, meta.players),
        )

    # ------------------------------------------------------------ writes

    async def write(
        self,
        game_id: str,
        meta: GameMeta,
        loaded: Loaded,
        life: Life,
        *,
        seat: int,
        kind: str,
        label: str,
        state: Any = None,
        pending: pending_rule.Pending | None = None,
        action: Action | None = None,
        house_bot: bool = False,
    ) -> tuple[int, dict[str, Any]] | None:
        """Write version + 1 if the game is still at ``loaded``'s version: the new
        state (``state``; None keeps the stored bytes), epochs and record. Returns
        the new version and the event as its seat reads it, or None when another
        write won (nothing was written)."""
        version = loaded.stored.version + 1
        engine_over = state is not None and self.engine.is_over(state)
        status = status_name(life, engine_over)
        over = status in OVER
        to_act = [] if over else self.engine.to_act(state if state is not None else loaded.state)
        encoded = loaded.stored.state if state is None else self.engine.encode(state)
        kept = pending if pending is not None else (loaded.pending or {})
        public = ""
        if action is not None and action.secret:
            public = f"{action.public_label or 'A secret decision'} (house bot)"
        event = StoredEvent(
            version=version,
            seat=seat,
            kind=kind,
            args_json=args_to_json(action) if action else "[]",
            label=label,
            secret=bool(action and action.secret),
            public_label=public,
            time_ms=life.at_ms,
            status=status,
            to_act=tuple(to_act),
            life=event_life(life),
            house_bot=house_bot,
        )
        outcome = await self.store.apply(
            game_id,
            loaded.stored.version,
            encoded,
            status,
            event,
            request_id="",
            fingerprint="",
            result=b"",
            request_ttl=self.settings.request_ttl_seconds,
            key_ttl=self.settings.game_ttl_seconds if over else self.settings.idle_ttl_seconds,
            pending=pending_rule.encode({} if over else kept, version),
            game=self.game,
            life=life.to_json(),
            deadline=deadline_arg(life),
        )
        if outcome.kind != "OK":
            return None
        self.forget(game_id)
        if over:
            log.info("game_ended", game_id=game_id, version=version, ending=life.ending)
        reply = {
            "version": version, "seat": seat, "kind": kind, "label": label,
            "time_ms": life.at_ms, "status": status_value(status), "to_act": to_act,
        }  # fmt: skip
        clock = life_clock(life)
        if clock is not None:
            reply["clock"] = clock
        return version, reply

    async def decide_for(self, game_id: str, meta: GameMeta, loaded: Loaded, seat: int) -> bool:
        """The house bot decides for ``seat`` (it timed out or left). True when
        the write landed."""
        version = loaded.stored.version
        state = loaded.state
        legal = self.engine.legal(state, seat)
        if not legal:
            return False
        action = house_bot.choose(game_id, version, seat, legal)
        to_act_before = self.engine.to_act(state)
        digests_before = pending_rule.others_before(
            loaded.pending, to_act_before, seat, lambda s: self.engine.legal(state, s)
        )
        timed_out = seat not in loaded.life.left
        spent_cap = transitions.spent_cap(loaded.life, seat)
        after_state = self.engine.apply(self.engine.clone(state), seat, action)
        finished = self.engine.is_over(after_state)
        to_act = [] if finished else self.engine.to_act(after_state)
        life = self.after_decision(
            loaded.life, after_state, seat, to_act, finished, now_ms(), spent_cap_ms=spent_cap
        )
        if timed_out:
            life.clocks[seat].timeouts += 1
        legal_of: Callable[[int], list[Action]] = lambda s: self.engine.legal(after_state, s)  # noqa: E731
        pending = pending_rule.after_decision(
            loaded.pending, version + 1, seat, to_act, digests_before, legal_of
        )
        why = "timed out" if timed_out else "left"
        written = await self.write(
            game_id, meta, loaded, life, seat=seat, kind=action.kind,
            label=f"{action.label} (house bot: seat {seat} {why})",
            state=after_state, pending=pending, action=action, house_bot=True,
        )  # fmt: skip
        return written is not None

    async def fire(self, game_id: str, stored: StoredGame | None = UNREAD) -> str:
        """Fire whatever is due in the game now; what happened ("" for nothing).
        ``stored``: the game as the poller read it ahead (None: gone); a read
        that a newer version overtook only makes the write lose its compare-and-set."""
        if stored is UNREAD:
            stored = await self.store.load(game_id)  # one read: the version and its meta
        if stored is None or stored.meta.game != self.game:
            await self.store.repair_deadline(self.game, game_id, 0, "")
            return ""
        meta = stored.meta
        life, version = Life.from_json(stored.life, meta.players), stored.version
        if stored.status in OVER or life.ending:
            await self.store.repair_deadline(self.game, game_id, version, "")
            return ""
        at = now_ms()
        due = clocks.due_seats(life.tc, life.clocks, life.left, at)
        if not due:
            await self.store.repair_deadline(self.game, game_id, version, deadline_arg(life))
            return ""
        loaded = Loaded(
            stored,
            self.engine.decode(stored.state),
            pending_rule.decode(stored.pending, stored.version),
            life,
        )
        seat = due[0]
        kind = transitions.expiry_kind(life, seat)
        if kind == "bot":
            return "bot" if await self.decide_for(game_id, meta, loaded, seat) else ""
        after = life.copy()
        to_act = self.engine.to_act(loaded.state)
        if kind == "abort":
            transitions.abort(after, at)
            label = f"Seat {seat} made no first decision in time: the game is aborted"
            kind_name = "abort"
        else:
            transitions.forfeit(after, seat, to_act, at)
            label = f"Seat {seat} ran out of time" + (
                "" if after.ending else "; the house bot plays it on"
            )
            kind_name = "timeout"
        written = await self.write(
            game_id, meta, loaded, after, seat=seat, kind=kind_name, label=label
        )
        return kind if written is not None else ""

    async def resign(self, game_id: str, meta: GameMeta, seat: int) -> tuple[int, dict[str, Any]]:
        """``seat`` resigns; retried on a lost compare-and-set."""
        for _attempt in range(meta.players + 4):
            loaded = await self.load(game_id, meta)
            if loaded.stored.status in OVER or loaded.life.ending:
                raise errors.precondition("ERROR_REASON_GAME_OVER", "the game has ended")
            if seat in loaded.life.left:
                raise errors.precondition("ERROR_REASON_SEAT_LEFT", f"seat {seat} has left")
            after = loaded.life.copy()
            ending = transitions.resign(after, seat, self.engine.to_act(loaded.state), now_ms())
            label = f"Seat {seat} resigned" + ("" if ending else "; the house bot plays it on")
            written = await self.write(
                game_id, meta, loaded, after, seat=seat, kind="resign", label=label
            )
            if written is not None:
                return written
        raise errors.stale_version(0, 0)

    async def abort(self, game_id: str, meta: GameMeta, seat: int) -> tuple[int, dict[str, Any]]:
        """``seat`` aborts the game (before every seat's first decision)."""
        for _attempt in range(meta.players + 4):
            loaded = await self.load(game_id, meta)
            if loaded.stored.status in OVER or loaded.life.ending:
                raise errors.precondition("ERROR_REASON_GAME_OVER", "the game has ended")
            if loaded.life.everyone_decided:
                raise errors.precondition(
                    "ERROR_REASON_NOT_ABORTABLE",
                    "every seat has made its first decision: resign instead",
                )
            after = loaded.life.copy()
            transitions.abort(after, now_ms())
            written = await self.write(
                game_id, meta, loaded, after, seat=seat, kind="abort",
                label=f"Seat {seat} aborted the game",
            )  # fmt: skip
            if written is not None:
                return written
        raise errors.stale_version(0, 0)

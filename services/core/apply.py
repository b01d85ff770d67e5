"""The Apply pipeline: one decision, from the request to the stored version.

Read :meth:`ApplyPipeline.apply` top to bottom; each step is one method:

1. **authenticate** — the request's fields are checked and the caller's seat
   comes from its token;
2. **load** — the state the decision applies to: the one this process wrote
   last, or the stored game;
3. **check version** — the decision applies to that version: it is the one
   decided on, or the seat's pending decision has not changed since
   (services/core/pending.py); otherwise ABORTED;
4. **apply** — the engine checks the decision and plays it;
5. **reply** — the ApplyResponse, assembled as bytes (the view from cached
   parts, the seat's next legal actions); built before the write because the
   write stores it for retries of the same request id;
6. **write** — one compare-and-set in Redis: the state, the event, the stored
   reply (services/core/store.py); the same script publishes the event on the
   game's live channel, so every Watch hears it;
7. **publish** — this process remembers the new version (state, legal lists,
   previews) for the calls that follow, and counts a finished game.

A write that loses its compare-and-set to another seat's goes round again on
the new version, a bounded number of times. A request id that was applied
before answers with its first reply (:class:`AlreadyApplied`), wherever the
pipeline finds out.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from typing import Any

import grpc

from services.core import errors
from services.core import pending as pending_rule
from services.core.convert import args_to_json
from services.core.engine import Action, IllegalAction
from services.core.events import StoredEvent, status_name, status_value
from services.core.game_context import GameContext, checked_game_id, preview_scores
from services.core.lifecycle import writes as lifecycle
from services.core.lifecycle.record import Life
from services.core.logging import bind, get_logger
from services.core.metrics import GAMES_FINISHED
from services.core.requests import ApplyRequest
from services.core.store import FINGERPRINT_LENGTH, ApplyOutcome, GameMeta
from services.core.wire import field_wire

MAX_REQUEST_ID = 128

log = get_logger("roost.game")


class AlreadyApplied(Exception):
    """The request id was applied before: its first reply is the answer."""

    def __init__(self, reply: bytes) -> None:
        super().__init__("already applied")
        self.reply = reply


@dataclass(slots=True)
class ApplyCall:
    """An Apply request whose fields are valid, with the caller's seat."""

    request: ApplyRequest
    #: ``action_id`` or ``action``: which of the request's choices is set.
    choice: str
    game_id: str
    meta: GameMeta
    seat: int
    #: What identifies the request's content for a retry ("" without a request id).
    fingerprint: str


@dataclass(slots=True)
class Base:
    """The version a decision applies to, as loaded."""

    version: int
    pending: pending_rule.Pending | None
    #: The state when it came from this process's cache (taken out while it changes).
    cached_state: Any = None
    #: Else the stored engine bytes.
    encoded: bytes = b""
    #: The stored lifecycle record, when read with the stored game.
    life: Life | None = None


@dataclass(slots=True)
class Move:
    """A decision played: the new version and what follows from it."""

    version: int
    state: Any
    finished: bool
    to_act: list[int]
    #: The seats' legal actions at the new version, as far as computed here.
    legal_after: dict[int, list[Action]]
    pending: pending_rule.Pending
    event: StoredEvent
    #: The acting seat's next legal actions, and their score previews when asked.
    next_legal: list[Action] | None
    previews: list[int] | None
    #: The lifecycle record after the decision (clocks charged, caps counted).
    life: Life


class ApplyPipeline:
    """Apply of one game (see the module docstring for its steps)."""

    def __init__(self, game: GameContext) -> None:
        self.game = game
        self.engine = game.engine
        fields = game.m.ApplyResponse.DESCRIPTOR.fields_by_name
        self._next_actions_field = fields["next_actions"].number
        self._view_field = fields["view"].number

    async def apply(self, request: ApplyRequest, context: grpc.aio.ServicerContext) -> bytes:
        """Apply one decision; the serialized ApplyResponse."""
        call = await self.authenticate(request, context)
        try:
            for _attempt in range(call.meta.players + 2):
                base = await self.load(call)
                await self.check_version(call, base)
                move = await self.apply_decision(call, base)
                reply = self.reply(call, move)
                outcome = await self.write(call, move, reply)
                if outcome.kind == "OK":
                    self.publish(call, move)
                    return reply
                if outcome.kind == "DUP":
                    return self.first_reply(call, outcome.stored)
                if outcome.kind == "NOT_FOUND":
                    raise errors.not_found(call.game_id)
                # STALE: another write won in between; look again under the same rule.
        except AlreadyApplied as applied:
            return applied.reply
        found = await self.game.store.version_and_status(call.game_id)
        if found is None:
            raise errors.not_found(call.game_id)
        raise errors.stale_version(request.expected_version, found[0])

    # ------------------------------------------------------------ authenticate

    async def authenticate(
        self, request: ApplyRequest, context: grpc.aio.ServicerContext
    ) -> ApplyCall:
        """The request checked (INVALID_ARGUMENT) and the caller's seat
        (UNAUTHENTICATED without a valid token)."""
        choice = request.WhichOneof("choice")
        game_id = self._validate(request, choice)
        assert choice is not None
        meta = self.game.meta_cache.get(game_id) or await self.game.meta(game_id)
        seat = self.game.seat(context, meta, required=True)
        assert seat is not None
        bind(game_id=game_id, seat=seat, request_id=request.request_id)
        fingerprint = _fingerprint(request, choice, seat) if request.request_id else ""
        return ApplyCall(request, choice, game_id, meta, seat, fingerprint)

    def _validate(self, request: ApplyRequest, choice: str | None) -> str:
        """The request's game id, once its fields are checked."""
        game_id = checked_game_id(request)
        if request.expected_version <= 0:
            raise errors.invalid_argument("expected_version", "required, the version decided on")
        if len(request.request_id) > MAX_REQUEST_ID:
            raise errors.invalid_argument("request_id", f"at most {MAX_REQUEST_ID} characters")
        codec = self.game.codec
        if choice == "action_id":
            if request.action_id < 0:
                raise errors.invalid_argument("action_id", "must not be negative")
        elif choice is None:
            raise errors.invalid_argument("choice", "set action_id or action")
        elif codec.kind_of(request.action) is None:
            raise errors.invalid_argument("action", "no action kind set")
        else:
            invalid = codec.invalid_field(request.action)
            if invalid is not None:
                raise errors.invalid_argument(f"action.{invalid[0]}", invalid[1])
        return game_id

    # -------------------------------------------------------------------- load

    async def load(self, call: ApplyCall) -> Base:
        """The state this process wrote last for the game, taken out of the cache
        when the decision may apply to it; else the stored game."""
        expected = call.request.expected_version
        cached = self.game.state_cache.get(call.game_id)
        if cached is not None:
            version, state, pending = cached
            if version == expected or pending_rule.may_decide_late(
                pending, call.seat, expected, version
            ):
                del self.game.state_cache[call.game_id]
                return Base(version, pending, cached_state=state)
        stored = await self.game.store.load(call.game_id, call.meta)
        if stored is None:
            raise errors.not_found(call.game_id)
        pending = pending_rule.decode(stored.pending, stored.version)
        life = Life.from_json(stored.life, call.meta.players)
        return Base(stored.version, pending, encoded=stored.state, life=life)

    # ----------------------------------------------------------- check version

    async def check_version(self, call: ApplyCall, base: Base) -> None:
        """ABORTED unless the decision made on ``expected_version`` applies to
        ``base`` (the same version, or the seat's pending decision unchanged
        since); a request id applied before answers with its first reply."""
        expected = call.request.expected_version
        if base.version == expected or pending_rule.may_decide_late(
            base.pending, call.seat, expected, base.version
        ):
            return
        await self._replay(call)
        raise errors.stale_version(expected, base.version)

    # ------------------------------------------------------------------- apply

    async def apply_decision(self, call: ApplyCall, base: Base) -> Move:
        """The engine plays the decision the request names on ``base``;
        FAILED_PRECONDITION (game over, not your turn, unknown or illegal
        action) leaves the stored game and the cache as they were."""
        from_cache = base.cached_state is not None
        state = base.cached_state if from_cache else self.engine.decode(base.encoded)
        seat = call.seat
        to_act_before = [] if self.engine.is_over(state) else self.engine.to_act(state)
        life_before = base.life or await self.game.lifecycle.life_at(
            call.game_id, call.meta, base.version
        )
        now_ms = lifecycle.now_ms()  # the write's server time: every clock is charged by it
        try:
            self.game.lifecycle.check_decision(life_before, seat, now_ms)
            action = self._decide(call, base.version, state, to_act_before)
        except errors.ServiceError:
            if from_cache:
                self.game.state_cache.put(call.game_id, (base.version, state, base.pending))
            await self._replay(call)
            raise
        digests_before = pending_rule.others_before(
            base.pending,
            to_act_before,
            seat,
            lambda other: self.game.legal(call.game_id, base.version, state, other),
        )
        try:
            state = self.engine.apply(state, seat, action)
        except IllegalAction as exc:
            raise errors.precondition(
                "ERROR_REASON_ILLEGAL_ACTION", exc.message, rule=exc.reason
            ) from exc
        finished = self.engine.is_over(state)
        to_act = [] if finished else self.engine.to_act(state)
        life = self.game.lifecycle.after_decision(
            life_before, state, seat, to_act, finished, now_ms
        )
        if life.ending and not finished:  # a cap ended the game (lifecycle/progress.py)
            finished, to_act = True, []
        version = base.version + 1
        legal_after: dict[int, list[Action]] = {}
        if seat in to_act:
            legal_after[seat] = self.engine.legal(state, seat)

        def legal_of(other: int) -> list[Action]:
            if other not in legal_after:
                legal_after[other] = self.engine.legal(state, other)
            return legal_after[other]

        pending = pending_rule.after_decision(
            base.pending, version, seat, to_act, digests_before, legal_of
        )
        next_legal = legal_after.get(seat)
        previews = None
        if next_legal and call.request.with_score_preview:
            previews = preview_scores(self.engine, call.game_id, version, state, seat, next_legal)
        event = StoredEvent(
            version,
            seat,
            action.kind,
            args_to_json(action),
            action.label,
            action.secret,
            action.public_label,
            now_ms,
            status_name(finished),
            tuple(to_act),
            lifecycle.event_life(life),
        )
        return Move(
            version, state, finished, to_act, legal_after, pending, event, next_legal, previews,
            life,
        )  # fmt: skip

    def _decide(self, call: ApplyCall, version: int, state: Any, to_act: list[int]) -> Action:
        """The engine action the request names, or the reason it cannot apply
        (``to_act``: the seats asked at ``version``, empty once the game is over)."""
        if not to_act and self.engine.is_over(state):
            raise errors.precondition("ERROR_REASON_GAME_OVER", "the game has ended")
        if call.seat not in to_act:
            raise errors.precondition(
                "ERROR_REASON_NOT_YOUR_TURN", f"seat {call.seat} is not asked to decide now"
            )
        legal = self.game.legal(call.game_id, version, state, call.seat)
        request = call.request
        if call.choice == "action_id":
            if request.action_id >= len(legal):
                raise errors.precondition(
                    "ERROR_REASON_UNKNOWN_ACTION",
                    f"action_id {request.action_id} is not in the legal list"
                    f" ({len(legal)} actions)",
                )
            return legal[request.action_id]
        for candidate in legal:
            if self.game.codec.matches(request.action, candidate):
                return candidate
        raise errors.precondition(
            "ERROR_REASON_ILLEGAL_ACTION", "that action is not legal now", rule="NOT_LEGAL"
        )

    # ------------------------------------------------------------------- reply

    def reply(self, call: ApplyCall, move: Move) -> bytes:
        """The serialized ApplyResponse: head, view (cached parts), next legal
        list. Its event is the stored one as the acting seat reads it (never
        redacted)."""
        game = self.game
        event = move.event
        status = status_value(event.status)
        response = game.m.ApplyResponse(
            version=move.version,
            status=status,
            to_act=move.to_act,
            event={
                "version": move.version, "seat": call.seat, "kind": event.kind,
                "label": event.label, "time_ms": event.time_ms, "status": status,
                "to_act": move.to_act, "clock": move.life.clock(),
            },
        ).SerializeToString()  # fmt: skip
        if not call.request.omit_view:
            response += field_wire(
                self._view_field, game.view_bytes(call.game_id, move.state, call.seat)
            )
        if move.next_legal:
            if move.previews is not None:
                response += game.legal_with_previews(
                    self._next_actions_field, move.next_legal, move.previews
                )
            else:
                response += game.codec.legal_wire(self._next_actions_field, move.next_legal)
        return response

    # ------------------------------------------------------------------- write

    async def write(self, call: ApplyCall, move: Move, reply: bytes) -> ApplyOutcome:
        """The compare-and-set of the new version (services/core/store.py)."""
        settings = self.game.settings
        request_id = call.request.request_id
        return await self.game.store.apply(
            call.game_id,
            move.version - 1,
            self.engine.encode(move.state),
            move.event.status,
            move.event,
            request_id=request_id,
            fingerprint=call.fingerprint,
            # Stored only for retries, so only when the client named its request;
            # compressed (views shrink about 3x) since every Apply of a bot keeps one.
            result=zlib.compress(reply, 1) if request_id else b"",
            request_ttl=settings.request_ttl_seconds,
            key_ttl=settings.game_ttl_seconds if move.finished else settings.idle_ttl_seconds,
            pending=pending_rule.encode(move.pending, move.version),
            game=self.game.spec.name,
            life=move.life.to_json(),
            deadline=lifecycle.deadline_arg(move.life),
        )

    # ----------------------------------------------------------------- publish

    def publish(self, call: ApplyCall, move: Move) -> None:
        """Remember the version the write made (only a winning write's state
        becomes that version): the state, the legal lists and previews this
        process computed, for the calls and Watch streams that follow."""
        game = self.game
        if not move.finished:  # a finished game takes no more Applies: its reads decode
            game.state_cache.put(call.game_id, (move.version, move.state, move.pending))
            game.lifecycle.remember(call.game_id, move.version, move.life)
        for other, actions in move.legal_after.items():
            game.legal_cache.put(f"{call.game_id}:{move.version}:{other}", actions)
        if move.previews is not None:
            game.legal_cache.put(
                f"{call.game_id}:{move.version}:{call.seat}:preview", move.previews
            )
        if move.finished:
            GAMES_FINISHED.labels(game.spec.name).inc()
            log.info("game_finished", version=move.version)

    # ----------------------------------------------------------------- retries

    async def _replay(self, call: ApplyCall) -> None:
        """Raise :class:`AlreadyApplied` when this request id was applied before."""
        request_id = call.request.request_id
        if not request_id:
            return
        stored = await self.game.store.stored_result(call.game_id, request_id)
        if stored:
            raise AlreadyApplied(self.first_reply(call, stored))

    @staticmethod
    def first_reply(call: ApplyCall, stored: bytes) -> bytes:
        """The first reply to the call's request id, as sent (serialized);
        ALREADY_EXISTS when the id was used for another request."""
        if stored[:FINGERPRINT_LENGTH].decode() != call.fingerprint:
            raise errors.request_id_reused(call.request.request_id)
        return zlib.decompress(stored[FINGERPRINT_LENGTH:])


def _fingerprint(request: ApplyRequest, choice: str, seat: int) -> str:
    """What a retry of the same request repeats: seat, version and choice."""
    body = (
        str(request.action_id).encode()
        if choice == "action_id"
        else request.action.SerializeToString(deterministic=True)
    )
    digest = hashlib.sha1(f"{seat}|{request.expected_version}|{choice}|".encode() + body)
    return digest.hexdigest()

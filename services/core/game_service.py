"""The generic game servicer: every game's RPCs, written once.

A game service is a :class:`GameSpec` (its engine, its generated messages and
its proto service name) plus a two-line subclass that mixes
:class:`GameServicer` into the generated servicer base. Handlers stay thin:
validate the request, authenticate the seat, call the engine, convert, and
let :class:`~services.core.store.GameStore` do the atomic write.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import grpc
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from roost.common.v1 import common_pb2

from services.core import decoding, errors
from services.core import pending as pending_rule
from services.core.config import Settings
from services.core.convert import (
    ActionCodec,
    ViewWire,
    args_to_json,
    field_wire,
    options_from_proto,
    scoreboard_to_proto,
    view_to_proto,
)
from services.core.engine import Action, Engine, IllegalAction, OptionError, Rng
from services.core.lifecycle import ending as lifecycle_ending
from services.core.lifecycle import transitions
from services.core.lifecycle import writes as lifecycle
from services.core.lifecycle.expiry import ExpiryPoller
from services.core.lifecycle.record import Life
from services.core.lifecycle.rpcs import LifecycleRpcs
from services.core.logging import bind, get_logger
from services.core.metrics import GAMES_CREATED, GAMES_FINISHED, streaming, unary
from services.core.store import FINGERPRINT_LENGTH, GameMeta, GameStore, StoredEvent, game_key
from services.core.tokens import TOKEN_METADATA_KEY, hash_token, new_token, seat_for_token
from services.core.watch import EventHub

IN_PROGRESS = common_pb2.GAME_STATUS_IN_PROGRESS
FINISHED = common_pb2.GAME_STATUS_FINISHED
MAX_REQUEST_ID = 128
CACHE_SIZE = 4096

log = get_logger("roost.game")


@dataclass(frozen=True)
class GameSpec:
    """Everything the generic servicer needs to know about one game.

    ``messages`` is the generated ``service_pb2`` module (requests, responses,
    ``Options``, ``LegalAction``), ``types`` the ``types_pb2`` module
    (``View``, ``Action``) and ``grpc_module`` the ``service_pb2_grpc``
    module. ``adapt_options`` turns the set fields of the ``Options``
    message into the engine's option mapping.
    """

    name: str
    service_name: str
    default_port: int
    engine: Engine[Any]
    messages: ModuleType
    types: ModuleType
    grpc_module: ModuleType
    #: Builds the game's ``Catalogue`` message (every card, tile, ... with its
    #: printed facts) from the rules data; called once per process, on the
    #: first GetCatalogue (``services/<game>/catalogue.py``). Every game has
    #: one: GetCatalogue is part of the service contract.
    catalogue: Callable[[], Message]
    adapt_options: Callable[[dict[str, Any]], dict[str, Any]] = field(default=lambda o: o)
    #: The engine's views are fresh values that never alias its mutable state,
    #: so Apply may keep them to reuse the bytes of unchanged parts
    #: (:class:`~services.core.convert.ViewWire`).
    view_parts_are_values: bool = False
    #: Beyond that, every view part that did not change is the very dict handed
    #: out before (built once and shared), so the wire cache matches parts by
    #: identity alone and keeps nothing per game (``ViewWire(shared=True)``).
    view_parts_shared: bool = False


def servicer_class(spec: GameSpec) -> type[GameServicer]:
    """The game's servicer: :class:`GameServicer` mixed into the generated base."""
    short = spec.service_name.rsplit(".", 1)[1]
    base = getattr(spec.grpc_module, f"{short}Servicer")
    doc = f"``{spec.service_name}``: the RPCs of :class:`GameServicer`."
    return type(f"{short}Service", (GameServicer, LifecycleRpcs, base), {"__doc__": doc})


def _serialize(response: Message | bytes) -> bytes:
    """A response message's bytes; a handler may also return them ready-made."""
    return response if isinstance(response, bytes) else response.SerializeToString()


def add_to_server(spec: GameSpec, servicer: GameServicer, server: grpc.aio.Server) -> None:
    """Register a game's servicer on ``server``.

    As the generated ``add_<Game>Servicer_to_server`` does (registered
    methods), except that a handler may return its response already
    serialized (Apply assembles its reply from cached bytes), and that a request
    body which does not decode is INVALID_ARGUMENT (:func:`decoding.guard`).
    """
    short = spec.service_name.rsplit(".", 1)[1]
    service = spec.messages.DESCRIPTOR.services_by_name[short]
    handlers = {}
    for method in service.methods:
        factory = (
            grpc.unary_stream_rpc_method_handler
            if method.server_streaming
            else grpc.unary_unary_rpc_method_handler
        )
        handlers[method.name] = decoding.guard(
            factory(
                getattr(servicer, method.name),
                request_deserializer=GetMessageClass(method.input_type).FromString,
                response_serializer=_serialize,
            ),
            f"/{spec.service_name}/{method.name}",
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(spec.service_name, handlers),)
    )
    server.add_registered_method_handlers(spec.service_name, handlers)
    servicer.expiry.start()  # every replica polls its game's deadlines


class _Lru(OrderedDict[str, Any]):
    """A tiny bounded LRU map."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: str, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)


def _status_name(finished: bool) -> str:
    return "FINISHED" if finished else "IN_PROGRESS"


_status_value = lifecycle.status_value


class GameServicer:
    """The RPCs of every game, over a :class:`GameStore`.

    Subclass together with the generated ``<Game>Servicer`` base; see
    ``services/undertheleaves/service.py``.
    """

    def __init__(self, spec: GameSpec, store: GameStore, settings: Settings) -> None:
        self.spec = spec
        self.engine = spec.engine
        self.store = store
        self.settings = settings
        self.m = spec.messages
        self.codec = ActionCodec(spec.types.Action)
        self.hub = EventHub(store)
        self._legal_field = self.m.LegalResponse.DESCRIPTOR.fields_by_name["actions"].number
        # The repeated LegalAction field of each response that carries a legal list.
        self._legal_fields = {
            self.m.LegalResponse: self.m.LegalResponse.DESCRIPTOR.fields_by_name["actions"],
            self.m.WatchResponse: self.m.WatchResponse.DESCRIPTOR.fields_by_name["legal"],
        }
        watch_fields = self.m.WatchResponse.DESCRIPTOR.fields_by_name
        self._watch_event_field = watch_fields["event"].number
        self._watch_legal_field = watch_fields["legal"].number
        apply_fields = self.m.ApplyResponse.DESCRIPTOR.fields_by_name
        self._next_actions_field = apply_fields["next_actions"].number
        self._view_field = apply_fields["view"].number
        self._view_wire = ViewWire(spec.types.View, shared=spec.view_parts_shared)
        # game id -> the parts of its last Apply view (see ViewWire)
        self._view_parts = _Lru(CACHE_SIZE // 2)
        self._meta_cache = _Lru(CACHE_SIZE)
        # token -> (the game's metadata object, seat): a token checked once against
        # the stored hashes is not hashed again while that game stays cached.
        self._seat_cache = _Lru(CACHE_SIZE)
        self._state_cache = _Lru(CACHE_SIZE)
        # (game_id, version, seat) -> legal actions; a version's state never
        # changes, so an entry is valid on every replica.
        self._legal_cache = _Lru(CACHE_SIZE)
        self._view_cache = _Lru(CACHE_SIZE // 2)
        self._catalogue: CatalogueReplies | None = None
        # game id -> (version, its lifecycle record): clocks, leavers, ending.
        self._life_cache = _Lru(CACHE_SIZE)
        self.lifecycle = lifecycle.Lifecycle(self)
        self.expiry = ExpiryPoller(self.lifecycle, settings.expiry_poll_ms)

    # ----------------------------------------------------------------- helpers

    def forget_state(self, game_id: str) -> None:
        """Drop what this process keeps of the game's latest version (another
        write than an Apply of this process changed it)."""
        self._state_cache.pop(game_id, None)
        self._life_cache.pop(game_id, None)

    async def meta_of(self, game_id: str) -> GameMeta:
        """The game's metadata (NOT_FOUND when it does not exist)."""
        return await self._meta(game_id)

    async def _life(self, game_id: str, meta: GameMeta, version: int) -> Life:
        """The lifecycle record of ``version`` (read when this process has not
        kept it; a newer one read then only makes the write lose its CAS)."""
        cached = self._life_cache.get(game_id)
        if cached is not None and cached[0] == version:
            return cached[1]
        raw = await self.store.client.hget(game_key(game_id), "life")
        return Life.from_json(raw, meta.players)

    def _legal(self, game_id: str, version: int, state: Any, seat: int) -> list[Action]:
        """The seat's legal actions at ``version``, computed once per version."""
        key = f"{game_id}:{version}:{seat}"
        actions = self._legal_cache.get(key)
        if actions is None:
            actions = [] if self.engine.is_over(state) else self.engine.legal(state, seat)
            self._legal_cache.put(key, actions)
        return actions

    def _view(self, state: Any, seat: int | None) -> Message:
        return view_to_proto(self.engine.view(state, seat), self.spec.types.View)

    def _view_bytes(self, game_id: str, state: Any, seat: int | None) -> bytes:
        """The serialized view, reusing unchanged parts when the game allows."""
        view = self.engine.view(state, seat)
        if not self.spec.view_parts_are_values:
            return self.spec.types.View(**view).SerializeToString()
        if self.spec.view_parts_shared:
            return self._view_wire.encode(view)
        kept = self._view_parts.get(game_id)
        if kept is None:
            kept = {}
            self._view_parts.put(game_id, kept)
        return self._view_wire.encode(view, kept)

    def _fill_stored_view(
        self, target: Message, game_id: str, version: int, state: Any, seat: int | None
    ) -> None:
        """The view of a stored version, built once per (version, reader): many
        spectators of one game (GetState, Watch) cost one build per version."""
        key = f"{game_id}:{version}:{-1 if seat is None else seat}"
        cached = self._view_cache.get(key)
        if cached is None:
            cached = self._view(state, seat).SerializeToString()
            self._view_cache.put(key, cached)
        target.MergeFromString(cached)

    async def _meta(self, game_id: str) -> GameMeta:
        meta = self._meta_cache.get(game_id)
        if meta is None:
            meta = await self.store.load_meta(game_id)
            if meta is None or meta.game != self.spec.name:
                raise errors.not_found(game_id)
            self._meta_cache.put(game_id, meta)
        return meta

    @staticmethod
    def _token(context: grpc.aio.ServicerContext) -> str | None:
        for key, value in context.invocation_metadata() or ():
            if key == TOKEN_METADATA_KEY:
                return value if isinstance(value, str) else value.decode()
        return None

    def _seat(
        self, context: grpc.aio.ServicerContext, meta: GameMeta, required: bool
    ) -> int | None:
        """The caller's seat from its token; None for a spectator (when allowed)."""
        token = self._token(context)
        if not token:
            if required:
                raise errors.token_missing()
            return None
        known = self._seat_cache.get(token)
        if known is not None and known[0] is meta:
            return known[1]
        seat = seat_for_token(token, meta.token_hashes)
        if seat is None:
            raise errors.token_invalid()
        self._seat_cache.put(token, (meta, seat))
        return seat

    async def _caller(
        self, request: Any, context: grpc.aio.ServicerContext, *, token_required: bool
    ) -> tuple[str, GameMeta, int | None]:
        """The game id, its metadata and the caller's seat (None: spectator),
        bound to the call's log lines."""
        game_id = self._game_id(request)
        meta = await self._meta(game_id)
        seat = self._seat(context, meta, required=token_required)
        bind(game_id=game_id, seat=seat)
        return game_id, meta, seat

    @staticmethod
    def _game_id(request: Any) -> str:
        game_id = request.game_id
        if not game_id:
            raise errors.invalid_argument("game_id", "required")
        if len(game_id) > 64 or not game_id.isalnum():
            raise errors.invalid_argument("game_id", "must be 1-64 letters or digits")
        return game_id

    async def _load(self, game_id: str, meta: GameMeta) -> tuple[int, Any, str]:
        """The game's stored version, its state and status. The state this process
        wrote last at that version is read in place (reads never change a state,
        and Apply takes its state out of the cache while it changes it) instead of
        being decoded again."""
        version, state, status, _pending = await self._load_with_epochs(game_id, meta)
        return version, state, status

    async def _load_with_epochs(
        self, game_id: str, meta: GameMeta
    ) -> tuple[int, Any, str, pending_rule.Pending | None]:
        """As :meth:`_load`, with the seats' decision epochs at that version."""
        stored = await self.store.load(game_id, meta)
        if stored is None:
            self._meta_cache.pop(game_id, None)
            raise errors.not_found(game_id)
        cached = self._state_cache.get(game_id)
        if cached is not None and cached[0] == stored.version:
            return stored.version, cached[1], stored.status, cached[2]
        pending = pending_rule.decode(stored.pending, stored.version)
        return stored.version, self.engine.decode(stored.state), stored.status, pending

    def _event(self, stored: StoredEvent, reader: int | None) -> common_pb2.Event:
        f = stored.fields
        seat = int(f["s"])
        hidden = f.get("x") == "1" and seat != reader
        label = (f.get("p") or f"Seat {seat} made a secret decision") if hidden else f["l"]
        to_act = [int(s) for s in f["ta"].split(",") if s]
        return common_pb2.Event(
            version=stored.version,
            seat=seat,
            kind="" if hidden else f["k"],
            label=label,
            redacted=hidden,
            time_ms=int(f["t"]),
            status=_status_value(f["st"]),
            to_act=to_act,
            clock=lifecycle.event_clock(f),
        )

    # --------------------------------------------------------------- NewGame

    @unary("game")
    async def NewGame(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        common = request.common
        players = common.players
        if players <= 0:
            raise errors.invalid_argument("common.players", "required, at least 1")
        names = list(common.seat_names)
        if names and len(names) != players:
            raise errors.invalid_argument("common.seat_names", "one name per seat, or none")
        if any(len(n) > 64 for n in names):
            raise errors.invalid_argument("common.seat_names", "names are at most 64 characters")
        seed = common.seed or secrets.randbits(63)
        time_control = self.lifecycle.time_control(common)
        try:
            options = self.spec.adapt_options(options_from_proto(request.options))
            state = self.engine.setup(players, options, seed)
        except OptionError as exc:
            path = "common.players" if exc.field_name == "players" else f"options.{exc.field_name}"
            raise errors.invalid_options(path, exc.message) from exc
        tokens = [new_token() for _ in range(players)]
        game_id = secrets.token_hex(12)
        meta = GameMeta(
            game=self.spec.name,
            players=players,
            seed=seed,
            options=options,
            seat_names=names or [f"Seat {i}" for i in range(players)],
            token_hashes=[hash_token(t) for t in tokens],
        )
        life = await self.create_game(game_id, meta, state, time_control)
        to_act = [] if life.ending else self.engine.to_act(state)
        return self.m.NewGameResponse(
            game_id=game_id,
            version=1,
            credentials=[common_pb2.SeatCredential(seat=i, token=t) for i, t in enumerate(tokens)],
            seats=[common_pb2.Seat(seat=i, name=n) for i, n in enumerate(meta.seat_names)],
            view=self._view(state, None),
            to_act=to_act,
            clock=lifecycle.life_clock(life),
        )

    async def create_game(
        self,
        game_id: str,
        meta: GameMeta,
        state: Any,
        time_control: lifecycle.TimeControl,
        left: tuple[int, ...] = (),
    ) -> Life:
        """Store a new game at version 1 (NewGame, and a rematch: ``left`` are
        seats the house bot plays from the start). Its lifecycle record is
        returned; nothing is written when ``game_id`` exists already."""
        players = meta.players
        to_act = self.engine.to_act(state)
        finished = self.engine.is_over(state)
        created_ms = lifecycle.now_ms()
        life = transitions.start(time_control, players, [] if finished else to_act, created_ms)
        life.left.extend(left)
        if finished:
            life.ending = "NORMAL"
        event = {
            "s": "-1", "k": "new_game", "a": "[]", "l": f"{players}-player game created",
            "x": "0", "p": "", "t": str(created_ms),
            "st": _status_name(finished), "ta": ",".join(map(str, to_act)),
            **lifecycle.event_fields(life),
        }  # fmt: skip
        encoded = self.engine.encode(state)
        pending = {seat: pending_rule.Epoch(1) for seat in to_act}
        created = await self.store.create(
            game_id,
            meta,
            encoded,
            _status_name(finished),
            event,
            self.settings.idle_ttl_seconds,
            pending=pending_rule.encode(pending, 1),
            life=life.to_json(),
            deadline=lifecycle.deadline_arg(life),
        )
        if created:
            self._life_cache.put(game_id, (1, life))
            self._meta_cache.put(game_id, meta)
            self._state_cache.put(game_id, (1, state, pending))
            GAMES_CREATED.labels(self.spec.name).inc()
            bind(game_id=game_id)
            log.info("game_created", players=players, options=meta.options)
        return life

    # -------------------------------------------------------------- GetState

    @unary("game")
    async def GetState(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, seat = await self._caller(request, context, token_required=False)
        version, state, status = await self._load(game_id, meta)
        life = await self._life(game_id, meta, version)
        response = self.m.GetStateResponse(
            game_id=game_id,
            version=version,
            status=_status_value(status),
            to_act=[] if status in lifecycle.OVER else self.engine.to_act(state),
            clock=lifecycle.life_clock(life),
            viewer_seat=-1 if seat is None else seat,
            seats=[common_pb2.Seat(seat=i, name=n) for i, n in enumerate(meta.seat_names)],
        )
        self._fill_stored_view(response.view, game_id, version, state, seat)
        return response

    # ----------------------------------------------------------------- Legal

    @unary("game")
    async def Legal(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, seat = await self._caller(request, context, token_required=True)
        assert seat is not None
        version, state, status = await self._load(game_id, meta)
        response = self.m.LegalResponse(version=version)
        if status not in lifecycle.OVER:  # a game ended early has no legal actions
            self._fill_legal(response, game_id, version, state, seat, request.with_score_preview)
        return response

    def _fill_legal(
        self, response: Any, game_id: str, version: int, state: Any, seat: int, preview: bool
    ) -> None:
        """Fill ``response``'s legal actions (LegalResponse.actions or
        WatchResponse.legal: both ``repeated LegalAction``) with the seat's list
        at ``version``, with score previews when asked; both computed once per
        (version, seat)."""
        actions = self._legal(game_id, version, state, seat)
        target = self._legal_fields[type(response)]
        response.MergeFromString(self.codec.legal_wire(target.number, actions))
        if preview and actions:
            key = f"{game_id}:{version}:{seat}:preview"
            previews = self._legal_cache.get(key)
            if previews is None:
                previews = self._preview_scores(game_id, version, state, seat, actions)
                self._legal_cache.put(key, previews)
            messages = getattr(response, target.name)
            for message, score_after in zip(messages, previews, strict=False):
                message.score_after = score_after

    def _preview_scores(
        self, game_id: str, version: int, state: Any, seat: int, actions: list[Action]
    ) -> list[int]:
        """The seat's total after each action, simulated on a determinized copy:
        everything the seat cannot see (deck and bag order, other hands, the
        generator) is resampled by ``engine.determinize`` from a seed that
        depends only on the game, the version and the seat, so a preview tells
        nothing about the hidden order and two states that differ only in
        hidden information preview the same. Computed once per version and seat."""
        seed = int.from_bytes(hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()[:8])
        sample = self.engine.determinize(state, seat, Rng(seed))
        previews: list[int] = []
        for action in actions:
            trial = self.engine.apply(self.engine.clone(sample), seat, action)
            board = self.engine.score(trial)
            previews.append(next(s.total for s in board.seats if s.seat == seat))
        return previews

    # ----------------------------------------------------------------- Apply

    def _validate_apply(self, request: Any, choice: str | None) -> str:
        """The request's game id, once its fields are checked (INVALID_ARGUMENT)."""
        game_id = self._game_id(request)
        if request.expected_version <= 0:
            raise errors.invalid_argument("expected_version", "required, the version decided on")
        if len(request.request_id) > MAX_REQUEST_ID:
            raise errors.invalid_argument("request_id", f"at most {MAX_REQUEST_ID} characters")
        if choice == "action_id":
            if request.action_id < 0:
                raise errors.invalid_argument("action_id", "must not be negative")
        elif choice is None:
            raise errors.invalid_argument("choice", "set action_id or action")
        elif self.codec.kind_of(request.action) is None:
            raise errors.invalid_argument("action", "no action kind set")
        else:
            invalid = self.codec.invalid_field(request.action)
            if invalid is not None:
                raise errors.invalid_argument(f"action.{invalid[0]}", invalid[1])
        return game_id

    @staticmethod
    def _fingerprint(request: Any, seat: int) -> str:
        choice = request.WhichOneof("choice")
        body = (
            str(request.action_id).encode()
            if choice == "action_id"
            else request.action.SerializeToString(deterministic=True)
        )
        digest = hashlib.sha1(f"{seat}|{request.expected_version}|{choice}|".encode() + body)
        return digest.hexdigest()

    async def _replay(self, game_id: str, request: Any, fingerprint: str) -> Any | None:
        """The stored first result of this request id, if it was applied."""
        if not request.request_id:
            return None
        stored = await self.store.stored_result(game_id, request.request_id)
        return self._stored_response(stored, request.request_id, fingerprint) if stored else None

    def _stored_response(self, stored: bytes, request_id: str, fingerprint: str) -> bytes:
        """The first reply to ``request_id``, as sent (serialized)."""
        if stored[:FINGERPRINT_LENGTH].decode() != fingerprint:
            raise errors.request_id_reused(request_id)
        return zlib.decompress(stored[FINGERPRINT_LENGTH:])

    def _choose(self, request: Any, choice: str, legal: list[Action]) -> Action:
        if choice == "action_id":
            action_id = request.action_id
            if action_id >= len(legal):
                raise errors.precondition(
                    "ERROR_REASON_UNKNOWN_ACTION",
                    f"action_id {action_id} is not in the legal list ({len(legal)} actions)",
                )
            return legal[action_id]
        for candidate in legal:
            if self.codec.matches(request.action, candidate):
                return candidate
        raise errors.precondition(
            "ERROR_REASON_ILLEGAL_ACTION", "that action is not legal now", rule="NOT_LEGAL"
        )

    def _take_state(
        self, game_id: str, seat: int, expected: int
    ) -> tuple[int, Any, pending_rule.Pending | None] | None:
        """The state this process wrote last for the game, taken out of the cache
        when the request may apply to it (its version is ``expected``, or the
        seat's decision made on ``expected`` still stands); None otherwise."""
        cached = self._state_cache.get(game_id)
        if cached is None:
            return None
        version, _state, pending = cached
        if version != expected and not pending_rule.may_decide_late(
            pending, seat, expected, version
        ):
            return None
        del self._state_cache[game_id]
        return cached

    async def _base(
        self, game_id: str, meta: GameMeta, request: Any, fingerprint: str, seat: int
    ) -> tuple[int, Any, pending_rule.Pending | None, bool] | bytes:
        """The version, state and decision epochs the request applies to, and
        whether they came from the cache; or the stored reply of an applied
        request id. ABORTED when the request is stale (see ``pending.py``)."""
        expected = request.expected_version
        cached = self._take_state(game_id, seat, expected)
        if cached is not None:
            return (*cached, True)
        stored = await self.store.load(game_id, meta)
        if stored is None:
            raise errors.not_found(game_id)
        pending = pending_rule.decode(stored.pending, stored.version)
        if stored.version != expected and not pending_rule.may_decide_late(
            pending, seat, expected, stored.version
        ):
            replayed = await self._replay(game_id, request, fingerprint)
            if replayed is not None:
                return replayed
            raise errors.stale_version(expected, stored.version)
        self._life_cache.put(game_id, (stored.version, Life.from_json(stored.life, meta.players)))
        return stored.version, self.engine.decode(stored.state), pending, False

    @unary("game")
    async def Apply(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        """Apply one decision. ``expected_version`` is the version decided on;
        the decision applies to the current version when the seat's pending
        decision is unchanged since then (``services/core/pending.py``). A
        write that loses its compare-and-set to another seat's is re-checked
        under the same rule on the new version, a bounded number of times."""
        choice = request.WhichOneof("choice")
        game_id = self._validate_apply(request, choice)
        meta = self._meta_cache.get(game_id) or await self._meta(game_id)
        seat = self._seat(context, meta, required=True)
        assert seat is not None
        request_id = request.request_id
        bind(game_id=game_id, seat=seat, request_id=request_id)
        fingerprint = self._fingerprint(request, seat) if request_id else ""
        for _attempt in range(meta.players + 2):
            outcome = await self._apply_once(game_id, meta, request, choice, seat, fingerprint)
            if outcome is not None:
                return outcome
        found = await self.store.version_and_status(game_id)
        if found is None:
            raise errors.not_found(game_id)
        raise errors.stale_version(request.expected_version, found[0])

    async def _apply_once(
        self,
        game_id: str,
        meta: GameMeta,
        request: Any,
        choice: str,
        seat: int,
        fingerprint: str,
    ) -> bytes | None:
        """One attempt of an Apply: its serialized reply, or None when another
        write won the compare-and-set in between (the caller looks again)."""
        base = await self._base(game_id, meta, request, fingerprint, seat)
        if isinstance(base, bytes):
            return base
        current, state, pending, from_cache = base
        request_id = request.request_id
        to_act_before = [] if self.engine.is_over(state) else self.engine.to_act(state)
        life_before = await self._life(game_id, meta, current)
        now_ms = lifecycle.now_ms()
        try:
            self.lifecycle.check_decision(life_before, seat, now_ms)
            action = self._decide(game_id, request, choice, current, state, seat, to_act_before)
        except errors.ServiceError:
            if from_cache:
                self._state_cache.put(game_id, (current, state, pending))  # untouched
            replayed = await self._replay(game_id, request, fingerprint)
            if replayed is not None:
                return replayed
            raise
        digests_before = pending_rule.others_before(
            pending, to_act_before, seat, lambda s: self._legal(game_id, current, state, s)
        )
        try:
            state = self.engine.apply(state, seat, action)
        except IllegalAction as exc:
            raise errors.precondition(
                "ERROR_REASON_ILLEGAL_ACTION", exc.message, rule=exc.reason
            ) from exc

        finished = self.engine.is_over(state)
        to_act = [] if finished else self.engine.to_act(state)
        life = self.lifecycle.after_decision(life_before, state, seat, to_act, finished, now_ms)
        if life.ending and not finished:  # a cap ended the game (lifecycle/progress.py)
            finished, to_act = True, []
        version = current + 1
        # Cached only once the write wins: a losing write's state never becomes `version`.
        legal_after: dict[int, list[Action]] = {}
        if seat in to_act:
            legal_after[seat] = self.engine.legal(state, seat)

        def legal_of(other: int) -> list[Action]:
            if other not in legal_after:
                legal_after[other] = self.engine.legal(state, other)
            return legal_after[other]

        new_pending = pending_rule.after_decision(
            pending, version, seat, to_act, digests_before, legal_of
        )
        next_legal = legal_after.get(seat) if to_act else None
        status = FINISHED if finished else IN_PROGRESS
        event_fields = {
            "s": str(seat), "k": action.kind, "a": args_to_json(action), "l": action.label,
            "x": "1" if action.secret else "0", "p": action.public_label,
            "t": str(now_ms), "st": _status_name(finished), "ta": ",".join(map(str, to_act)),
            **lifecycle.event_fields(life),
        }  # fmt: skip
        # The reply is assembled as bytes: head, view (cached parts), legal list.
        # Its event is the stored one as the acting seat reads it (never redacted).
        event = {
            "version": version, "seat": seat, "kind": action.kind, "label": action.label,
            "time_ms": now_ms, "status": status, "to_act": to_act,
        }  # fmt: skip
        clock = lifecycle.life_clock(life)
        if clock is not None:
            event["clock"] = clock
        response = self.m.ApplyResponse(
            version=version, status=status, to_act=to_act, event=event
        ).SerializeToString()
        if not request.omit_view:
            response += field_wire(self._view_field, self._view_bytes(game_id, state, seat))
        previews: list[int] | None = None
        if next_legal:
            if request.with_score_preview:
                previews = self._preview_scores(game_id, version, state, seat, next_legal)
                response += self._legal_with_previews(
                    self._next_actions_field, next_legal, previews
                )
            else:
                response += self.codec.legal_wire(self._next_actions_field, next_legal)
        new_encoded = self.engine.encode(state)
        outcome = await self.store.apply(
            game_id,
            current,
            new_encoded,
            _status_name(finished),
            event_fields,
            request_id=request_id,
            fingerprint=fingerprint,
            # Stored only for retries, so only when the client named its request;
            # compressed (views shrink about 3x) since every Apply of a bot keeps one.
            result=zlib.compress(response, 1) if request_id else b"",
            request_ttl=self.settings.request_ttl_seconds,
            key_ttl=self.settings.game_ttl_seconds if finished else self.settings.idle_ttl_seconds,
            pending=pending_rule.encode(new_pending, version),
            game=self.spec.name,
            life=life.to_json(),
            deadline=lifecycle.deadline_arg(life),
        )
        if outcome.kind == "OK":
            if not finished:  # a finished game takes no more Applies: its reads decode
                self._state_cache.put(game_id, (version, state, new_pending))
                self._life_cache.put(game_id, (version, life))
            for other, actions in legal_after.items():
                self._legal_cache.put(f"{game_id}:{version}:{other}", actions)
            if previews is not None:
                self._legal_cache.put(f"{game_id}:{version}:{seat}:preview", previews)
            if finished:
                GAMES_FINISHED.labels(self.spec.name).inc()
                log.info("game_finished", version=version)
            return response
        if outcome.kind == "DUP":
            return self._stored_response(outcome.stored, request_id, fingerprint)
        if outcome.kind == "STALE":
            return None  # another write won: look again under the same rule
        raise errors.not_found(game_id)

    def _legal_with_previews(
        self, field_number: int, actions: list[Action], previews: list[int]
    ) -> bytes:
        """``repeated LegalAction`` at ``field_number`` with ``score_after`` filled."""
        listing = self.m.LegalResponse()
        listing.MergeFromString(self.codec.legal_wire(self._legal_field, actions))
        for message, score_after in zip(listing.actions, previews, strict=False):
            message.score_after = score_after
        return b"".join(field_wire(field_number, m.SerializeToString()) for m in listing.actions)

    def _decide(
        self,
        game_id: str,
        request: Any,
        choice: str,
        version: int,
        state: Any,
        seat: int,
        to_act: list[int],
    ) -> Action:
        """The engine action the request names, or the reason it cannot apply
        (``to_act``: the seats asked at ``version``, empty once the game is over)."""
        if not to_act and self.engine.is_over(state):
            raise errors.precondition("ERROR_REASON_GAME_OVER", "the game has ended")
        if seat not in to_act:
            raise errors.precondition(
                "ERROR_REASON_NOT_YOUR_TURN", f"seat {seat} is not asked to decide now"
            )
        return self._choose(request, choice, self._legal(game_id, version, state, seat))

    # ----------------------------------------------------------------- Score

    @unary("game")
    async def Score(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        game_id, meta, _seat = await self._caller(request, context, token_required=False)
        version, state, status = await self._load(game_id, meta)
        life = await self._life(game_id, meta, version)
        board = lifecycle_ending.adjust(self.engine.score(state), life)
        message = scoreboard_to_proto(board)
        lifecycle_ending.fill_proto(message, life, status in lifecycle.OVER)
        return self.m.ScoreResponse(version=version, scoreboard=message)

    # ----------------------------------------------------------------- Watch

    @streaming("game")
    async def Watch(self, request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        """The game's events after ``from_version``, then live ones, until the
        final event. A finished game watched from its last version or later
        ends at once; a version beyond a live game's current one is
        OUT_OF_RANGE. A draining server ends the stream with UNAVAILABLE.
        With ``skip_own_events`` a seat's stream leaves out the events of its
        own decisions but the final one (the seat learnt them from Apply)."""
        if request.from_version < 0:
            raise errors.invalid_argument("from_version", "must not be negative")
        game_id, meta, seat = await self._caller(request, context, token_required=False)
        found = await self.store.version_and_status(game_id)
        if found is None:
            raise errors.not_found(game_id)
        version, status = found
        if request.from_version >= version and status in lifecycle.OVER:
            return
        if request.from_version > version:
            raise errors.version_out_of_range(request.from_version, version)
        with_legal = request.include_legal and seat is not None
        skipped = seat if request.skip_own_events else None
        events = self.hub.events(game_id, request.from_version, skip_seat=skipped)
        async with contextlib.aclosing(events) as feed:
            async for batch in feed:
                last = len(batch) - 1
                for index, event_fields in enumerate(batch):
                    event = self._event(event_fields, seat)
                    latest = index == last
                    asked = with_legal and seat in event.to_act
                    if latest and asked and not request.include_view:
                        known = self._known_legal_wire(
                            game_id, event.version, seat, request.with_score_preview
                        )
                        if known is not None:
                            yield (
                                field_wire(self._watch_event_field, event.SerializeToString())
                                + known
                            )
                            continue
                    response = self.m.WatchResponse(event=event)
                    if latest and (request.include_view or asked):
                        version, state, _status, epochs = await self._load_with_epochs(
                            game_id, meta
                        )
                        if request.include_view:
                            self._fill_stored_view(response.view, game_id, version, state, seat)
                        # The list at the current version is the event's when the
                        # seat's pending decision has not changed since the event.
                        if asked and (
                            version == event.version
                            or pending_rule.may_decide_late(epochs, seat, event.version, version)
                        ):
                            self._fill_legal(
                                response, game_id, version, state, seat, request.with_score_preview
                            )
                    yield response
                    if event.status in (FINISHED, common_pb2.GAME_STATUS_ABORTED):
                        return

    def _known_legal_wire(
        self, game_id: str, version: int, seat: int, preview: bool
    ) -> bytes | None:
        """``WatchResponse.legal`` of ``seat`` at ``version`` from this process's
        memory alone, or None when that takes a read of the stored game.

        Known only while ``version`` is the newest event this process has heard
        of for the game (its watch feed's cursor): the seat's pending decision
        is then the one it had at that event, as a read of the stored version
        would tell, so the list is the event's. It comes from the legal cache
        (Apply fills it for the seats it listed) or from the state this process
        wrote at ``version`` (still in the state cache). Legal lists and score
        previews at a version never change, so nothing here can be stale."""
        if self.hub.cursor(game_id) != version:
            return None
        key = f"{game_id}:{version}:{seat}"
        actions = self._legal_cache.get(key)
        previews = self._legal_cache.get(f"{key}:preview") if preview else None
        state = None
        if actions is None or (preview and actions and previews is None):
            cached = self._state_cache.get(game_id)
            if cached is None or cached[0] != version:
                return None
            state = cached[1]
        if actions is None:
            actions = self._legal(game_id, version, state, seat)
        if not actions:
            return b""
        if preview:
            if previews is None:
                previews = self._preview_scores(game_id, version, state, seat, actions)
                self._legal_cache.put(f"{key}:preview", previews)
            return self._legal_with_previews(self._watch_legal_field, actions, previews)
        return self.codec.legal_wire(self._watch_legal_field, actions)

    # ---------------------------------------------------------------- GetLog

    @unary("game")
    async def GetLog(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        if request.from_version < 0 or request.limit < 0:
            raise errors.invalid_argument("from_version/limit", "must not be negative")
        game_id, meta, seat = await self._caller(request, context, token_required=False)
        version, _state, status = await self._load(game_id, meta)
        entries = []
        for stored in await self.store.events(game_id, request.from_version, request.limit):
            event = self._event(stored, seat)
            entry = self.m.LogEntry(event=event)
            if not event.redacted and event.seat >= 0 and event.kind not in lifecycle.KINDS:
                entry.action.CopyFrom(
                    self.codec.from_args_json(stored.fields["k"], stored.fields["a"])
                )
            entries.append(entry)
        finished = status in lifecycle.OVER
        return self.m.GetLogResponse(
            entries=entries,
            version=version,
            seed=meta.seed if finished else 0,
            options_json=_canonical(meta.options),
            players=meta.players,
        )

    # ---------------------------------------------------------- GetCatalogue

    @unary("game")
    async def GetCatalogue(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        """The game's catalogue, or ``not_modified`` when the caller has this version."""
        replies = self._catalogue
        if replies is None:
            replies = self._catalogue = catalogue_replies(
                self.spec.catalogue(), self.m.GetCatalogueResponse
            )
        return replies.unchanged if request.if_version == replies.version else replies.full


@dataclass(frozen=True, slots=True)
class CatalogueReplies:
    """A game's GetCatalogue answers, serialized once: the catalogue never changes
    while the process runs."""

    #: Content hash of the catalogue (hex SHA-256 of its deterministic bytes, 32 digits).
    version: str
    #: The response carrying the catalogue.
    full: bytes
    #: The response for a caller that already has ``version``.
    unchanged: bytes


def catalogue_version(catalogue: Message) -> str:
    """The catalogue's content hash: the same data gives the same version in every
    process (deterministic serialization; catalogues hold no maps)."""
    return hashlib.sha256(catalogue.SerializeToString(deterministic=True)).hexdigest()[:32]


def catalogue_replies(catalogue: Message, response: type[Message]) -> CatalogueReplies:
    """Both GetCatalogue answers of ``catalogue``, ready to send."""
    version = catalogue_version(catalogue)
    full = response(version=version, catalogue=catalogue).SerializeToString(deterministic=True)
    unchanged = response(version=version, not_modified=True).SerializeToString()
    return CatalogueReplies(version=version, full=full, unchanged=unchanged)


def _canonical(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))

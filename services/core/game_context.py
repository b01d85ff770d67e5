"""What every RPC of one game shares: its engine and store, the caller's seat,
and the process's caches of states, legal lists and views.

Nothing cached here can be stale on another replica: a version's state, legal
lists, score previews and views never change once written, and the state an
Apply changes is taken out of the cache while it does (services/core/apply.py).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import grpc
from google.protobuf.message import Message

from services.core import errors
from services.core import pending as pending_rule
from services.core.config import Settings
from services.core.convert import ActionCodec, view_to_proto
from services.core.engine import Action, Engine, Rng
from services.core.identity.seat_guard import SeatTokenGuard
from services.core.identity.settings import IdentitySettings
from services.core.lifecycle.record import Life
from services.core.lifecycle.writes import Lifecycle
from services.core.logging import bind
from services.core.requests import GameRequest
from services.core.spec import GameSpec
from services.core.store import GameMeta, GameStore
from services.core.tokens import TOKEN_METADATA_KEY, seat_for_token
from services.core.view_wire import ViewWire
from services.core.watch import EventHub
from services.core.wire import field_wire

CACHE_SIZE = 4096


class Lru(OrderedDict[str, Any]):
    """A tiny bounded LRU map."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: str, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)


def preview_scores(
    engine: Engine[Any], game_id: str, version: int, state: Any, seat: int, actions: list[Action]
) -> list[int]:
    """The seat's total after each action, simulated on a determinized copy:
    everything the seat cannot see (deck and bag order, other hands, the
    generator) is resampled by ``engine.determinize`` from a seed that depends
    only on the game, the version and the seat, so a preview tells nothing
    about the hidden order and two states that differ only in hidden
    information preview the same."""
    seed = int.from_bytes(hashlib.sha256(f"{game_id}:{version}:{seat}".encode()).digest()[:8])
    sample = engine.determinize(state, seat, Rng(seed))
    previews: list[int] = []
    for action in actions:
        trial = engine.apply(engine.clone(sample), seat, action)
        board = engine.score(trial)
        previews.append(next(s.total for s in board.seats if s.seat == seat))
    return previews


def token_of(context: grpc.aio.ServicerContext) -> str | None:
    """The seat token the call carries in its metadata, if any."""
    for key, value in context.invocation_metadata() or ():
        if key == TOKEN_METADATA_KEY:
            return value if isinstance(value, str) else value.decode()
    return None


def checked_game_id(request: GameRequest) -> str:
    """The request's game id (INVALID_ARGUMENT unless 1-64 letters or digits)."""
    game_id = request.game_id
    if not game_id:
        raise errors.invalid_argument("game_id", "required")
    if len(game_id) > 64 or not game_id.isalnum():
        raise errors.invalid_argument("game_id", "must be 1-64 letters or digits")
    return game_id


class GameContext:
    """One game's engine, store and caches, shared by its Apply pipeline, its
    reads and its Watch streams."""

    def __init__(self, spec: GameSpec, store: GameStore, settings: Settings) -> None:
        self.spec = spec
        self.engine = spec.engine
        self.store = store
        self.settings = settings
        #: Wrong seat tokens per peer (services/core/identity/seat_guard.py).
        self.seat_guard = SeatTokenGuard(IdentitySettings.from_env(), store.client)
        self.m = spec.messages
        self.codec = ActionCodec(spec.types.Action)
        self.hub = EventHub(store, max_behind=settings.watch_max_behind)
        self.legal_field = self.m.LegalResponse.DESCRIPTOR.fields_by_name["actions"].number
        # The repeated LegalAction field of each response that carries a legal list.
        self.legal_fields = {
            self.m.LegalResponse: self.m.LegalResponse.DESCRIPTOR.fields_by_name["actions"],
            self.m.WatchResponse: self.m.WatchResponse.DESCRIPTOR.fields_by_name["legal"],
        }
        self.view_wire = ViewWire(spec.types.View, shared=spec.view_parts_shared)
        # game id -> the parts of its last Apply view (see ViewWire)
        self.view_parts = Lru(CACHE_SIZE // 2)
        self.meta_cache = Lru(CACHE_SIZE)
        # token -> (the game's metadata object, seat): a token checked once against
        # the stored hashes is not hashed again while that game stays cached.
        self.seat_cache = Lru(CACHE_SIZE)
        # game id -> (version, state, decision epochs) this process wrote last
        self.state_cache = Lru(CACHE_SIZE)
        # (game_id, version, seat) -> legal actions; "...:preview" -> score previews
        self.legal_cache = Lru(CACHE_SIZE)
        self.view_cache = Lru(CACHE_SIZE // 2)
        #: Clocks, leavers, endings and caps (services/core/lifecycle/).
        self.lifecycle = Lifecycle(self)

    # ------------------------------------------------------------- the caller

    async def meta(self, game_id: str) -> GameMeta:
        """The game's immutable part (NOT_FOUND for another game's id)."""
        meta = self.meta_cache.get(game_id)
        if meta is None:
            meta = await self.store.load_meta(game_id)
            if meta is None or meta.game != self.spec.name:
                raise errors.not_found(game_id)
            self.meta_cache.put(game_id, meta)
        return meta

    def seat(self, context: grpc.aio.ServicerContext, meta: GameMeta, required: bool) -> int | None:
        """The caller's seat from its token; None for a spectator (when allowed)."""
        token = token_of(context)
        if not token:
            if required:
                raise errors.token_missing()
            return None
        self.seat_guard.check(context)
        known = self.seat_cache.get(token)
        if known is not None and known[0] is meta:
            return known[1]
        seat = seat_for_token(token, meta.token_hashes)
        if seat is None:
            self.seat_guard.failed(context)
            raise errors.token_invalid()
        self.seat_cache.put(token, (meta, seat))
        return seat

    async def caller(
        self, request: GameRequest, context: grpc.aio.ServicerContext, *, token_required: bool
    ) -> tuple[str, GameMeta, int | None]:
        """The game id, its metadata and the caller's seat (None: spectator),
        bound to the call's log lines."""
        game_id = checked_game_id(request)
        meta = await self.meta(game_id)
        seat = self.seat(context, meta, required=token_required)
        bind(game_id=game_id, seat=seat)
        return game_id, meta, seat

    # ------------------------------------------------------------- the state

    async def load(self, game_id: str, meta: GameMeta) -> tuple[int, Any, str]:
        """The game's stored version, its state and status. The state this process
        wrote last at that version is read in place (reads never change a state,
        and Apply takes its state out of the cache while it changes it) instead of
        being decoded again."""
        version, state, status, _pending = await self.load_with_epochs(game_id, meta)
        return version, state, status

    async def load_with_life(self, game_id: str, meta: GameMeta) -> tuple[int, Any, str, Life]:
        """As :meth:`load`, with the version's lifecycle record (the same read)."""
        stored = await self.store.load(game_id, meta)
        if stored is None:
            self.meta_cache.pop(game_id, None)
            raise errors.not_found(game_id)
        life = Life.from_json(stored.life, meta.players)
        cached = self.state_cache.get(game_id)
        if cached is not None and cached[0] == stored.version:
            return stored.version, cached[1], stored.status, life
        return stored.version, self.engine.decode(stored.state), stored.status, life

    async def load_with_epochs(
        self, game_id: str, meta: GameMeta
    ) -> tuple[int, Any, str, pending_rule.Pending | None]:
        """As :meth:`load`, with the seats' decision epochs at that version."""
        stored = await self.store.load(game_id, meta)
        if stored is None:
            self.meta_cache.pop(game_id, None)
            raise errors.not_found(game_id)
        cached = self.state_cache.get(game_id)
        if cached is not None and cached[0] == stored.version:
            return stored.version, cached[1], stored.status, cached[2]
        pending = pending_rule.decode(stored.pending, stored.version)
        return stored.version, self.engine.decode(stored.state), stored.status, pending

    # ------------------------------------------------------- legal and views

    def legal(self, game_id: str, version: int, state: Any, seat: int) -> list[Action]:
        """The seat's legal actions at ``version``, computed once per version."""
        key = f"{game_id}:{version}:{seat}"
        actions = self.legal_cache.get(key)
        if actions is None:
            actions = [] if self.engine.is_over(state) else self.engine.legal(state, seat)
            self.legal_cache.put(key, actions)
        return actions

    def previews(
        self, game_id: str, version: int, state: Any, seat: int, actions: list[Action]
    ) -> list[int]:
        """The seat's score previews at ``version`` (:func:`preview_scores`),
        computed once per version and seat."""
        key = f"{game_id}:{version}:{seat}:preview"
        previews = self.legal_cache.get(key)
        if previews is None:
            previews = preview_scores(self.engine, game_id, version, state, seat, actions)
            self.legal_cache.put(key, previews)
        return previews

    def fill_legal(
        self, response: Message, game_id: str, version: int, state: Any, seat: int, preview: bool
    ) -> None:
        """Fill ``response``'s legal actions (LegalResponse.actions or
        WatchResponse.legal: both ``repeated LegalAction``) with the seat's list
        at ``version``, with score previews when asked; both computed once per
        (version, seat)."""
        actions = self.legal(game_id, version, state, seat)
        target = self.legal_fields[type(response)]
        response.MergeFromString(self.codec.legal_wire(target.number, actions))
        if preview and actions:
            previews = self.previews(game_id, version, state, seat, actions)
            messages = getattr(response, target.name)
            for message, score_after in zip(messages, previews, strict=False):
                message.score_after = score_after

    def legal_with_previews(
        self, field_number: int, actions: list[Action], previews: list[int]
    ) -> bytes:
        """``repeated LegalAction`` at ``field_number`` with ``score_after`` filled."""
        listing = self.m.LegalResponse()
        listing.MergeFromString(self.codec.legal_wire(self.legal_field, actions))
        for message, score_after in zip(listing.actions, previews, strict=False):
            message.score_after = score_after
        return b"".join(field_wire(field_number, m.SerializeToString()) for m in listing.actions)

    def view(self, state: Any, seat: int | None) -> Message:
        """The view of ``state`` for ``seat`` (None: a spectator), as a message."""
        return view_to_proto(self.engine.view(state, seat), self.spec.types.View)

    def view_bytes(self, game_id: str, state: Any, seat: int | None) -> bytes:
        """The serialized view, reusing unchanged parts when the game allows."""
        view = self.engine.view(state, seat)
        if not self.spec.view_parts_are_values:
            return self.spec.types.View(**view).SerializeToString()
        if self.spec.view_parts_shared:
            return self.view_wire.encode(view)
        kept = self.view_parts.get(game_id)
        if kept is None:
            kept = {}
            self.view_parts.put(game_id, kept)
        return self.view_wire.encode(view, kept)

    def fill_stored_view(
        self, target: Message, game_id: str, version: int, state: Any, seat: int | None
    ) -> None:
        """The view of a stored version, built once per (version, reader): many
        spectators of one game (GetState, Watch) cost one build per version."""
        key = f"{game_id}:{version}:{-1 if seat is None else seat}"
        cached = self.view_cache.get(key)
        if cached is None:
            cached = self.view(state, seat).SerializeToString()
            self.view_cache.put(key, cached)
        target.MergeFromString(cached)

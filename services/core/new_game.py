"""NewGame: a game set up by the engine and stored at version 1."""

from __future__ import annotations

import secrets
from typing import Any

from google.protobuf.message import Message
from roost.common.v1 import common_pb2

from services.core import errors
from services.core import pending as pending_rule
from services.core.convert import options_from_proto
from services.core.engine import OptionError
from services.core.events import StoredEvent, status_name
from services.core.game_context import GameContext
from services.core.lifecycle import slots, transitions
from services.core.lifecycle import writes as lifecycle
from services.core.lifecycle.record import NORMAL, Life
from services.core.lifecycle.timecontrol import TimeControl
from services.core.logging import bind, get_logger
from services.core.metrics import GAMES_CREATED
from services.core.requests import NewGameRequest
from services.core.store import GameMeta
from services.core.tokens import hash_token, new_token

log = get_logger("roost.game")


async def new_game(game: GameContext, request: NewGameRequest) -> Message:
    """Set up and store a game; the reply holds every seat's token (only the
    hashes are stored) and the spectators' view."""
    common = request.common
    players = common.players
    if players <= 0:
        raise errors.invalid_argument("common.players", "required, at least 1")
    names = list(common.seat_names)
    if names and len(names) != players:
        raise errors.invalid_argument("common.seat_names", "one name per seat, or none")
    if any(len(n) > 64 for n in names):
        raise errors.invalid_argument("common.seat_names", "names are at most 64 characters")
    identities = list(common.seat_identities)
    if identities and len(identities) != players:
        raise errors.invalid_argument("common.seat_identities", "one identity per seat, or none")
    if any(len(i) > 128 for i in identities):
        raise errors.invalid_argument(
            "common.seat_identities", "identities are at most 128 characters"
        )
    seed = common.seed or secrets.randbits(63)
    engine = game.engine
    try:
        options = game.spec.adapt_options(options_from_proto(request.options))
        state = engine.setup(players, options, seed)
    except OptionError as exc:
        path = "common.players" if exc.field_name == "players" else f"options.{exc.field_name}"
        raise errors.invalid_options(path, exc.message) from exc
    time_control = game.lifecycle.time_control(common)
    tokens = [new_token() for _ in range(players)]
    game_id = slots.new_game_id(game.store.cluster)
    meta = GameMeta(
        game=game.spec.name,
        players=players,
        seed=seed,
        options=options,
        seat_names=names or [f"Seat {i}" for i in range(players)],
        token_hashes=[hash_token(t) for t in tokens],
        identities=identities,
    )
    life = await create_game(game, game_id, meta, state, time_control)
    return game.m.NewGameResponse(
        game_id=game_id,
        version=1,
        credentials=[common_pb2.SeatCredential(seat=i, token=t) for i, t in enumerate(tokens)],
        seats=[common_pb2.Seat(seat=i, name=n) for i, n in enumerate(meta.seat_names)],
        view=game.view(state, None),
        to_act=[] if life.ending else engine.to_act(state),
        clock=life.clock(),
    )


async def create_game(
    game: GameContext,
    game_id: str,
    meta: GameMeta,
    state: Any,
    time_control: TimeControl,
    left: tuple[int, ...] = (),
) -> Life:
    """Store a set-up game at version 1 with its lifecycle record (NewGame, and
    a rematch: ``left`` are seats the house bot plays from the start); the
    record is returned. Nothing is written when ``game_id`` exists already."""
    engine = game.engine
    players = meta.players
    to_act = engine.to_act(state)
    finished = engine.is_over(state)
    created_ms = lifecycle.now_ms()
    life = transitions.start(time_control, players, [] if finished else to_act, created_ms)
    life.left.extend(left)
    if finished:
        life.ending = NORMAL
    status = status_name(finished)
    event = StoredEvent(
        version=1,
        seat=-1,
        kind="new_game",
        args_json="[]",
        label=f"{players}-player game created",
        secret=False,
        public_label="",
        time_ms=created_ms,
        status=status,
        to_act=tuple(to_act),
        life=lifecycle.event_life(life),
    )
    pending = {seat: pending_rule.Epoch(1) for seat in to_act}
    created = await game.store.create(
        game_id,
        meta,
        engine.encode(state),
        status,
        event,
        game.settings.idle_ttl_seconds,
        pending=pending_rule.encode(pending, 1),
        life=life.to_json(),
        deadline=lifecycle.deadline_arg(life),
    )
    if created:
        game.meta_cache.put(game_id, meta)
        game.state_cache.put(game_id, (1, state, pending))
        game.lifecycle.remember(game_id, 1, life)
        GAMES_CREATED.labels(game.spec.name).inc()
        bind(game_id=game_id)
        log.info("game_created", players=players, options=meta.options)
    return life

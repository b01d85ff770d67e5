"""Watch: a game's events after a version, then live ones, as a stream.

The events come from the process's :class:`~services.core.watch.EventHub`
(one subscription per watched game, whatever the number of streams). Each
response carries one event as its reader may see it and, on the newest event
of a batch, the view and the reader's legal actions when asked.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import grpc
from google.protobuf.message import Message
from roost.common.v1 import common_pb2

from services.core import errors
from services.core import pending as pending_rule
from services.core.events import OVER
from services.core.game_context import GameContext
from services.core.requests import WatchRequest
from services.core.wire import field_wire

FINISHED = common_pb2.GAME_STATUS_FINISHED


class WatchStreams:
    """The Watch RPC of one game."""

    def __init__(self, game: GameContext) -> None:
        self.game = game
        fields = game.m.WatchResponse.DESCRIPTOR.fields_by_name
        self._event_field = fields["event"].number
        self._legal_field = fields["legal"].number

    async def watch(
        self, request: WatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[Message | bytes]:
        """The game's events after ``from_version``, then live ones, until the
        final event. A finished game watched from its last version or later
        ends at once; a version beyond a live game's current one is
        OUT_OF_RANGE. A draining server ends the stream with UNAVAILABLE.
        With ``skip_own_events`` a seat's stream leaves out the events of its
        own decisions but the final one (the seat learnt them from Apply)."""
        if request.from_version < 0:
            raise errors.invalid_argument("from_version", "must not be negative")
        game = self.game
        game_id, meta, seat = await game.caller(request, context, token_required=False)
        found = await game.store.version_and_status(game_id)
        if found is None:
            raise errors.not_found(game_id)
        version, status = found
        if request.from_version >= version and status in OVER:
            return
        if request.from_version > version:
            raise errors.version_out_of_range(request.from_version, version)
        with_legal = request.include_legal and seat is not None
        skipped = seat if request.skip_own_events else None
        events = game.hub.events(game_id, request.from_version, skip_seat=skipped)
        async with contextlib.aclosing(events) as feed:
            async for batch in feed:
                last = len(batch) - 1
                for index, stored in enumerate(batch):
                    event = stored.to_proto(seat)
                    latest = index == last
                    asked = with_legal and seat in event.to_act
                    if latest and asked and not request.include_view:
                        known = self._known_legal_wire(
                            game_id, event.version, seat, request.with_score_preview
                        )
                        if known is not None:
                            yield field_wire(self._event_field, event.SerializeToString()) + known
                            continue
                    response = game.m.WatchResponse(event=event)
                    if latest and (request.include_view or asked):
                        version, state, _status, epochs = await game.load_with_epochs(game_id, meta)
                        if request.include_view:
                            game.fill_stored_view(response.view, game_id, version, state, seat)
                        # The list at the current version is the event's when the
                        # seat's pending decision has not changed since the event.
                        if asked and (
                            version == event.version
                            or pending_rule.may_decide_late(epochs, seat, event.version, version)
                        ):
                            game.fill_legal(
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
        game = self.game
        if game.hub.cursor(game_id) != version:
            return None
        key = f"{game_id}:{version}:{seat}"
        actions = game.legal_cache.get(key)
        previews = game.legal_cache.get(f"{key}:preview") if preview else None
        state = None
        if actions is None or (preview and actions and previews is None):
            cached = game.state_cache.get(game_id)
            if cached is None or cached[0] != version:
                return None
            state = cached[1]
        if actions is None:
            actions = game.legal(game_id, version, state, seat)
        if not actions:
            return b""
        if preview:
            if previews is None:
                previews = game.previews(game_id, version, state, seat, actions)
            return game.legal_with_previews(self._legal_field, actions, previews)
        return game.codec.legal_wire(self._legal_field, actions)

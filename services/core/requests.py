"""The request shapes the shared handlers read, as every game's generated
messages have them.

Each game's ``service.proto`` comes from one template
(tools/game_service.proto.tmpl), so its ``NewGameRequest``, ``ApplyRequest``,
... in the generated ``service_pb2.pyi`` all have these fields. A game's
servicer (``services/<game>/service.py``) takes its own generated types; the
shared steps in services/core are written against these protocols, which
each of those types satisfies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from google.protobuf.message import Message


class GameRequest(Protocol):
    """Any request naming a game (GetState, Score)."""

    @property
    def game_id(self) -> str: ...


class CommonOptions(Protocol):
    """``roost.common.v1.CommonOptions``."""

    @property
    def players(self) -> int: ...
    @property
    def seat_names(self) -> Sequence[str]: ...
    @property
    def seed(self) -> int: ...


class NewGameRequest(Protocol):
    """``<game>.v1.NewGameRequest``."""

    @property
    def common(self) -> CommonOptions: ...
    @property
    def options(self) -> Message: ...


class LegalRequest(GameRequest, Protocol):
    """``<game>.v1.LegalRequest``."""

    @property
    def with_score_preview(self) -> bool: ...


class ApplyRequest(GameRequest, Protocol):
    """``<game>.v1.ApplyRequest``: one decision, by ``action_id`` or ``action``
    (the oneof ``choice``)."""

    @property
    def expected_version(self) -> int: ...
    @property
    def request_id(self) -> str: ...
    @property
    def action_id(self) -> int: ...
    @property
    def action(self) -> Message: ...
    @property
    def omit_view(self) -> bool: ...
    @property
    def with_score_preview(self) -> bool: ...
    def WhichOneof(self, oneof_group: str) -> str | None: ...


class WatchRequest(GameRequest, Protocol):
    """``<game>.v1.WatchRequest``."""

    @property
    def from_version(self) -> int: ...
    @property
    def include_view(self) -> bool: ...
    @property
    def include_legal(self) -> bool: ...
    @property
    def with_score_preview(self) -> bool: ...
    @property
    def skip_own_events(self) -> bool: ...


class GetLogRequest(GameRequest, Protocol):
    """``<game>.v1.GetLogRequest``."""

    @property
    def from_version(self) -> int: ...
    @property
    def limit(self) -> int: ...


class GetCatalogueRequest(Protocol):
    """``<game>.v1.GetCatalogueRequest``."""

    @property
    def if_version(self) -> str: ...

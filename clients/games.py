"""Building the shared requests of any game from its generated messages module."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from google.protobuf import json_format
from roost.common.v1 import common_pb2


def new_game_request(
    messages: ModuleType,
    players: int,
    seed: int = 0,
    names: list[str] | None = None,
    options_json: str = "",
) -> Any:
    """A NewGameRequest; ``options_json`` is JSON of the game's Options message."""
    request = messages.NewGameRequest(
        common=common_pb2.CommonOptions(players=players, seed=seed, seat_names=names or [])
    )
    if options_json.strip():
        json_format.Parse(options_json, request.options)
    return request


def supports_preview(messages: ModuleType) -> bool:
    """True when the game's Legal can fill a one-ply score preview (``score_after``)."""
    return "with_score_preview" in messages.LegalRequest.DESCRIPTOR.fields_by_name

"""The OpenSpiel observer of Roost's games (the PyObserver interface).

What a player observes is its view (``engine.view(state, seat)``): nothing
hidden. With ``perfect_recall`` (the information state) it also remembers
every decision taken so far as it saw it: its own by their labels, another
seat's by its label unless the decision was secret (then its public label,
"Seat 1 kept a card"); the chance node shows nothing (the seed). Without
private information (``PrivateInfoType.NONE``) the view is a spectator's.

* ``string_from``: the view as sorted JSON, then (perfect recall) one line per
  decision. Two states that differ only in what the seat cannot see give the
  same string.
* ``tensor`` / ``dict``: ``view``, the view's vector (:mod:`clients.ai.observe`);
  with perfect recall also ``history``, a hashed bag (CRC-32, :data:`HISTORY`
  slots) of the decisions as seen, each slot counting (seat relative to the
  viewer, label).
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import orjson
import pyspiel

#: Slots of the hashed decision history in the information state tensor.
HISTORY = 256


def seen(match: Any, viewer: int | None) -> list[str]:
    """The decisions of a match as ``viewer`` saw them (module docstring)."""
    out = []
    for mover, action in match.history:
        label = action.label
        if action.secret and mover != viewer:
            label = action.public_label or f"Seat {mover} decided"
        out.append(f"{mover}: {label}")
    return out


class RoostObserver:
    """Observation or information state of a Roost game (module docstring)."""

    def __init__(self, game: Any, iig_obs_type: pyspiel.IIGObservationType, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoder = game.encoder
        self.players = game.players
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        size = self.encoder.size + (HISTORY if self.recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor[: self.encoder.size]}
        if self.recall:
            self.dict["history"] = self.tensor[self.encoder.size :]

    def _seat(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: Any, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` observes it."""
        match = state.match
        if match is None:
            self.tensor.fill(0.0)
            return
        seat = self._seat(player)
        self.encoder.encode(match.view(seat), self.dict["view"])
        if self.recall:
            history = self.dict["history"]
            history.fill(0.0)
            for mover, action in match.history:
                label = action.label
                if action.secret and mover != seat:
                    label = action.public_label or "decided"
                relative = (mover - (seat or 0)) % self.players
                history[zlib.crc32(f"{relative}:{label}".encode()) % HISTORY] += 1.0

    def string_from(self, state: Any, player: int) -> str:
        """``state`` as ``player`` observes it, as text."""
        match = state.match
        if match is None:
            return "start"
        seat = self._seat(player)
        text = orjson.dumps(match.view(seat), option=orjson.OPT_SORT_KEYS).decode()
        if self.recall:
            text = "\n".join([text, *seen(match, seat)])
        return text

"""Observation tensors: a seat's ``View`` as a fixed-length float vector.

The input is the view the engine gives the seat (``engine.view(state, seat)``)
or, remotely, the service's ``View`` message read into the same plain values
(:func:`clients.bots.search.protoview.to_values`): nothing else, so no hidden
information can reach a tensor. The vector has two parts:

* a header of ``2 * MAX_SEATS`` values: the viewer's seat one-hot, then a 1
  for every seat the view lists in ``to_act`` or names as ``current_seat`` /
  ``turn_seat``, both *relative to the viewer* (index 0 is always the viewer);
* ``width`` hashed features (feature hashing, as in Vowpal Wabbit): the view is
  walked as a tree; every leaf gives a path such as ``players[1].food.seed``
  and adds to one slot chosen by a stable hash (CRC-32) of that path:
  a number (or bool) adds its value to the path's slot, a string (an enum
  name, a card id) adds 1 to the slot of ``path=value``. Strings longer than
  40 characters (rule texts) are left out. Lists of dicts that carry a
  ``seat`` are indexed by seat relative to the viewer (``[0]`` is the
  viewer's own entry); dicts carrying integer ``x`` and ``y`` put them in the
  path (``tiles@1,-2.terrains``), so a garden becomes a hashed map of its
  cells; other lists are read as bags (``[]``), except lists of up to eight
  dicts (a market, a tray), which keep their positions.

Two views that are equal give equal vectors; the encoding is the same in
process and remote. Collisions of the hash add features together, as feature
hashing does; ``width`` (per game in :data:`WIDTHS`) keeps them rare.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

#: Most seats of any game (the header's size is twice this).
MAX_SEATS = 5
#: Hashed features per game.
WIDTHS = {"undertheleaves": 1024, "wingspan": 1024, "birdscaping": 512, "skygarden": 1024}
_LONG = 40
_SEAT_KEYS = ("current_seat", "turn_seat")


class ViewEncoder:
    """Encodes a game's views (module docstring); one per game, reused."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        self.width = WIDTHS.get(game, 1024)
        #: Length of the whole vector.
        self.size = 2 * MAX_SEATS + self.width
        self._slots: dict[str, int] = {}

    def _slot(self, key: str) -> int:
        slot = self._slots.get(key)
        if slot is None:
            slot = 2 * MAX_SEATS + zlib.crc32(key.encode()) % self.width
            if len(self._slots) < 500_000:
                self._slots[key] = slot
        return slot

    def encode(self, view: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``view`` (written into ``out`` when given)."""
        vector = np.zeros(self.size, np.float32) if out is None else out
        if out is not None:
            vector.fill(0.0)
        viewer = view.get("viewer_seat", -1)
        players = max(self.players, 1)
        if 0 <= viewer < MAX_SEATS:
            vector[viewer] = 1.0
            acting = list(view.get("to_act", ()) or ())
            for key in _SEAT_KEYS:
                seat = view.get(key)
                if isinstance(seat, int) and 0 <= seat < players:
                    acting.append(seat)
            for seat in acting:
                if isinstance(seat, int) and 0 <= seat < players:
                    vector[MAX_SEATS + (seat - viewer) % players] = 1.0
        values: list[tuple[int, float]] = []
        self._walk(view, "", viewer if viewer >= 0 else 0, players, values)
        for slot, value in values:
            vector[slot] += value
        return vector

    def _walk(self, node: Any, path: str, viewer: int, players: int, out: list) -> None:
        if isinstance(node, dict):
            x, y = node.get("x"), node.get("y")
            if type(x) is int and type(y) is int:
                path = f"{path}@{x},{y}"
            for key, value in node.items():
                self._walk(value, f"{path}.{key}", viewer, players, out)
        elif isinstance(node, list):
            if not node:
                return
            first = node[0]
            if isinstance(first, dict):
                seated = "seat" in first
                small = len(node) <= 8
                for position, item in enumerate(node):
                    if seated and isinstance(item.get("seat"), int):
                        mark = f"[{(item['seat'] - viewer) % players}]"
                    elif small:
                        mark = f"[{position}]"
                    else:
                        mark = "[]"
                    self._walk(item, path + mark, viewer, players, out)
            else:
                bag = path + "[]"
                for item in node:
                    self._walk(item, bag, viewer, players, out)
        elif isinstance(node, str):
            if node and len(node) <= _LONG:
                out.append((self._slot(f"{path}={node}"), 1.0))
        elif isinstance(node, bool):
            if node:
                out.append((self._slot(path), 1.0))
        elif isinstance(node, int | float) and node:
            out.append((self._slot(path), float(node)))

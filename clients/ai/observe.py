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
from functools import cache
from typing import Any

import numpy as np

#: Most seats of any game (the header's size is twice this).
MAX_SEATS = 5
#: Hashed features per game.
WIDTHS = {"undertheleaves": 1024, "wingspan": 1024, "birdscaping": 512, "skygarden": 1024}
_LONG = 40
#: Games whose engine returns unchanged view parts as the very same dicts.
SHARED_PARTS = frozenset({"undertheleaves"})
#: Parts remembered at most (then forgotten all at once).
_MEMO_LIMIT = 20_000
_SEAT_KEYS = ("current_seat", "turn_seat")


@cache
def encoder_of(game: str, players: int) -> ViewEncoder:
    """The shared encoder of a game and player count (its caches serve every match)."""
    return ViewEncoder(game, players)


class ViewEncoder:
    """Encodes a game's views (module docstring); one per game, reused."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        self.width = WIDTHS.get(game, 1024)
        #: Length of the whole vector.
        self.size = 2 * MAX_SEATS + self.width
        self._slots: dict[Any, int] = {}
        #: Views whose unchanged parts are the very same dicts (the engine's
        #: ``view_parts_shared``): a part's features are kept by identity.
        self.shared = game in SHARED_PARTS
        self._memo: dict[tuple[int, str, int], tuple[Any, list[int], list[float]]] = {}
        self._viewer = 0
        self._players = players

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
        slots: list[int] = []
        values: list[float] = []
        self._viewer, self._players = (viewer if viewer >= 0 else 0), players
        self._walk(view, "", slots, values)
        if len(self._memo) > _MEMO_LIMIT:
            self._memo.clear()
        if slots:
            base = 2 * MAX_SEATS
            vector[base:] += np.bincount(
                np.asarray(slots, np.intp) - base, weights=values, minlength=self.width
            ).astype(np.float32)
        return vector

    def _slot(self, key: Any) -> int:
        slot = self._slots.get(key)
        if slot is None:
            text = key if isinstance(key, str) else f"{key[0]}={key[1]}"
            slot = 2 * MAX_SEATS + zlib.crc32(text.encode()) % self.width
            if len(self._slots) < 500_000:
                self._slots[key] = slot
        return slot

    def _leaf(self, node: Any, path: str, slots: list[int], values: list[float]) -> None:
        """A scalar: a string adds 1 at ``path=value``, a number its value at ``path``."""
        kind = type(node)
        if kind is str:
            if node and len(node) <= _LONG:
                key = (path, node)
                slot = self._slots.get(key)
                slots.append(slot if slot is not None else self._slot(key))
                values.append(1.0)
        elif node:  # bool, int, float; zeros and False add nothing
            slot = self._slots.get(path)
            slots.append(slot if slot is not None else self._slot(path))
            values.append(float(node))

    def _walk(self, node: Any, path: str, slots: list[int], values: list[float]) -> None:
        kind = type(node)
        if kind is dict:
            memo = self._memo if self.shared else None
            if memo is not None:
                key = (id(node), path, self._viewer)
                hit = memo.get(key)
                if hit is not None and hit[0] is node:
                    slots.extend(hit[1])
                    values.extend(hit[2])
                    return
                outer_slots, outer_values = slots, values
                slots, values = [], []
            x, y = node.get("x"), node.get("y")
            if type(x) is int and type(y) is int:
                path = f"{path}@{x},{y}"
            for name, value in node.items():
                child = type(value)
                if child is dict or child is list:
                    self._walk(value, path + "." + name, slots, values)
                else:
                    self._leaf(value, path + "." + name, slots, values)
            if memo is not None:
                memo[key] = (node, slots, values)  # holds node: its id stays its own
                outer_slots.extend(slots)
                outer_values.extend(values)
        elif kind is list:
            if not node:
                return
            if type(node[0]) is dict:
                seated = "seat" in node[0]
                small = len(node) <= 8
                viewer, players = self._viewer, self._players
                for position, item in enumerate(node):
                    seat = item.get("seat") if seated else None
                    if type(seat) is int:
                        mark = f"[{(seat - viewer) % players}]"
                    elif small:
                        mark = f"[{position}]"
                    else:
                        mark = "[]"
                    self._walk(item, path + mark, slots, values)
            else:
                bag = path + "[]"
                for item in node:
                    if type(item) is dict or type(item) is list:
                        self._walk(item, bag, slots, values)
                    else:
                        self._leaf(item, bag, slots, values)
        else:
            self._leaf(node, path, slots, values)

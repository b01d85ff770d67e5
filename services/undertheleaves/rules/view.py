"""What a seat sees: everything public (every garden, the market, the bag's
size, never its order), as a dict following ``View`` in
protos/roost/undertheleaves/v1/types.proto.

Views are read-only values: the parts that did not change since the last view
are the very same dicts, which the service's view encoder recognises by
identity (``GameSpec.view_parts_shared``). The caches behind that are named in
:mod:`caches` (``part_views``, ``garden_view``).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import XS, YS, PlacedTile
from services.undertheleaves.rules.caches import KEPT
from services.undertheleaves.rules.catalogue import BAG_SIZE, CARDS, FACES, MARKET_SIZE, DwellerCard
from services.undertheleaves.rules.dwellers import Placement
from services.undertheleaves.rules.scoring import pieces, totals
from services.undertheleaves.rules.state import Garden, State
from services.undertheleaves.rules.turns import dweller_options

_PHASES = {
    st.TAKE_TILE: "PHASE_TAKE_TILE",
    st.PLACE_TILE: "PHASE_PLACE_TILE",
    st.PLACE_DWELLER: "PHASE_PLACE_DWELLER",
    st.OVER: "PHASE_OVER",
}
_TERRAIN_NAMES = {
    t: f"TERRAIN_{t.upper()}" for t in ("pink", "yellow", "orange", "purple", "green", "puddle")
}
_FAMILY_NAMES: dict[str, str] = {
    card.id: f"FAMILY_{card.family.upper()}" for card in CARDS.values()
}
#: Tile id -> (rotation, flipped) -> (terrain name, mushroom) of tl, tr, bl, br.
_FACE_VIEWS: dict[str, dict[tuple[int, bool], tuple[tuple[str, bool], ...]]] = {
    tile: {
        o: tuple((_TERRAIN_NAMES[s.terrain], s.mushroom) for s in face) for o, face in faces.items()
    }
    for tile, faces in FACES.items()
}
#: Tile id -> its printed spaces as View dicts (read-only, shared by every view).
_SPACE_VIEWS: dict[str, list[dict[str, Any]]] = {
    tile: [{"terrain": t, "mushroom": m} for t, m in faces[(0, False)]]
    for tile, faces in _FACE_VIEWS.items()
}


def _cells_view(cells: tuple[int, ...]) -> list[dict[str, int]]:
    """Cells given in reading order, as View cells."""
    return [{"x": XS[c], "y": YS[c]} for c in cells]


def _placement_view(placement: Placement) -> dict[str, Any]:
    a = placement.anchor
    return {"x": XS[a], "y": YS[a], "cells": _cells_view(tuple(sorted(placement.cells)))}


def _card_view(card: DwellerCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "family": f"FAMILY_{card.family.upper()}",
        "name": card.name,
        "first_game": card.first_game,
        "condition": card.condition,
        "placement": card.placement,
        "reuse": card.reuse,
    }


#: Card id -> its View dict (cards never change).
_CARD_VIEWS: dict[str, dict[str, Any]] = {
    card_id: _card_view(card) for card_id, card in CARDS.items()
}


def _build_tile_view(placed: PlacedTile, birds: int) -> dict[str, Any]:
    """A placed tile, its four cells and its hummingbirds.

    The cells are two flat lists, ``terrains`` and ``mushrooms``, in the tile's
    reading order: (2x, 2y), (2x+1, 2y), (2x, 2y-1), (2x+1, 2y-1) for the tile at
    (x, y) (``board.tile_cells``); no dict per cell, so the View holds no
    sub-message per cell.
    """
    tile, tx, ty, rotation, flipped = placed
    (t0, m0), (t1, m1), (t2, m2), (t3, m3) = _FACE_VIEWS[tile][(rotation, flipped)]
    return {
        "tile": tile,
        "x": tx,
        "y": ty,
        "rotation": rotation,
        "flipped": flipped,
        "terrains": [t0, t1, t2, t3],
        "mushrooms": [m0, m1, m2, m3],
        "hummingbirds": birds,
    }


def _build_market_view(slot: int, tile: str) -> dict[str, Any]:
    """A market slot and the tile in it, with its printed spaces."""
    return {"slot": slot, "tile": tile, "spaces": _SPACE_VIEWS[tile]}


def _build_bee_sector_view(record: st.BeeSector) -> dict[str, Any]:
    """A pollinized sector and its bees."""
    return {
        "colour": _TERRAIN_NAMES[record.colour],
        "bees": record.bees,
        "cells": _cells_view(record.cells),
    }


def _build_dweller_view(record: st.Dweller) -> dict[str, Any]:
    """A dweller piece."""
    return {
        "card": record.card,
        "family": _FAMILY_NAMES[record.card],
        "x": XS[record.anchor],
        "y": YS[record.anchor],
        "cells": _cells_view(record.cells),
        "turn": record.turn,
    }


# Built once per immutable value (a placed tile and its birds, a record, a
# slot and tile) and shared by every later view: cache ``part_views``.
_tile_view = lru_cache(maxsize=50_000)(_build_tile_view)
_market_view = cache(_build_market_view)  # at most 3 slots x 54 tiles
_bee_sector_view = lru_cache(maxsize=20_000)(_build_bee_sector_view)
_dweller_view = lru_cache(maxsize=20_000)(_build_dweller_view)


def _garden_counts(garden: Garden) -> dict[str, int]:
    """The garden's pieces (``scoring.pieces``), counted again only when the
    garden changed (:meth:`Garden.version`). The version, the counts and the
    garden's last view are kept in ``garden.view_cache``."""
    if not KEPT["garden_view"]:
        return pieces(garden)
    version = garden.version()
    cached = garden.view_cache
    if cached is None or cached[0] != version:
        cached = garden.view_cache = (version, pieces(garden), -1, None)
    return cached[1]


def _garden_view(seat: int, garden: Garden, counts: dict[str, int], score: int) -> dict[str, Any]:
    """A seat's garden as a View dict, rebuilt only when the garden or its score
    changed (the same dict object is returned otherwise). ``counts`` come from
    :func:`_garden_counts`."""
    if not KEPT["garden_view"]:
        return build_garden_view(seat, garden, counts, score)
    version, counts, kept_score, view = garden.view_cache  # type: ignore[misc]
    if view is not None and kept_score == score and view["seat"] == seat:
        return view
    view = build_garden_view(seat, garden, counts, score)
    garden.view_cache = (version, counts, score, view)
    return view


def build_garden_view(
    seat: int, garden: Garden, counts: dict[str, int], score: int
) -> dict[str, Any]:
    """A seat's garden as a View dict, built afresh (its parts may be shared)."""
    tiles, bee_sectors, dwellers = garden_parts(garden)
    return {
        "seat": seat,
        "tiles": tiles,
        "bee_sectors": bee_sectors,
        "dwellers": dwellers,
        "pieces": counts,
        "score": score,
    }


def garden_parts(garden: Garden) -> tuple[list[Any], list[Any], list[Any]]:
    """The View lists of a garden's tiles, bee sectors and dwellers (new lists;
    the dicts in them are shared, built once per immutable value)."""
    if KEPT["part_views"]:
        tile_view, sector_view, dweller_view = _tile_view, _bee_sector_view, _dweller_view
    else:
        tile_view, sector_view = _build_tile_view, _build_bee_sector_view
        dweller_view = _build_dweller_view
    get = dict(garden.hummingbirds).get
    return (
        [tile_view(placed, get((placed[1], placed[2]), 0)) for placed in garden.tiles],
        [sector_view(record) for record in garden.bee_sectors],
        [dweller_view(record) for record in garden.dwellers],
    )


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Everything public: all gardens, the market, the bag's size (never its order).

    Keys and values follow ``View`` in protos/roost/undertheleaves/v1/types.proto.
    """
    choosing = state.phase == st.PLACE_DWELLER
    counts = [_garden_counts(g) for g in state.gardens]
    seat_totals = totals(counts)
    options = state.options
    taken = state.taken_tile
    part_views = KEPT["part_views"]
    market_view = _market_view if part_views else _build_market_view
    return {
        "viewer_seat": -1 if seat is None else seat,
        "players": state.players,
        "variants": {
            "allow_flip": options.allow_flip,
            "thoughtful_one_per_sector_per_turn": options.thoughtful_one_per_sector_per_turn,
            "existing_sector_bonus_once_per_colour_per_turn": (
                options.existing_sector_bonus_once_per_colour_per_turn
            ),
        },
        "dweller_cards": [_CARD_VIEWS[card] for card in state.cards],
        "market": [market_view(slot, tile) for slot, tile in enumerate(state.market)],
        "bag_count": len(state.bag),
        "first_seat": state.first_seat,
        "current_seat": -1 if state.phase == st.OVER else state.current,
        "turns_played": state.turn,
        "turns_total": BAG_SIZE[state.players] - MARKET_SIZE + 1,
        "phase": _PHASES[state.phase],
        "taken_tile": taken,
        "taken_spaces": _SPACE_VIEWS[taken] if taken else [],
        "pending_card": state.pending_card,
        "pending_options": [_placement_view(p) for p in dweller_options(state)] if choosing else [],
        "gardens": [
            _garden_view(owner, garden, counts[owner], seat_totals[owner])
            for owner, garden in enumerate(state.gardens)
        ],
    }

"""The game's components, loaded once from ``data/`` (copied from shared/data/undertheleaves).

* 50 garden tiles and 4 start tiles. A tile is a 2×2 grid of spaces; each space
  has a terrain (one of five colours, or ``puddle``) and may hold a mushroom.
* The 12 dweller cards, four per family (leaf, puddle, mushroom).
* The numbers of ``game.json``: players, bag size per player count, market size.

Orientation: a tile is placed rotated clockwise by 0/90/180/270 degrees and
then, when ``flipped``, mirrored left to right (the BGA port's "inverse").
Every tile's face in every orientation, and the orientations that show
distinct faces, are computed once at import (``FACES``, ``distinct_orientations``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

COLOURS: tuple[str, ...] = ("pink", "yellow", "orange", "purple", "green")
PUDDLE = "puddle"
#: One string object per terrain, so that terrains compare by identity at once.
_TERRAINS: dict[str, str] = {t: t for t in (*COLOURS, PUDDLE)}
FAMILIES: tuple[str, ...] = ("leaf", "puddle", "mushroom")  # also the order of the checks
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)
#: Every (rotation, flipped) pair, in the order the legal list offers them.
ORIENTATIONS: tuple[tuple[int, bool], ...] = tuple((r, f) for r in ROTATIONS for f in (False, True))
#: The four spaces of a tile, in the order used everywhere: top-left, top-right,
#: bottom-left, bottom-right.
QUADRANTS: tuple[str, ...] = ("tl", "tr", "bl", "br")


@dataclass(frozen=True, slots=True)
class Space:
    """One space of a tile: its terrain and whether a mushroom grows on it."""

    terrain: str
    mushroom: bool = False

    @property
    def is_puddle(self) -> bool:
        return self.terrain == PUDDLE


#: The four spaces in QUADRANTS order.
Face = tuple[Space, Space, Space, Space]


@dataclass(frozen=True, slots=True)
class Tile:
    id: str
    kind: str  # "garden" or "start"
    face: Face  # as printed (unrotated)


@dataclass(frozen=True, slots=True)
class DwellerCard:
    id: str
    family: str
    name: str
    first_game: bool
    condition: str
    placement: str
    reuse: str


def _load(name: str) -> Any:
    return json.loads((resources.files(__package__) / "data" / name).read_text("utf-8"))


def _tile(raw: dict[str, Any]) -> Tile:
    quadrants = raw["quadrants"]
    face = tuple(
        Space(_TERRAINS[quadrants[q]["type"]], bool(quadrants[q]["mushroom"])) for q in QUADRANTS
    )
    return Tile(raw["id"], raw["kind"], face)  # type: ignore[arg-type]


_TILES_RAW = _load("tiles.json")
_CARDS_RAW = _load("dweller_cards.json")
GAME: dict[str, Any] = _load("game.json")

START_TILES: tuple[Tile, ...] = tuple(_tile(t) for t in _TILES_RAW["start_tiles"])
GARDEN_TILES: tuple[Tile, ...] = tuple(_tile(t) for t in _TILES_RAW["garden_tiles"])
TILES: dict[str, Tile] = {t.id: t for t in (*START_TILES, *GARDEN_TILES)}

CARDS: dict[str, DwellerCard] = {
    c["id"]: DwellerCard(
        id=c["id"],
        family=c["family"],
        name=c["name"],
        first_game=bool(c["first_game"]),
        condition=c["condition"],
        placement=c["placement"],
        reuse=c["reuse"],
    )
    for c in _CARDS_RAW["cards"]
}
CARDS_BY_FAMILY: dict[str, tuple[str, ...]] = {
    family: tuple(sorted(c.id for c in CARDS.values() if c.family == family)) for family in FAMILIES
}
FIRST_GAME_CARDS: tuple[str, ...] = tuple(
    next(c.id for c in CARDS.values() if c.family == family and c.first_game) for family in FAMILIES
)

MIN_PLAYERS: int = GAME["players"]["min"]
MAX_PLAYERS: int = GAME["players"]["max"]
MARKET_SIZE: int = GAME["tiles"]["market_size"]
BAG_SIZE: dict[int, int] = {int(k): v for k, v in GAME["tiles"]["tiles_in_play"].items()}


def rotate(face: Face, rotation: int) -> Face:
    """The face turned clockwise by ``rotation`` degrees (a multiple of 90)."""
    for _ in range(rotation // 90 % 4):
        tl, tr, bl, br = face
        face = (bl, tl, br, tr)
    return face


def mirror(face: Face) -> Face:
    """The face mirrored left to right."""
    tl, tr, bl, br = face
    return (tr, tl, br, bl)


def distinct_orientations(face: Face, allow_flip: bool) -> tuple[tuple[int, bool], ...]:
    """The orientations that show distinct faces: the first of each in ``ORIENTATIONS`` order.

    A symmetric tile would show the same face in two orientations; only the
    first is offered, so every distinct placement is offered exactly once.
    (Every real tile has 8 distinct orientations, so with the real tiles this
    drops nothing.)
    """
    seen: dict[Face, tuple[int, bool]] = {}
    for rotation, flipped in ORIENTATIONS:
        if flipped and not allow_flip:
            continue
        turned = rotate(face, rotation)
        seen.setdefault(mirror(turned) if flipped else turned, (rotation, flipped))
    return tuple(seen.values())


#: Tile id -> (rotation, flipped) -> the spaces as placed (tl, tr, bl, br).
FACES: dict[str, dict[tuple[int, bool], Face]] = {
    tile.id: {
        (r, f): (mirror(rotate(tile.face, r)) if f else rotate(tile.face, r))
        for r, f in ORIENTATIONS
    }
    for tile in TILES.values()
}

#: Tile id -> allow_flip -> the orientations offered for it (see distinct_orientations).
OFFERED: dict[str, dict[bool, tuple[tuple[int, bool], ...]]] = {
    tile.id: {flip: distinct_orientations(tile.face, flip) for flip in (False, True)}
    for tile in TILES.values()
}


def oriented(tile_id: str, rotation: int, flipped: bool) -> Face:
    """The spaces of a tile as placed: rotated clockwise, then mirrored if flipped."""
    return FACES[tile_id][(rotation, flipped)]

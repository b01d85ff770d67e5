"""Garden geometry: placed tiles, the cell grid and the groups read from it.

Coordinates follow the data files (and the BGA port): a tile sits at tile
position ``(x, y)`` with ``y`` growing upwards, and its four spaces are the
cells ``tl=(2x, 2y)``, ``tr=(2x+1, 2y)``, ``bl=(2x, 2y-1)``, ``br=(2x+1, 2y-1)``.

Inside the engine a cell is one int, :func:`cell_id` ``(x, y)``, chosen so that
ascending ints are the reading order (top row first, then left to right) and
neighbours are fixed offsets: ``+1`` right, ``-1`` left, ``-W`` up, ``+W``
down. A garden never reaches further than 12 tiles (25 cells) from its start
tile, well inside the grid.

A :class:`Board` is derived from a garden's tiles and never stored (the state
keeps it as a cache): it holds the terrain of every cell and the groups the
rules talk about (colour sectors, puddles, mushrooms, 2×2 blocks). It grows
one tile at a time (:meth:`Board.add`): sectors and puddles merge as tiles
join them, and only the blocks around the new tile are examined.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from services.undertheleaves.rules.catalogue import FACES, PUDDLE, TILES, Face, Space

Cell = int
Position = tuple[int, int]

#: Grid width and the offset of coordinate 0 (cells x, y in [-OFF, W - OFF)).
W = 64
OFF = 32

ORTHOGONAL: tuple[int, ...] = (1, -1, -W, W)
DIAGONAL: tuple[int, ...] = (-W - 1, -W + 1, W - 1, W + 1)
AROUND: tuple[int, ...] = ORTHOGONAL + DIAGONAL

#: Cell -> its x and y coordinates.
XS: tuple[int, ...] = tuple(c % W - OFF for c in range(W * W))
YS: tuple[int, ...] = tuple(OFF - c // W for c in range(W * W))

#: Bottom-left anchors of the 9 blocks that hold a cell of the tile whose
#: top-left cell is 0 (the tile's own block is ``W``).
_NEAR_BLOCKS: tuple[int, ...] = (-1, 0, 1, W - 1, W, W + 1, 2 * W - 1, 2 * W, 2 * W + 1)


#: Cell offsets, from a tile's top-left cell, of its tl, tr, bl and br cells.
_QUADRANT_OFFSETS: tuple[int, int, int, int] = (0, 1, W, W + 1)


class _Shape(NamedTuple):
    """A tile face's cells relative to its top-left cell, ready to be added to a board."""

    terrains: tuple[str, str, str, str]
    mushrooms: tuple[int, ...]
    puddles: tuple[int, ...]
    #: Connected same-terrain parts of the tile: (terrain, is puddle, cell
    #: offsets, offsets of the cells outside the tile that touch the part).
    parts: tuple[tuple[str, bool, tuple[int, ...], tuple[int, ...]], ...]


def _shape(face: Face) -> _Shape:
    terrain_at = dict(zip(_QUADRANT_OFFSETS, (s.terrain for s in face), strict=True))
    parts = []
    left = set(_QUADRANT_OFFSETS)
    while left:
        first = min(left)
        part, stack = {first}, [first]
        while stack:
            o = stack.pop()
            for d in (1, -1, W, -W):
                n = o + d
                if n in left and n not in part and terrain_at[n] == terrain_at[first]:
                    part.add(n)
                    stack.append(n)
        left -= part
        outside = sorted({o + d for o in part for d in (1, -1, W, -W)} - set(_QUADRANT_OFFSETS))
        kind = terrain_at[first]
        parts.append((kind, kind is PUDDLE, tuple(sorted(part)), tuple(outside)))
    return _Shape(
        terrains=tuple(s.terrain for s in face),  # type: ignore[arg-type]
        mushrooms=tuple(o for o, s in zip(_QUADRANT_OFFSETS, face, strict=True) if s.mushroom),
        puddles=tuple(o for o, s in zip(_QUADRANT_OFFSETS, face, strict=True) if s.is_puddle),
        parts=tuple(parts),
    )


#: Tile id -> (rotation, flipped) -> its shape.
_SHAPES: dict[str, dict[tuple[int, bool], _Shape]] = {
    tile: {orientation: _shape(face) for orientation, face in faces.items()}
    for tile, faces in FACES.items()
}


def cell_id(x: int, y: int) -> Cell:
    """The cell ``(x, y)`` as an int."""
    return (OFF - y) * W + x + OFF


def cell_xy(cell: Cell) -> tuple[int, int]:
    """The ``(x, y)`` coordinates of a cell."""
    return (cell % W - OFF, OFF - cell // W)


def tile_cells(x: int, y: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The cells of the tile at position (x, y), in tl, tr, bl, br order."""
    tl = (OFF - 2 * y) * W + 2 * x + OFF
    return (tl, tl + 1, tl + W, tl + W + 1)


def tile_of(cell: Cell) -> Position:
    """The position of the tile holding ``cell`` (the inverse of :func:`tile_cells`)."""
    x, y = cell % W - OFF, OFF - cell // W
    return (x // 2, (y + 1) // 2)


def block(anchor: Cell) -> frozenset[Cell]:
    """The 2×2 block whose bottom-left cell is ``anchor``."""
    return frozenset((anchor, anchor + 1, anchor - W, anchor - W + 1))


class PlacedTile(NamedTuple):
    """A tile in a garden: which tile, where, and how it was turned."""

    tile: str
    x: int
    y: int
    rotation: int = 0
    flipped: bool = False

    @property
    def position(self) -> Position:
        return (self.x, self.y)

    def spaces(self) -> Iterator[tuple[Cell, Space]]:
        """Each cell of the tile with its space, in tl, tr, bl, br order."""
        face = FACES[self.tile][(self.rotation, self.flipped)]
        return zip(tile_cells(self.x, self.y), face, strict=True)


class Group:
    """A maximal orthogonally connected group of cells of one terrain.

    Groups never change: when a tile joins or merges groups, a new one
    replaces them. ``anchor`` is the first cell in reading order (where its
    piece is drawn). Groups compare by identity: a board holds one object per
    group.
    """

    __slots__ = ("_run4", "_sorted", "anchor", "cells", "terrain")

    def __init__(self, terrain: str, cells: frozenset[Cell]) -> None:
        self.terrain = terrain
        self.cells = cells
        self.anchor = min(cells)
        self._run4: bool | None = None
        self._sorted: tuple[Cell, ...] | None = None

    def __len__(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        return f"Group({self.terrain!r}, {sorted(cell_xy(c) for c in self.cells)})"

    @property
    def sorted_cells(self) -> tuple[Cell, ...]:
        """The cells in reading order."""
        if self._sorted is None:
            self._sorted = tuple(sorted(self.cells))
        return self._sorted

    @property
    def run4(self) -> bool:
        """4 consecutive cells of the group in one row or one column."""
        if self._run4 is None:
            cells = self.cells
            self._run4 = any(
                c + d in cells and c + 2 * d in cells and c + 3 * d in cells
                for c in cells
                for d in (1, W)
            )
        return self._run4


_Block = tuple[Cell, frozenset[Cell]]


def frontier(positions: Iterable[Position]) -> list[Position]:
    """Empty tile positions sharing a full side with a placed tile, sorted."""
    taken = set(positions)
    return sorted(
        {(x + dx, y + dy) for x, y in taken for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        - taken
    )


class Board:
    """The cells of one garden and the groups derived from them."""

    __slots__ = (
        "_big",
        "_blocks",
        "_pending",
        "_pollinized",
        "_puddles",
        "_qualified",
        "_sectors",
        "count",
        "mushrooms",
        "puddle_cells",
        "puddle_of",
        "sector_of",
        "start_blocks",
        "terrain",
        "tiles",
    )

    def __init__(self, tiles: Iterable[PlacedTile] = ()) -> None:
        #: Cell -> its terrain (a colour or ``puddle``).
        self.terrain: dict[Cell, str] = {}
        self.mushrooms: set[Cell] = set()
        self.puddle_cells: set[Cell] = set()
        #: Cell -> its colour sector; puddle cell -> its puddle.
        self.sector_of: dict[Cell, Group] = {}
        self.puddle_of: dict[Cell, Group] = {}
        #: Tile position -> its four cells.
        self.tiles: dict[Position, tuple[Cell, ...]] = {}
        #: Anchors of the start tiles' own blocks (the Flirty card ignores them).
        self.start_blocks: set[Cell] = set()
        #: Tiles added so far.
        self.count = 0
        self._sectors: dict[Group, None] = {}
        #: The sectors of 3 or more cells, in the order of ``_sectors``.
        self._big: dict[Group, None] = {}
        self._puddles: dict[Group, None] = {}
        self._pollinized: tuple[Group, ...] | None = None
        #: Tiles whose terrain cells all lie in pollinized sectors, and the others
        #: (see ``qualified``).
        self._qualified: set[Position] = set()
        self._pending: set[Position] = set()
        #: (mono, mixed) blocks, found on first use (see mono_blocks).
        self._blocks: tuple[list[_Block], list[_Block]] | None = None
        for placed in tiles:
            self.add(placed)

    def copy(self) -> Board:
        """An independent board with the same tiles (groups are immutable and shared)."""
        other = Board.__new__(Board)
        other.terrain = self.terrain.copy()
        other.mushrooms = self.mushrooms.copy()
        other.puddle_cells = self.puddle_cells.copy()
        other.sector_of = self.sector_of.copy()
        other.puddle_of = self.puddle_of.copy()
        other.tiles = self.tiles.copy()
        other.start_blocks = self.start_blocks.copy()
        other.count = self.count
        other._sectors = self._sectors.copy()
        other._big = self._big.copy()
        other._puddles = self._puddles.copy()
        other._pollinized = self._pollinized
        other._qualified = self._qualified.copy()
        other._pending = self._pending.copy()
        blocks = self._blocks
        other._blocks = None if blocks is None else (blocks[0].copy(), blocks[1].copy())
        return other

    def add(self, placed: PlacedTile) -> None:
        """Put one more tile in the garden (its position must be empty)."""
        tl = (OFF - 2 * placed.y) * W + 2 * placed.x + OFF
        shape = _SHAPES[placed.tile][(placed.rotation, placed.flipped)]
        terrain = self.terrain
        t0, t1, t2, t3 = shape.terrains
        terrain[tl] = t0
        terrain[tl + 1] = t1
        terrain[tl + W] = t2
        terrain[tl + W + 1] = t3
        for o in shape.mushrooms:
            self.mushrooms.add(tl + o)
        for o in shape.puddles:
            self.puddle_cells.add(tl + o)
        self.tiles[(placed.x, placed.y)] = (tl, tl + 1, tl + W, tl + W + 1)
        # Cells that have just come to lie in a pollinized sector.
        pollinized: list[Cell] = []
        for kind, puddle, offsets, outside in shape.parts:
            if puddle:
                owner, groups = self.puddle_of, self._puddles
            else:
                owner, groups = self.sector_of, self._sectors
            touching: list[Group] = []
            for o in outside:
                g = owner.get(tl + o)
                if g is not None and g.terrain is kind and g not in touching:
                    touching.append(g)
            cells = [tl + o for o in offsets]
            if touching:
                merged = set(cells)
                for g in touching:
                    merged |= g.cells
                    del groups[g]
                    if not puddle:
                        self._big.pop(g, None)
                group = Group(kind, frozenset(merged))
                owner.update(dict.fromkeys(merged, group))
            else:
                group = Group(kind, frozenset(cells))
                for c in cells:
                    owner[c] = group
            groups[group] = None
            if not puddle and len(group.cells) >= 3:
                self._big[group] = None
                pollinized += cells
                for g in touching:
                    if len(g.cells) < 3:
                        pollinized += g.cells
        self._pollinized = None
        self._settle_qualified((placed.x, placed.y), pollinized)
        self.count += 1
        if TILES[placed.tile].kind == "start":
            self.start_blocks.add(tl + W)
        if self._blocks is not None:
            self._find_blocks(tl + o for o in _NEAR_BLOCKS)

    def _settle_qualified(self, new_tile: Position, pollinized: list[Cell]) -> None:
        """Move to ``qualified`` the tiles that qualify now: the new tile, and the
        waiting tiles holding a cell that has just come into a pollinized sector
        (sectors only grow, so no other tile can have changed)."""
        pending = self._pending
        candidates = [new_tile]
        for cell in pollinized:
            position = tile_of(cell)
            if position in pending and position not in candidates:
                candidates.append(position)
        sector_of = self.sector_of
        for position in candidates:
            for cell in self.tiles[position]:
                sector = sector_of.get(cell)  # None for a puddle
                if sector is not None and len(sector.cells) < 3:
                    pending.add(position)
                    break
            else:
                pending.discard(position)
                self._qualified.add(position)

    @property
    def qualified(self) -> set[Position]:
        """Tiles whose terrain cells (3 or 4: a puddle is ignored) all lie in
        pollinized sectors (the hummingbirds' condition, ambiguity 4). Kept as
        tiles join: sectors only grow, so a tile that qualifies always will, and
        a waiting tile can only start to when one of its cells joins a pollinized
        sector. Read-only."""
        return self._qualified

    def _find_blocks(self, anchors: Iterable[Cell]) -> None:
        """Record the complete blocks among those anchored at ``anchors`` (all new)."""
        assert self._blocks is not None
        mono, mixed = self._blocks
        get = self.terrain.get
        start_blocks = self.start_blocks
        for a in anchors:
            t1, t2, t3, t4 = get(a), get(a + 1), get(a - W), get(a - W + 1)
            if t1 is None or t2 is None or t3 is None or t4 is None:
                continue
            if t1 is t2 and t1 is t3 and t1 is t4:
                if t1 is not PUDDLE:
                    mono.append((a, block(a)))
            elif len({t1, t2, t3, t4}) == 4 and a not in start_blocks:
                mixed.append((a, block(a)))

    # --- what the rules read ------------------------------------------------------

    @property
    def mono_blocks(self) -> list[_Block]:
        """Every complete 2×2 block of 4 cells of one colour: (bottom-left anchor, cells)."""
        if self._blocks is None:
            self._blocks = ([], [])
            self._find_blocks(list(self.terrain))
        return self._blocks[0]

    @property
    def mixed_blocks(self) -> list[_Block]:
        """Every complete 2×2 block of 4 different terrains (a puddle is one), except
        a start tile's own block: (bottom-left anchor, cells)."""
        if self._blocks is None:
            self._blocks = ([], [])
            self._find_blocks(list(self.terrain))
        return self._blocks[1]

    @property
    def sectors(self) -> tuple[Group, ...]:
        """Every colour sector, of any size (puddles are not terrain and split sectors)."""
        return tuple(self._sectors)

    @property
    def pollinized(self) -> tuple[Group, ...]:
        """Sectors of 3 or more cells."""
        if self._pollinized is None:
            self._pollinized = tuple(self._big)
        return self._pollinized

    @property
    def puddles(self) -> tuple[Group, ...]:
        """Every orthogonally connected group of puddle cells."""
        return tuple(self._puddles)

    def surrounded(self, cell: Cell) -> bool:
        """All 8 neighbouring cells exist."""
        terrain = self.terrain
        return all(cell + d in terrain for d in AROUND)

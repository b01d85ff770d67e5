"""Garden geometry: placed tiles, the cell grid and the groups read from it.

Coordinates follow the data files (and the BGA port): a tile sits at tile
position ``(x, y)`` with ``y`` growing upwards, and its four spaces are the
cells ``tl=(2x, 2y)``, ``tr=(2x+1, 2y)``, ``bl=(2x, 2y-1)``, ``br=(2x+1, 2y-1)``.

A :class:`Board` is derived from a garden's tiles and never stored: it holds
the space of every cell and, computed on first use, the groups the rules talk
about (colour sectors, puddles, mushrooms, 2×2 blocks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from services.undertheleaves.rules.catalogue import TILES, Space, oriented

Cell = tuple[int, int]
Position = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
AROUND: tuple[Cell, ...] = ORTHOGONAL + DIAGONAL


def shift(cell: Cell, delta: Cell) -> Cell:
    return (cell[0] + delta[0], cell[1] + delta[1])


def reading_order(cells: Iterable[Cell]) -> list[Cell]:
    """Cells sorted top row first, then left to right (the canonical order)."""
    return sorted(cells, key=lambda c: (-c[1], c[0]))


def tile_cells(x: int, y: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The cells of the tile at position (x, y), in tl, tr, bl, br order."""
    return ((2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y - 1), (2 * x + 1, 2 * y - 1))


def block(anchor: Cell) -> frozenset[Cell]:
    """The 2×2 block whose bottom-left cell is ``anchor``."""
    x, y = anchor
    return frozenset({(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)})


@dataclass(frozen=True, slots=True)
class PlacedTile:
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
        face = oriented(self.tile, self.rotation, self.flipped)
        return zip(tile_cells(self.x, self.y), face, strict=True)


@dataclass(frozen=True, slots=True)
class Group:
    """A maximal orthogonally connected group of cells of one terrain."""

    terrain: str
    cells: frozenset[Cell]

    @property
    def anchor(self) -> Cell:
        """The group's first cell in reading order (where its piece is drawn)."""
        return reading_order(self.cells)[0]

    def __len__(self) -> int:
        return len(self.cells)


def frontier(positions: Iterable[Position]) -> list[Position]:
    """Empty tile positions sharing a full side with a placed tile, sorted."""
    taken = set(positions)
    return sorted({shift(p, d) for p in taken for d in ORTHOGONAL} - taken)


class Board:
    """The cells of one garden and the groups derived from them."""

    def __init__(self, tiles: Iterable[PlacedTile]) -> None:
        self.spaces: dict[Cell, Space] = {}
        #: Tile position -> its four cells.
        self.tiles: dict[Position, tuple[Cell, ...]] = {}
        #: The cells of each start tile (the Flirty card ignores that block).
        self.start_blocks: set[frozenset[Cell]] = set()
        for placed in tiles:
            cells = []
            for cell, space in placed.spaces():
                self.spaces[cell] = space
                cells.append(cell)
            self.tiles[placed.position] = tuple(cells)
            if TILES[placed.tile].kind == "start":
                self.start_blocks.add(frozenset(cells))

    def _groups(self, cells: Iterable[Cell]) -> tuple[Group, ...]:
        """Connected groups of equal terrain among ``cells``, in a stable order."""
        pool = set(cells)
        groups = []
        for start in reading_order(pool):
            if start not in pool:
                continue
            terrain = self.spaces[start].terrain
            pool.discard(start)
            found, stack = {start}, [start]
            while stack:
                cell = stack.pop()
                for d in ORTHOGONAL:
                    nxt = shift(cell, d)
                    if nxt in pool and self.spaces[nxt].terrain == terrain:
                        pool.discard(nxt)
                        found.add(nxt)
                        stack.append(nxt)
            groups.append(Group(terrain, frozenset(found)))
        return tuple(groups)

    def cells_where(self, test: Callable[[Space], bool]) -> frozenset[Cell]:
        return frozenset(c for c, s in self.spaces.items() if test(s))

    @cached_property
    def sectors(self) -> tuple[Group, ...]:
        """Every colour sector, of any size (puddles are not terrain and split sectors)."""
        return self._groups(self.cells_where(lambda s: not s.is_puddle))

    @cached_property
    def pollinized(self) -> tuple[Group, ...]:
        """Sectors of 3 or more cells."""
        return tuple(g for g in self.sectors if len(g) >= 3)

    @cached_property
    def pollinized_cells(self) -> frozenset[Cell]:
        return frozenset().union(*(g.cells for g in self.pollinized))

    @cached_property
    def puddles(self) -> tuple[Group, ...]:
        """Every orthogonally connected group of puddle cells."""
        return self._groups(self.puddle_cells)

    @cached_property
    def puddle_cells(self) -> frozenset[Cell]:
        return self.cells_where(lambda s: s.is_puddle)

    @cached_property
    def mushrooms(self) -> frozenset[Cell]:
        return self.cells_where(lambda s: s.mushroom)

    @cached_property
    def _sector_by_cell(self) -> dict[Cell, Group]:
        return {cell: g for g in self.sectors for cell in g.cells}

    def sector_of(self, cell: Cell) -> Group:
        """The colour sector holding ``cell`` (KeyError for a puddle)."""
        return self._sector_by_cell[cell]

    def blocks(self) -> Iterator[tuple[Cell, frozenset[Cell]]]:
        """Every complete 2×2 block of cells as ``(anchor, cells)``, in reading order."""
        for anchor in reading_order(self.spaces):
            cells = block(anchor)
            if all(c in self.spaces for c in cells):
                yield anchor, cells

    def surrounded(self, cell: Cell) -> bool:
        """All 8 neighbouring cells exist."""
        return all(shift(cell, d) in self.spaces for d in AROUND)

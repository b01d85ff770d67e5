"""The 12 dweller cards.

Each card is one function that lists the placements its condition offers now:
it reads the garden (a :class:`Board`) and the pieces of that card already
there, and returns every :class:`Placement` a new piece could take. The whole
garden is scanned after every tile, so a pattern counts whenever it is first
seen; the reuse rules (ambiguities 6-10) are what stop it counting twice.

:func:`resolve` turns those lists into pieces. A placement that no other
option can block, and that blocks no other, is placed at once. Whatever is
left is a real choice (two overlapping squares, the two cells of a Friendly
pair, ...) and becomes a ``place_dweller`` decision for the player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.undertheleaves.rules.board import AROUND, DIAGONAL, Board, Cell, reading_order, shift
from services.undertheleaves.rules.state import Dweller, Options


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a new piece would go: the cell it is drawn on and the cells it claims."""

    anchor: Cell
    cells: frozenset[Cell]

    @staticmethod
    def at(cell: Cell) -> Placement:
        return Placement(cell, frozenset({cell}))


Rule = Callable[[Board, Sequence[Dweller], int, Options], list[Placement]]
RULES: dict[str, Rule] = {}


def _rule(card: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        RULES[card] = fn
        return fn

    return register


def _claimed(held: Sequence[Dweller]) -> frozenset[Cell]:
    return frozenset().union(*(d.cells for d in held))


def _in_order(placements: list[Placement]) -> list[Placement]:
    order = {cell: i for i, cell in enumerate(reading_order({p.anchor for p in placements}))}
    return sorted(placements, key=lambda p: order[p.anchor])


def _straight_run(cells: frozenset[Cell], length: int) -> bool:
    """``length`` consecutive cells of ``cells`` in one row or one column."""
    return any(
        all(shift(cell, (dx * i, dy * i)) in cells for i in range(length))
        for cell in cells
        for dx, dy in ((1, 0), (0, 1))
    )


def _diagonal_pairs(cells: frozenset[Cell], used: frozenset[Cell]) -> list[Placement]:
    """Cells of ``cells`` with a diagonal partner, neither of them holding a piece yet."""
    free = cells - used
    return [
        Placement.at(cell)
        for cell in reading_order(free)
        if any(shift(cell, d) in free for d in DIAGONAL)
    ]


# --- leaf ---------------------------------------------------------------------


@_rule("leaf_thoughtful")
def thoughtful(
    board: Board, held: Sequence[Dweller], turn: int, options: Options
) -> list[Placement]:
    """A 2×2 square inside one pollinized sector (4 same-colour cells).

    No cell serves two Thoughtful squares. With
    ``thoughtful_one_per_sector_per_turn`` a sector that received a Thoughtful
    this turn offers no other square until a later turn (ambiguity 7).
    """
    used = _claimed(held)
    done = (
        {board.sector_of(d.anchor) for d in held if d.turn == turn}
        if options.thoughtful_one_per_sector_per_turn
        else set()
    )
    found = []
    for anchor, cells in board.blocks():
        space = board.spaces[anchor]
        if (
            not space.is_puddle
            and all(board.spaces[c].terrain == space.terrain for c in cells)
            and not cells & used
            and board.sector_of(anchor) not in done
        ):
            found.append(Placement(anchor, cells))
    return found


@_rule("leaf_restless")
def restless(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A pollinized sector of at least 5 cells; once per sector, even after it grows or merges."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells) for g in board.pollinized if len(g) >= 5 and not g.cells & used
    ]


@_rule("leaf_flirty")
def flirty(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A 2×2 block of 4 different terrains (a puddle counts as one); no cell serves twice.

    A block that is exactly a start tile is ignored (as on BGA): every start
    tile is a puddle and three different colours.
    """
    used = _claimed(held)
    return [
        Placement(anchor, cells)
        for anchor, cells in board.blocks()
        if len({board.spaces[c].terrain for c in cells}) == 4
        and cells not in board.start_blocks
        and not cells & used
    ]


@_rule("leaf_runner")
def runner(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A pollinized sector with 4 consecutive cells in a row or a column; once per sector."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells)
        for g in board.pollinized
        if _straight_run(g.cells, 4) and not g.cells & used
    ]


# --- puddle -------------------------------------------------------------------


@_rule("puddle_diver")
def diver(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A puddle of 2 or more orthogonally connected puddle cells; once per puddle."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells) for g in board.puddles if len(g) >= 2 and not g.cells & used
    ]


@_rule("puddle_skipper")
def skipper(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """Puddle, terrain, puddle in a row or a column: a piece on each such middle cell, once."""
    used = _claimed(held)
    puddles = board.puddle_cells
    return [
        Placement.at(cell)
        for cell in reading_order(board.spaces)
        if cell not in puddles
        and cell not in used
        and any(
            shift(cell, (dx, dy)) in puddles and shift(cell, (-dx, -dy)) in puddles
            for dx, dy in ((1, 0), (0, 1))
        )
    ]


@_rule("puddle_friendly")
def friendly(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """Two diagonally adjacent puddle cells, neither holding a Friendly.

    The player chooses which of the two receives the piece; the other may pair
    again later (ambiguity 10).
    """
    return _diagonal_pairs(board.puddle_cells, _claimed(held))


@_rule("puddle_shy")
def shy(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A puddle cell whose 8 neighbours all exist and are all terrain; once per cell.

    A puddle among the neighbours spoils it (ambiguity 9).
    """
    used = _claimed(held)
    puddles = board.puddle_cells
    return [
        Placement.at(cell)
        for cell in reading_order(puddles - used)
        if board.surrounded(cell) and not any(shift(cell, d) in puddles for d in AROUND)
    ]


# --- mushroom -----------------------------------------------------------------


@_rule("mushroom_host")
def host(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A sector of any size holding 2 or more mushrooms; once per sector."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells)
        for g in board.sectors
        if len(g.cells & board.mushrooms) >= 2 and not g.cells & used
    ]


@_rule("mushroom_explorer")
def explorer(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """3 mushrooms on one row or column, any distance apart: a piece on the middle one.

    A mushroom holding an Explorer never serves again, as middle or as end;
    diagonal lines do not count (ambiguity 8).
    """
    free = board.mushrooms - _claimed(held)

    def between(m: Cell) -> bool:
        row = [x for x, y in free if y == m[1]]
        column = [y for x, y in free if x == m[0]]
        return (min(row) < m[0] < max(row)) or (min(column) < m[1] < max(column))

    return [Placement.at(m) for m in reading_order(free) if between(m)]


@_rule("mushroom_collector")
def collector(
    board: Board, held: Sequence[Dweller], turn: int, options: Options
) -> list[Placement]:
    """Two diagonally adjacent mushrooms, neither holding a Collector (the player picks one)."""
    return _diagonal_pairs(board.mushrooms, _claimed(held))


@_rule("mushroom_loner")
def loner(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A mushroom whose 8 neighbours all exist (puddles allowed) and hold no mushroom."""
    used = _claimed(held)
    return [
        Placement.at(m)
        for m in reading_order(board.mushrooms - used)
        if board.surrounded(m) and not any(shift(m, d) in board.mushrooms for d in AROUND)
    ]


# --- resolution ---------------------------------------------------------------


def options_for(
    card: str, board: Board, dwellers: Sequence[Dweller], turn: int, options: Options
) -> list[Placement]:
    """Every placement ``card`` offers now, in reading order of the anchors."""
    held = [d for d in dwellers if d.card == card]
    return _in_order(RULES[card](board, held, turn, options))


def resolve(
    card: str, board: Board, dwellers: list[Dweller], turn: int, options: Options
) -> list[Placement]:
    """Place every piece of ``card`` that needs no decision; return the choice left.

    A placement needs no decision when placing it removes no other option and
    no other option's placement would remove it. Those are appended to
    ``dwellers``; the rest (empty when nothing is left) is returned for the
    player to choose one, after which this runs again.
    """
    while True:
        offered = options_for(card, board, dwellers, turn, options)
        if not offered:
            return []
        after = {
            p: set(
                options_for(
                    card, board, [*dwellers, Dweller(card, p.anchor, p.cells, turn)], turn, options
                )
            )
            for p in offered
        }
        rest = set(offered)
        free = [
            p
            for p in offered
            if after[p] == rest - {p} and all(p in after[q] for q in offered if q != p)
        ]
        if not free:
            return offered
        dwellers.extend(Dweller(card, p.anchor, p.cells, turn) for p in free)

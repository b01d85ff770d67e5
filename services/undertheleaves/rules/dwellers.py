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

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from services.undertheleaves.rules.board import AROUND, Board, Cell, Group, W
from services.undertheleaves.rules.state import Dweller, Options


class Placement(NamedTuple):
    """Where a new piece would go: the cell it is drawn on and the cells it claims."""

    anchor: Cell
    cells: frozenset[Cell]

    @staticmethod
    def at(cell: Cell) -> Placement:
        return Placement(cell, frozenset((cell,)))


Rule = Callable[[Board, Sequence[Dweller], int, Options], list[Placement]]

_NONE: frozenset[Cell] = frozenset()


def _claimed(held: Sequence[Dweller]) -> frozenset[Cell]:
    """Garden Dwellers, general rules: the cells the card's pieces already claim."""
    if not held:
        return _NONE
    return frozenset().union(*(d.cells for d in held))


def _anchor(placement: Placement) -> Cell:
    """The cell a placement is drawn on (reading order sorts options by it)."""
    return placement.anchor


def _diagonal_pairs(cells: set[Cell], used: frozenset[Cell]) -> list[Placement]:
    """Cells of ``cells`` with a diagonal partner, neither of them holding a piece yet."""
    free = cells - used if used else cells
    return [
        Placement.at(cell)
        for cell in sorted(free)
        if cell - W - 1 in free
        or cell - W + 1 in free
        or cell + W - 1 in free
        or cell + W + 1 in free
    ]


# --- leaf ---------------------------------------------------------------------


def thoughtful(
    board: Board, held: Sequence[Dweller], turn: int, options: Options
) -> list[Placement]:
    """A 2×2 square inside one pollinized sector (4 same-colour cells).

    No cell serves two Thoughtful squares. With
    ``thoughtful_one_per_sector_per_turn`` a sector that received a Thoughtful
    this turn offers no other square until a later turn (ambiguity 7).
    """
    if not board.mono_blocks:
        return []
    used = _claimed(held)
    sector_of = board.sector_of
    done = (
        {sector_of[d.anchor] for d in held if d.turn == turn}
        if options.thoughtful_one_per_sector_per_turn
        else ()
    )
    return [
        Placement(anchor, cells)
        for anchor, cells in board.mono_blocks
        if used.isdisjoint(cells) and sector_of[anchor] not in done
    ]


def restless(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A pollinized sector of at least 5 cells; once per sector, even after it grows or merges."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells)
        for g in board.pollinized
        if len(g.cells) >= 5 and used.isdisjoint(g.cells)
    ]


def flirty(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A 2×2 block of 4 different terrains (a puddle counts as one); no cell serves twice.

    A block that is exactly a start tile is ignored (as on BGA): every start
    tile is a puddle and three different colours.
    """
    if not board.mixed_blocks:
        return []
    used = _claimed(held)
    return [
        Placement(anchor, cells) for anchor, cells in board.mixed_blocks if used.isdisjoint(cells)
    ]


def runner(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A pollinized sector with 4 consecutive cells in a row or a column; once per sector."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells)
        for g in board.pollinized
        if len(g.cells) >= 4 and g.run4 and used.isdisjoint(g.cells)
    ]


# --- puddle -------------------------------------------------------------------


def diver(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A puddle of 2 or more orthogonally connected puddle cells; once per puddle."""
    used = _claimed(held)
    return [
        Placement(g.anchor, g.cells)
        for g in board.puddles
        if len(g.cells) >= 2 and used.isdisjoint(g.cells)
    ]


def skipper(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """Puddle, terrain, puddle in a row or a column: a piece on each such middle cell, once."""
    used = _claimed(held)
    puddles = board.puddle_cells
    terrain = board.terrain
    middles = set()
    for p in puddles:
        for d in (1, W):  # the puddle is the left (or top) end
            middle = p + d
            if p + 2 * d in puddles and middle in terrain and middle not in puddles:
                middles.add(middle)
    return [Placement.at(cell) for cell in sorted(middles) if cell not in used]


def friendly(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """Two diagonally adjacent puddle cells, neither holding a Friendly.

    The player chooses which of the two receives the piece; the other may pair
    again later (ambiguity 10).
    """
    return _diagonal_pairs(board.puddle_cells, _claimed(held))


def shy(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A puddle cell whose 8 neighbours all exist and are all terrain; once per cell.

    A puddle among the neighbours spoils it (ambiguity 9).
    """
    used = _claimed(held)
    puddles = board.puddle_cells
    terrain = board.terrain
    return [
        Placement.at(cell)
        for cell in sorted(puddles - used)
        if all(cell + d in terrain and cell + d not in puddles for d in AROUND)
    ]


# --- mushroom -----------------------------------------------------------------


def host(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A sector of any size holding 2 or more mushrooms; once per sector."""
    used = _claimed(held)
    sector_of = board.sector_of
    count: dict[Group, int] = {}
    for m in board.mushrooms:
        g = sector_of.get(m)
        if g is not None:
            count[g] = count.get(g, 0) + 1
    return [
        Placement(g.anchor, g.cells)
        for g, n in count.items()
        if n >= 2 and used.isdisjoint(g.cells)
    ]


def explorer(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """3 mushrooms on one row or column, any distance apart: a piece on the middle one.

    A mushroom holding an Explorer never serves again, as middle or as end;
    diagonal lines do not count (ambiguity 8).
    """
    free = board.mushrooms - _claimed(held)
    if len(free) < 3:
        return []
    found = []
    for m in sorted(free):
        row, column = divmod(m, W)
        left = right = above = below = False
        for other in free:
            r, c = divmod(other, W)
            if r == row:
                if c < column:
                    left = True
                elif c > column:
                    right = True
            elif c == column:
                if r < row:
                    above = True
                else:
                    below = True
        if (left and right) or (above and below):
            found.append(Placement.at(m))
    return found


def collector(
    board: Board, held: Sequence[Dweller], turn: int, options: Options
) -> list[Placement]:
    """Two diagonally adjacent mushrooms, neither holding a Collector (the player picks one)."""
    return _diagonal_pairs(board.mushrooms, _claimed(held))


def loner(board: Board, held: Sequence[Dweller], turn: int, options: Options) -> list[Placement]:
    """A mushroom whose 8 neighbours all exist (puddles allowed) and hold no mushroom."""
    used = _claimed(held)
    mushrooms = board.mushrooms
    terrain = board.terrain
    return [
        Placement.at(m)
        for m in sorted(mushrooms - used)
        if all(m + d in terrain and m + d not in mushrooms for d in AROUND)
    ]


# --- resolution ---------------------------------------------------------------


#: Dweller card id -> the function of its rule (Garden Dwellers: one per card).
RULES: Mapping[str, Rule] = {
    "leaf_thoughtful": thoughtful,
    "leaf_restless": restless,
    "leaf_flirty": flirty,
    "leaf_runner": runner,
    "puddle_diver": diver,
    "puddle_skipper": skipper,
    "puddle_friendly": friendly,
    "puddle_shy": shy,
    "mushroom_host": host,
    "mushroom_explorer": explorer,
    "mushroom_collector": collector,
    "mushroom_loner": loner,
}


def options_for(
    card: str, board: Board, dwellers: Sequence[Dweller], turn: int, options: Options
) -> list[Placement]:
    """Garden Dwellers: every placement ``card`` offers now, in reading order of
    the anchors (what a card's pieces may reuse, ambiguity 6)."""
    held = [d for d in dwellers if d.card == card]
    found = RULES[card](board, held, turn, options)
    if len(found) > 1:
        found.sort(key=_anchor)
    return found


def _dweller(card: str, placement: Placement, turn: int) -> Dweller:
    """The piece ``card`` puts at ``placement`` in turn ``turn``."""
    return Dweller(card, placement.anchor, tuple(sorted(placement.cells)), turn)


def resolve(
    card: str, board: Board, dwellers: list[Dweller], turn: int, options: Options
) -> list[Placement]:
    """Garden Dwellers, who chooses (ambiguities 7 and 10): place every piece of ``card``
    that needs no decision; return the choice left.

    A placement needs no decision when placing it removes no other option and
    no other option's placement would remove it. Those are appended to
    ``dwellers``; the rest (empty when nothing is left) is returned for the
    player to choose one, after which this runs again.

    Placing a piece never adds an option of its card and always removes its
    own (every card's options only shrink as its pieces claim cells), so a
    lone option is placed at once and leaves nothing behind.
    """
    while True:
        offered = options_for(card, board, dwellers, turn, options)
        if not offered:
            return []
        if len(offered) == 1:
            dwellers.append(_dweller(card, offered[0], turn))
            return []
        after = {
            p: set(options_for(card, board, [*dwellers, _dweller(card, p, turn)], turn, options))
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
        dwellers.extend(_dweller(card, p, turn) for p in free)

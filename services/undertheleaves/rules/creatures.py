"""Bees and hummingbirds: the arrivals that need no decision.

Both are settled after every tile placement by comparing the garden's
pollinized sectors with the pieces already there.
"""

from __future__ import annotations

from services.undertheleaves.rules.board import Board, Group, Position
from services.undertheleaves.rules.state import BeeSector, Birds, Options


def settle_bees(
    sectors: tuple[BeeSector, ...], board: Board, options: Options
) -> tuple[BeeSector, ...]:
    """The bee sectors after a placement (ambiguity 3).

    * A pollinized sector that contains no earlier bee sector is new: it gets 1 bee.
    * A sector that contains one earlier bee sector has merely grown: it keeps
      its bees. One that contains several has merged them: their bees add up.
    * Every earlier sector of a colour in which a new sector appeared gets
      1 bee: once per turn, or once per new sector when
      ``existing_sector_bonus_once_per_colour_per_turn`` is off.

    Sectors are disjoint, so an earlier bee sector lies inside a sector exactly
    when the sector holding its first cell has its colour and all its cells
    (:func:`lies_inside`).
    """
    sector_of = board.sector_of
    inside: dict[Group, list[BeeSector]] = {}
    for record in sectors:
        group = sector_of.get(record.cells[0])
        if group is not None and lies_inside(record, group):
            inside.setdefault(group, []).append(record)
    older: list[tuple[str, int, BeeSector]] = []
    new: list[tuple[str, int, BeeSector]] = []
    for group in board.pollinized:
        held = inside.get(group)
        if held is None:
            new.append(
                (group.terrain, group.anchor, BeeSector(group.terrain, group.sorted_cells, 1))
            )
        elif len(held) == 1 and len(held[0].cells) == len(group.cells):
            older.append((group.terrain, group.anchor, held[0]))  # unchanged
        else:
            bees = sum(b.bees for b in held)
            older.append(
                (group.terrain, group.anchor, BeeSector(group.terrain, group.sorted_cells, bees))
            )
    if new:
        new_per_colour: dict[str, int] = {}
        for colour, _, _ in new:
            new_per_colour[colour] = new_per_colour.get(colour, 0) + 1
        once = options.existing_sector_bonus_once_per_colour_per_turn
        for i, (colour, anchor, record) in enumerate(older):
            count = new_per_colour.get(colour, 0)
            if count:
                extra = 1 if once else count
                older[i] = (colour, anchor, record._replace(bees=record.bees + extra))
        older += new
    older.sort(key=_colour_then_anchor)
    settled = tuple([record for _, _, record in older])
    # Unchanged, the very tuple stays: the garden's caches see it unchanged at once.
    return sectors if settled == sectors else settled


def lies_inside(record: BeeSector, group: Group) -> bool:
    """Bees (ambiguity 3): whether the bee sector ``record`` lies inside
    ``group``, the sector that now holds its first cell.

    A record is a snapshot of a sector's cells, and sectors only grow (a cell
    never changes, so cells once connected stay connected): the sector holding a
    record's first cell holds all of them when it has the record's colour and at
    least as many cells. The last cell is looked up as well, as a guard; the
    full check is ``group.cells.issuperset(record.cells)`` (a test compares the
    two after every placement of random games)."""
    cells = record.cells
    return (
        group.terrain == record.colour
        and len(group.cells) >= max(len(cells), 3)
        and cells[-1] in group.cells
    )


def _colour_then_anchor(item: tuple[str, int, BeeSector]) -> tuple[str, int]:
    """The order bee sectors are kept in: by colour, then by first cell."""
    return (item[0], item[1])


def hummingbird_targets(board: Board) -> dict[Position, int]:
    """How many hummingbirds each qualifying tile should hold (ambiguity 4).

    A tile qualifies when all of its terrain cells (3 or 4: a puddle is
    ignored) lie in pollinized sectors (``Board.qualified``, kept up to date as
    tiles join). A qualifying tile gets +1 when the
    tiles left and right of it both qualify, and +1 when the tiles above and
    below both qualify: at most 3.
    """
    qualifying = board.qualified
    targets = {}
    for x, y in qualifying:
        row = (x - 1, y) in qualifying and (x + 1, y) in qualifying
        column = (x, y - 1) in qualifying and (x, y + 1) in qualifying
        targets[(x, y)] = 1 + row + column
    return targets


def settle_hummingbirds(counts: Birds, board: Board) -> Birds:
    """Hummingbirds (ambiguity 4): the counts after a placement, as (position,
    birds) sorted by position; they only ever increase. The very ``counts``
    come back when no count rose."""
    held = dict(counts)
    rose = False
    for position, target in hummingbird_targets(board).items():
        if held.get(position, 0) < target:
            held[position] = target
            rose = True
    return tuple(sorted(held.items())) if rose else counts

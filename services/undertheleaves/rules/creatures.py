"""Bees and hummingbirds: the arrivals that need no decision.

Both are settled after every tile placement by comparing the garden's
pollinized sectors with the pieces already there.
"""

from __future__ import annotations

from collections import Counter

from services.undertheleaves.rules.board import Board, Position, reading_order
from services.undertheleaves.rules.state import BeeSector, Options


def settle_bees(sectors: list[BeeSector], board: Board, options: Options) -> list[BeeSector]:
    """The bee sectors after a placement (ambiguity 3).

    * A pollinized sector that contains no earlier bee sector is new: it gets 1 bee.
    * A sector that contains one earlier bee sector has merely grown: it keeps
      its bees. One that contains several has merged them: their bees add up.
    * Every earlier sector of a colour in which a new sector appeared gets
      1 bee: once per turn, or once per new sector when
      ``existing_sector_bonus_once_per_colour_per_turn`` is off.
    """
    settled: list[BeeSector] = []
    new: list[BeeSector] = []
    for sector in board.pollinized:
        inside = [b for b in sectors if b.colour == sector.terrain and b.cells <= sector.cells]
        if inside:
            settled.append(BeeSector(sector.terrain, sector.cells, sum(b.bees for b in inside)))
        else:
            new.append(BeeSector(sector.terrain, sector.cells, 1))
    new_per_colour = Counter(b.colour for b in new)
    for older in settled:
        if new_per_colour[older.colour]:
            once = options.existing_sector_bonus_once_per_colour_per_turn
            older.bees += 1 if once else new_per_colour[older.colour]
    return sorted(settled + new, key=lambda b: (b.colour, reading_order(b.cells)))


def hummingbird_targets(board: Board) -> dict[Position, int]:
    """How many hummingbirds each qualifying tile should hold (ambiguity 4).

    A tile qualifies when all of its terrain cells (3 or 4: a puddle is
    ignored) lie in pollinized sectors. A qualifying tile gets +1 when the
    tiles left and right of it both qualify, and +1 when the tiles above and
    below both qualify: at most 3.
    """
    pollinized = board.pollinized_cells
    qualifying = {
        position
        for position, cells in board.tiles.items()
        if all(c in pollinized for c in cells if not board.spaces[c].is_puddle)
    }
    targets = {}
    for x, y in qualifying:
        row = (x - 1, y) in qualifying and (x + 1, y) in qualifying
        column = (x, y - 1) in qualifying and (x, y + 1) in qualifying
        targets[(x, y)] = 1 + row + column
    return targets


def settle_hummingbirds(counts: dict[Position, int], board: Board) -> dict[Position, int]:
    """Hummingbird counts after a placement: they only ever increase."""
    settled = dict(counts)
    for position, target in hummingbird_targets(board).items():
        settled[position] = max(settled.get(position, 0), target)
    return dict(sorted(settled.items()))

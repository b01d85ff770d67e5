"""Under the Leaves at the table: every garden as a map of cells, the market's tiles as
2×2 squares, the dweller cards and the turn.

The map's axes are *tile* coordinates, the ones ``place_tile`` takes: the tile at
``(x, y)`` covers the cells ``(2x, 2y)`` top-left, ``(2x+1, 2y)`` top-right, ``(2x, 2y-1)``
bottom-left and ``(2x+1, 2y-1)`` bottom-right (y grows upwards), so each tile is a 2×2
square under its x label and beside its y label. A cell is three characters: its
terrain's letter (capital when a bee pollinizes its sector), ``*`` for a mushroom, and
a dweller's family letter (``L``, ``P``, ``M``) or ``h`` on a tile with a hummingbird.
A dweller's cell in a choice is named by its tile and corner (:func:`cell_name`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.catalogue import Lookup
from clients.cli.render.common import (
    enum_text,
    facts,
    panel,
    seat_text,
    side_by_side,
    table,
    viewer,
)

TERRAIN_LETTERS = {1: "p", 2: "y", 3: "o", 4: "v", 5: "g", 6: "~"}
TERRAIN_STYLES = {1: "magenta", 2: "yellow", 3: "dark_orange", 4: "purple", 5: "green", 6: "blue"}
FAMILY_LETTERS = {1: "L", 2: "P", 3: "M"}
LEGEND = (
    "p pink  y yellow  o orange  v purple  g green  ~ puddle  (capital: pollinized)\n"
    "* mushroom  h hummingbird  L P M leaf, puddle, mushroom dweller  + free spot"
)
OPTIONS_LEGEND = "\n1 2 3 ... where the dweller to place may go (its choices say which)"
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")


def tile_of(x: int, y: int) -> tuple[int, int]:
    """The tile position holding the cell ``(x, y)``."""
    return x // 2, -((-y) // 2)


def cell_name(x: int, y: int) -> str:
    """A cell named as the map shows it: its tile and its corner in that tile."""
    tx, ty = tile_of(x, y)
    corner = (0 if y == 2 * ty else 2) + (x - 2 * tx)
    return f"tile ({tx}, {ty}) {CORNERS[corner]}"


def _cells(garden: Any) -> dict[tuple[int, int], list[Any]]:
    """Each cell's [terrain, mushroom, mark] from the garden's packed tile lists."""
    cells: dict[tuple[int, int], list[Any]] = {}
    for tile in garden.tiles:
        left, top = 2 * tile.x, 2 * tile.y
        shrooms = list(tile.mushrooms) + [False] * 4
        for i, terrain in enumerate(list(tile.terrains)[:4]):
            mark = "h" if i == 0 and tile.hummingbirds > 0 else " "
            cells[(left + i % 2, top - i // 2)] = [terrain, shrooms[i], mark]
    for dweller in garden.dwellers:
        spot = cells.get((dweller.x, dweller.y))
        if spot is not None:
            spot[2] = FAMILY_LETTERS.get(dweller.family, "D")
    return cells


def _pollinized(garden: Any) -> set[tuple[int, int]]:
    return {(c.x, c.y) for s in garden.bee_sectors if s.bees > 0 for c in s.cells}


def garden_map(
    garden: Any,
    spots: frozenset[tuple[int, int]] = frozenset(),
    options: Sequence[tuple[int, int]] = (),
) -> Text:
    """The garden's cells under tile-coordinate axes (see the module docstring); the
    tile positions in ``spots`` (where the taken tile may go) are drawn as ``+``, and
    the cells in ``options`` (where a dweller may go) are marked 1, 2, 3... in order."""
    cells = _cells(garden)
    for number, cell in enumerate(options, start=1):
        if cell in cells:
            cells[cell][2] = str(number) if number < 10 else "?"
    text = Text()
    if not cells:
        return Text("(no tiles yet)", style="dim")
    tiles = {tile_of(x, y) for x, y in cells} | set(spots)
    xs = range(min(t[0] for t in tiles), max(t[0] for t in tiles) + 1)
    ys = range(max(t[1] for t in tiles), min(t[1] for t in tiles) - 1, -1)
    bees = _pollinized(garden)
    text.append("  y\\x", style="dim")
    for tx in xs:
        text.append(f"{tx:^9}", style="dim")
    text.append("\n")
    for ty in ys:
        for row in (0, 1):
            y = 2 * ty - row
            text.append(f"{ty:>4} " if row == 0 else "     ", style="dim")
            for tx in xs:
                text.append("│" if tx != xs[0] else " ", style="dim")
                for x in (2 * tx, 2 * tx + 1):
                    if (tx, ty) in spots and (x, y) not in cells:
                        text.append("+  ", style="bold cyan")
                    else:
                        _append_cell(text, cells.get((x, y)), (x, y) in bees)
                    text.append(" ")
            text.append("\n")
    text.rstrip()
    text.no_wrap = True
    return text


def map_width(garden: Any, spots: frozenset[tuple[int, int]] = frozenset()) -> int:
    """Columns the garden's map takes (5 for the y axis, 9 per tile)."""
    xs = [t.x for t in garden.tiles] + [x for x, _ in spots] or [0]
    return 5 + 9 * (max(xs) - min(xs) + 1)


def _append_cell(text: Text, cell: list[Any] | None, pollinized: bool) -> None:
    if cell is None:
        text.append("·  ", style="dim")
        return
    terrain, mushroom, mark = cell
    letter = TERRAIN_LETTERS.get(terrain, "?")
    style = TERRAIN_STYLES.get(terrain, "")
    if pollinized:
        letter, style = letter.upper(), f"bold {style}"
    text.append(letter, style=style)
    text.append("*" if mushroom else " ", style="bold")
    text.append(mark, style="bold white" if mark != " " else "")


def square(spaces: Any) -> Text:
    """A tile's four printed spaces as a 2×2 square (top row, then bottom row)."""
    text = Text()
    cells = list(spaces)[:4]
    for row in (0, 1):
        text.append(" ")
        for space in cells[2 * row : 2 * row + 2]:
            _append_cell(text, [space.terrain, space.mushroom, " "], False)
            text.append(" ")
        if row == 0:
            text.append("\n")
    return text


def dweller_options(view: Any) -> list[tuple[int, int]]:
    """The cells a pending dweller may go to, in the view's order (numbered on the map)."""
    if not view.pending_card:
        return []
    return [(o.x, o.y) for o in view.pending_options]


def _market(view: Any) -> RenderableType:
    squares = []
    for tile in view.market:
        body = Group(Text(f"slot {tile.slot}: {tile.tile}", style="bold"), square(tile.spaces))
        squares.append(body)
    if view.taken_tile:
        squares.append(
            Group(Text(f"taken: {view.taken_tile}", style="bold"), square(view.taken_spaces))
        )
    return panel(in_a_row(squares), "Market", f"bag: {view.bag_count} tiles")


def in_a_row(items: list[RenderableType]) -> RenderableType:
    """Small squares side by side (four of them fit in 80 columns)."""
    grid = Table.grid(padding=(0, 3))
    for _ in items:
        grid.add_column(no_wrap=True)
    if items:
        grid.add_row(*items)
    return grid


def _dwellers(view: Any, catalogue: Any | None) -> RenderableType:
    known = Lookup(catalogue.dwellers if catalogue else (), "card")
    out = table("card", "family", "condition → placement", wrap=("condition → placement",))
    for card in view.dweller_cards:
        entry = known.get(card.id)
        condition = card.condition or (entry.condition if entry else "")
        placement = card.placement or (entry.placement if entry else "")
        out.add_row(
            card.name or card.id,
            enum_text(card, "family"),
            f"{condition} → {placement}" if placement else condition,
        )
    return panel(out, "Dweller cards")


def _garden(
    garden: Any, view: Any, names: dict[int, str], spots: frozenset[tuple[int, int]]
) -> RenderableType:
    options = dweller_options(view) if garden.seat == view.current_seat else []
    pieces = garden.pieces
    counts = (
        f"score {garden.score} · bees {pieces.bees} · hummingbirds {pieces.hummingbirds} · "
        f"dwellers L{pieces.leaf} P{pieces.puddle} M{pieces.mushroom}"
    )
    you = " (you)" if garden.seat == viewer(view) else ""
    turn = " ◀ to play" if garden.seat == view.current_seat else ""
    return panel(
        Group(garden_map(garden, spots, options), Text(counts, style="dim")),
        f"Garden of {seat_text(garden.seat, names)}{you}{turn}",
    )


def _turn(view: Any, names: dict[int, str]) -> RenderableType:
    pending = None
    if view.pending_card:
        options = ", ".join(
            f"{n}: {cell_name(x, y)}" for n, (x, y) in enumerate(dweller_options(view), start=1)
        )
        card = next((c.name for c in view.dweller_cards if c.id == view.pending_card), "")
        name = card or view.pending_card
        pending = f"place {name}: {options}" if options else name
    return facts(
        [
            ("Turn", f"{view.turns_played + 1} of {view.turns_total}"),
            ("To play", seat_text(view.current_seat, names)),
            ("Phase", enum_text(view, "phase")),
            ("First player", seat_text(view.first_seat, names)),
            ("Dweller choice", pending),
        ]
    )


def render(
    view: Any,
    catalogue: Any | None,
    *,
    width: int = 80,
    names: dict[int, str] | None = None,
    legal: Sequence[Any] = (),
) -> RenderableType:
    """The whole table: turn, market, dweller cards, the legend and every garden (yours
    last, just above the prompt, with the spots of ``legal`` tile placements marked ``+``)."""
    names = names or {}
    me = viewer(view)
    spots = frozenset(
        (a.action.place_tile.x, a.action.place_tile.y)
        for a in legal
        if a.action.WhichOneof("kind") == "place_tile"
    )
    gardens = sorted(view.gardens, key=lambda g: (g.seat == me, g.seat))
    mine = {g.seat: spots if g.seat == me else frozenset() for g in gardens}
    maps = [_garden(g, view, names, mine[g.seat]) for g in gardens]
    widest = max((map_width(g, mine[g.seat]) for g in gardens), default=40) + 4
    return Group(
        panel(_turn(view, names), "Under the Leaves"),
        _market(view),
        _dwellers(view, catalogue),
        Text(LEGEND + (OPTIONS_LEGEND if dweller_options(view) else ""), style="dim"),
        side_by_side(maps, width, each=max(widest, 56)),
    )


def turned(spaces: Any, rotation: int, flipped: bool) -> list[Any]:
    """A tile's printed spaces (top-left, top-right, bottom-left, bottom-right) as placed:
    turned clockwise by ``rotation`` degrees, then mirrored left to right when flipped
    (what every placed tile of the recorded games shows; a test keeps it so)."""
    quad = list(spaces)[:4]
    for _ in range((rotation // 90) % 4):
        quad = [quad[2], quad[0], quad[3], quad[1]]
    if flipped:
        quad = [quad[1], quad[0], quad[3], quad[2]]
    return quad


def choice_path(action: Any) -> tuple[str, ...] | None:
    """Steps of a tile placement: the spot (tile coordinates, as on the map), then the
    turn and side; a dweller's cell by tile and corner. None: one step."""
    kind = action.action.WhichOneof("kind")
    if kind == "place_tile":
        place = action.action.place_tile
        side = ", flipped" if place.flipped else ""
        return (f"spot ({place.x}, {place.y})", f"rotated {place.rotation}°{side}")
    return None


def choice_detail(action: Any, view: Any, catalogue: Any | None) -> str:
    """What a choice concerns, in words the board uses."""
    kind = action.action.WhichOneof("kind")
    if kind == "take_tile":
        slot = action.action.take_tile.slot
        tile = next((t for t in view.market if t.slot == slot), None)
        if tile is not None:
            return _square_words(list(tile.spaces))
    if kind == "place_tile" and view.taken_spaces:
        place = action.action.place_tile
        return _square_words(turned(view.taken_spaces, place.rotation, place.flipped))
    if kind == "place_dweller":
        place = action.action.place_dweller
        options = dweller_options(view)
        mark = options.index((place.x, place.y)) + 1 if (place.x, place.y) in options else 0
        where = cell_name(place.x, place.y)
        return f"{where}, marked {mark} on the map" if 0 < mark < 10 else where
    return ""


def _square_words(quad: list[Any]) -> str:
    """A 2×2 square in one line: the top row / the bottom row."""
    top = " ".join(_space_word(s) for s in quad[:2])
    bottom = " ".join(_space_word(s) for s in quad[2:4])
    return f"{top} / {bottom}"


def _space_word(space: Any) -> str:
    letter = TERRAIN_LETTERS.get(space.terrain, "?")
    return letter + ("*" if space.mushroom else "")

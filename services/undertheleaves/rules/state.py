"""The full game state and its deterministic encoding.

Only what cannot be derived is stored: tiles as placed, pieces as they
arrived, the bag, the market, the tile taken and whose turn it is. Cells,
sectors and candidate dweller placements are recomputed from the tiles (see
``board``); a garden keeps its :class:`~services.undertheleaves.rules.board.Board`
and its frontier as caches that are never encoded.

Cells are ints (``board.cell_id``); a piece's cells are a tuple in reading
order (ascending), so records encode to JSON as they are.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from services.core.engine import jsonstate
from services.undertheleaves.rules.board import Board, Cell, PlacedTile, Position
from services.undertheleaves.rules.caches import KEPT

TAKE_TILE = "take_tile"
PLACE_TILE = "place_tile"
PLACE_DWELLER = "place_dweller"
OVER = "over"

FORMAT_VERSION = 2


@dataclass(frozen=True, slots=True)
class Options:
    """Rule variants, fixed at setup (see docs/games/undertheleaves.md)."""

    #: Tiles may be mirrored as well as rotated (ambiguity 1).
    allow_flip: bool = True
    #: At most one new Thoughtful per sector in a turn (ambiguity 7).
    thoughtful_one_per_sector_per_turn: bool = True
    #: Several new sectors of one colour in a turn give each older sector of
    #: that colour +1 bee once, not once per new sector (ambiguity 3).
    existing_sector_bonus_once_per_colour_per_turn: bool = True


class BeeSector(NamedTuple):
    """A pollinized sector (its cells in reading order) and the bees it holds."""

    colour: str
    cells: tuple[Cell, ...]
    bees: int


class Dweller(NamedTuple):
    """One dweller piece.

    ``cells`` are the cells it claims for the reuse rules (a sector, a puddle,
    a 2×2 block or a single cell), in reading order; ``anchor`` is the cell it
    is drawn on (for a 2×2 block, its bottom-left cell: the piece sits at the
    block's centre). ``turn`` is the index of the turn in which it arrived.
    """

    card: str
    anchor: Cell
    cells: tuple[Cell, ...]
    turn: int


#: A garden's hummingbirds: (tile position, birds on it) for every tile with at
#: least one, sorted by position (as stored).
Birds = tuple[tuple[Position, int], ...]


@dataclass(slots=True)
class Garden:
    """One seat's garden, held in immutable values: a placement or a new piece
    makes new tuples, it never changes one. Each cache below is kept with the
    very tuples it was worked out from and is used only while the garden still
    holds those (an identity check, or equality of immutable values).

    Lists and a dict given to the constructor are turned into tuples."""

    tiles: tuple[PlacedTile, ...]
    bee_sectors: tuple[BeeSector, ...] = ()
    hummingbirds: Birds = ()
    dwellers: tuple[Dweller, ...] = ()
    #: Cache ``board``: (the tiles it was built from, the board), grown by
    #: :meth:`place`.
    board: tuple[tuple[PlacedTile, ...], Board] | None = field(
        default=None, compare=False, repr=False
    )
    #: Cache ``frontier``: (the tiles, sorted free positions, occupied positions).
    frontier_cache: tuple[tuple[PlacedTile, ...], list[Position], set[Position]] | None = field(
        default=None, compare=False, repr=False
    )
    #: Cache ``garden_view``: (the garden's version, its pieces, the score and
    #: view dict last built, or -1 and None); see ``view._garden_counts``.
    view_cache: tuple[tuple[Any, ...], dict[str, int], int, dict[str, Any] | None] | None = field(
        default=None, compare=False, repr=False
    )
    #: Cache ``garden_json``: (the tiles, their JSON as a fragment and as bytes);
    #: tiles placed since are appended to the kept bytes.
    tiles_json: tuple[tuple[PlacedTile, ...], Any, bytes] | None = field(
        default=None, compare=False, repr=False
    )
    #: Cache ``garden_json``: (the garden's version, the garden as a JSON fragment).
    garden_json: tuple[tuple[Any, ...], Any] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.tiles) is not tuple:
            self.tiles = tuple(self.tiles)
        if type(self.bee_sectors) is not tuple:
            self.bee_sectors = tuple(self.bee_sectors)
        if isinstance(self.hummingbirds, dict):
            self.hummingbirds = tuple(sorted(self.hummingbirds.items()))
        elif type(self.hummingbirds) is not tuple:
            self.hummingbirds = tuple(self.hummingbirds)
        if type(self.dwellers) is not tuple:
            self.dwellers = tuple(self.dwellers)

    def version(self) -> tuple[Any, ...]:
        """What the garden's pieces, view and encoding depend on: its four tuples
        (compared by identity first, then by value)."""
        return (self.tiles, self.bee_sectors, self.hummingbirds, self.dwellers)

    def encoded(self) -> Any:
        """The garden as a JSON value for :func:`encode`: a fragment written once
        per version (cache ``garden_json``), else the plain value."""
        if not KEPT["garden_json"]:
            return [self.tiles, self.bee_sectors, self.hummingbirds, self.dwellers]
        version = self.version()
        cached = self.garden_json
        if cached is None or cached[0] != version:
            value = [self.encoded_tiles(), self.bee_sectors, self.hummingbirds, self.dwellers]
            cached = self.garden_json = (version, jsonstate.fragment(value))
        return cached[1]

    def encoded_tiles(self) -> Any:
        """The tiles as a JSON fragment for :func:`encode`: the kept array while
        the tiles are the same; when the kept tiles begin the garden's, the new
        ones are appended to the kept bytes (each tile encoded once)."""
        tiles = self.tiles
        cached = self.tiles_json
        if cached is not None:
            kept = cached[0]
            if kept is tiles:
                return cached[1]
            if 0 < len(kept) < len(tiles) and tiles[: len(kept)] == kept:
                added = b",".join([jsonstate.dumps(tuple(t)) for t in tiles[len(kept) :]])
                data = cached[2][:-1] + b"," + added + b"]"
                self.tiles_json = (tiles, jsonstate.fragment_of(data), data)
                return self.tiles_json[1]
        data = jsonstate.dumps(tiles)
        self.tiles_json = (tiles, jsonstate.fragment_of(data), data)
        return self.tiles_json[1]

    def get_board(self) -> Board:
        """The garden's board, built on first use and kept while the tiles are
        the very tuple it was built from (cache ``board``)."""
        if not KEPT["board"]:
            return Board(self.tiles)
        cached = self.board
        if cached is None or cached[0] is not self.tiles:
            cached = self.board = (self.tiles, Board(self.tiles))
        return cached[1]

    def frontier(self) -> tuple[list[Position], set[Position]]:
        """Empty positions sharing a side with a tile (sorted), and the occupied
        ones (cache ``frontier``; both are read-only for callers)."""
        cached = self.frontier_cache
        if cached is None or cached[0] is not self.tiles or not KEPT["frontier"]:
            taken = {(t.x, t.y) for t in self.tiles}
            free = sorted({(x + dx, y + dy) for x, y in taken for dx, dy in _SIDES} - taken)
            cached = self.frontier_cache = (self.tiles, free, taken)
        return cached[1], cached[2]

    def place(self, placed: PlacedTile) -> None:
        """Add a tile: a new tuple of tiles; the kept board and frontier of the
        old tuple grow by that tile and are kept with the new one."""
        before = self.tiles
        tiles = self.tiles = (*before, placed)
        kept = self.board
        if KEPT["board"] and kept is not None and kept[0] is before:
            kept[1].add(placed)
            self.board = (tiles, kept[1])
        cached = self.frontier_cache
        if KEPT["frontier"] and cached is not None and cached[0] is before:
            # Kept sorted in place: the position leaves, its free sides join.
            x, y = placed.x, placed.y
            free, taken = cached[1], cached[2]
            taken.add((x, y))
            at = bisect_left(free, (x, y))
            if at < len(free) and free[at] == (x, y):
                del free[at]
            for side in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if side not in taken:
                    at = bisect_left(free, side)
                    if at == len(free) or free[at] != side:
                        free.insert(at, side)
            self.frontier_cache = (tiles, free, taken)


_SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(slots=True)
class State:
    players: int
    options: Options
    #: The dweller card of each family, in check order (leaf, puddle, mushroom).
    cards: tuple[str, str, str]
    #: Face-down tiles; drawn from the end. Secret: only its length is shown.
    bag: list[str]
    #: Face-up tiles; the index is the market slot.
    market: list[str]
    gardens: list[Garden]
    first_seat: int
    current: int
    #: Turns completed so far (also the index of the turn being played).
    turn: int
    phase: str
    #: The card whose placement the current seat must choose ("" if none).
    pending_card: str
    #: The generator's state (see services.core.engine.rng). Secret.
    rng: int
    #: The tile taken from the market, to be placed now ("" if none).
    taken_tile: str = ""


_OPTIONS: dict[tuple[bool, bool, bool], Options] = {}


def _options(flags: list[bool]) -> Options:
    key = (flags[0], flags[1], flags[2])
    options = _OPTIONS.get(key)
    if options is None:
        options = _OPTIONS[key] = Options(*key)
    return options


def encode(state: State) -> bytes:
    """Deterministic JSON: records are tuples, so they encode as arrays as they are."""
    o = state.options
    return jsonstate.dumps(
        {
            "v": FORMAT_VERSION,
            "players": state.players,
            "options": [
                o.allow_flip,
                o.thoughtful_one_per_sector_per_turn,
                o.existing_sector_bonus_once_per_colour_per_turn,
            ],
            "cards": state.cards,
            "bag": state.bag,
            "market": state.market,
            "gardens": [g.encoded() for g in state.gardens],
            "first_seat": state.first_seat,
            "current": state.current,
            "turn": state.turn,
            "phase": state.phase,
            "pending_card": state.pending_card,
            "taken_tile": state.taken_tile,
            "rng": state.rng,
        },
        sort_keys=True,
    )


def decode(data: bytes) -> State:
    """The state ``data`` encodes (:func:`parse`)."""
    return parse(data)


def parse(data: bytes) -> State:
    """The state ``data`` encodes, read from the JSON."""
    raw: dict[str, Any] = jsonstate.loads(data)
    if raw.get("v") != FORMAT_VERSION:
        raise ValueError(f"unsupported state format {raw.get('v')!r}")
    make_tile = PlacedTile._make
    gardens = [
        Garden(
            tiles=tuple(map(make_tile, tiles)),
            bee_sectors=tuple([BeeSector(c, tuple(cells), n) for c, cells, n in bees]),
            hummingbirds=tuple([((x, y), n) for (x, y), n in birds]),
            dwellers=tuple([Dweller(c, a, tuple(cells), t) for c, a, cells, t in dwellers]),
        )
        for tiles, bees, birds, dwellers in raw["gardens"]
    ]
    return State(
        players=raw["players"],
        options=_options(raw["options"]),
        cards=tuple(raw["cards"]),  # type: ignore[arg-type]
        bag=raw["bag"],
        market=raw["market"],
        gardens=gardens,
        first_seat=raw["first_seat"],
        current=raw["current"],
        turn=raw["turn"],
        phase=raw["phase"],
        pending_card=raw["pending_card"],
        rng=raw["rng"],
        taken_tile=raw["taken_tile"],
    )


def clone(state: State) -> State:
    """An independent copy of ``state`` (a garden's tuples are immutable and
    shared; no caches)."""
    return State(
        players=state.players,
        options=state.options,
        cards=state.cards,
        bag=state.bag.copy(),
        market=state.market.copy(),
        gardens=[Garden(g.tiles, g.bee_sectors, g.hummingbirds, g.dwellers) for g in state.gardens],
        first_seat=state.first_seat,
        current=state.current,
        turn=state.turn,
        phase=state.phase,
        pending_card=state.pending_card,
        rng=state.rng,
        taken_tile=state.taken_tile,
    )

"""The full game state and its deterministic encoding.

Only what cannot be derived is stored: tiles as placed, pieces as they
arrived, the bag, the market and whose turn it is. Cells, sectors and
candidate dweller placements are recomputed from the tiles (see ``board``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from services.undertheleaves.rules.board import Cell, PlacedTile, Position, reading_order

PLACE_TILE = "place_tile"
PLACE_DWELLER = "place_dweller"
OVER = "over"

FORMAT_VERSION = 1


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


@dataclass(slots=True)
class BeeSector:
    """A pollinized sector and the bees it holds."""

    colour: str
    cells: frozenset[Cell]
    bees: int


@dataclass(frozen=True, slots=True)
class Dweller:
    """One dweller piece.

    ``cells`` are the cells it claims for the reuse rules (a sector, a puddle,
    a 2×2 block or a single cell); ``anchor`` is the cell it is drawn on (for a
    2×2 block, its bottom-left cell: the piece sits at the block's centre).
    ``turn`` is the index of the turn in which it arrived.
    """

    card: str
    anchor: Cell
    cells: frozenset[Cell]
    turn: int


@dataclass(slots=True)
class Garden:
    tiles: list[PlacedTile]
    bee_sectors: list[BeeSector] = field(default_factory=list)
    #: Tile position -> hummingbirds on that tile (only positions with at least one).
    hummingbirds: dict[Position, int] = field(default_factory=dict)
    dwellers: list[Dweller] = field(default_factory=list)


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


def _cells(cells: frozenset[Cell]) -> list[list[int]]:
    return [list(c) for c in reading_order(cells)]


def _uncells(raw: list[list[int]]) -> frozenset[Cell]:
    return frozenset((x, y) for x, y in raw)


def to_json(state: State) -> dict[str, Any]:
    return {
        "v": FORMAT_VERSION,
        "players": state.players,
        "options": {
            "allow_flip": state.options.allow_flip,
            "thoughtful_one_per_sector_per_turn": state.options.thoughtful_one_per_sector_per_turn,
            "existing_sector_bonus_once_per_colour_per_turn": (
                state.options.existing_sector_bonus_once_per_colour_per_turn
            ),
        },
        "cards": list(state.cards),
        "bag": list(state.bag),
        "market": list(state.market),
        "gardens": [
            {
                "tiles": [[t.tile, t.x, t.y, t.rotation, t.flipped] for t in g.tiles],
                "bee_sectors": [
                    {"colour": b.colour, "cells": _cells(b.cells), "bees": b.bees}
                    for b in g.bee_sectors
                ],
                "hummingbirds": [[x, y, n] for (x, y), n in sorted(g.hummingbirds.items())],
                "dwellers": [
                    {
                        "card": d.card,
                        "anchor": list(d.anchor),
                        "cells": _cells(d.cells),
                        "turn": d.turn,
                    }
                    for d in g.dwellers
                ],
            }
            for g in state.gardens
        ],
        "first_seat": state.first_seat,
        "current": state.current,
        "turn": state.turn,
        "phase": state.phase,
        "pending_card": state.pending_card,
        "rng": state.rng,
    }


def from_json(raw: dict[str, Any]) -> State:
    if raw.get("v") != FORMAT_VERSION:
        raise ValueError(f"unsupported state format {raw.get('v')!r}")
    return State(
        players=raw["players"],
        options=Options(**raw["options"]),
        cards=tuple(raw["cards"]),  # type: ignore[arg-type]
        bag=list(raw["bag"]),
        market=list(raw["market"]),
        gardens=[
            Garden(
                tiles=[PlacedTile(t, x, y, r, f) for t, x, y, r, f in g["tiles"]],
                bee_sectors=[
                    BeeSector(b["colour"], _uncells(b["cells"]), b["bees"])
                    for b in g["bee_sectors"]
                ],
                hummingbirds={(x, y): n for x, y, n in g["hummingbirds"]},
                dwellers=[
                    Dweller(d["card"], tuple(d["anchor"]), _uncells(d["cells"]), d["turn"])  # type: ignore[arg-type]
                    for d in g["dwellers"]
                ],
            )
            for g in raw["gardens"]
        ],
        first_seat=raw["first_seat"],
        current=raw["current"],
        turn=raw["turn"],
        phase=raw["phase"],
        pending_card=raw["pending_card"],
        rng=raw["rng"],
    )


def encode(state: State) -> bytes:
    return json.dumps(to_json(state), sort_keys=True, separators=(",", ":")).encode()


def decode(data: bytes) -> State:
    return from_json(json.loads(data))

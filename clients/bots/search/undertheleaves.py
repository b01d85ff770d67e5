"""Under the Leaves: an engine state built from a seat's view.

Everything on the table is public (gardens with their bee sectors,
hummingbirds and dwellers, the market, the tile taken, the dweller cards);
hidden from every seat alike is the bag: its order and which garden tiles
left the game unseen at setup. :func:`build` copies the public part from the
view exactly and fills the bag with the first ``bag_count`` unseen tiles in
sorted order; the engine's ``determinize`` then redraws the bag for each
sample. The generator is a placeholder (determinize reseeds it).
"""

from __future__ import annotations

from typing import Any

from clients.bots.search.ismcts import Settings
from services.undertheleaves.rules import ENGINE, State
from services.undertheleaves.rules.board import PlacedTile, cell_id
from services.undertheleaves.rules.hidden import unseen_tiles
from services.undertheleaves.rules.state import (
    OVER,
    PLACE_DWELLER,
    PLACE_TILE,
    TAKE_TILE,
    BeeSector,
    Dweller,
    Garden,
    Options,
)

#: Search settings tuned on this game: a turn is two or three decisions, and the
#: tile taken is worth what its best placement scores, so playouts place greedily
#: (every placement looked at) and stop after the next two decisions.
SETTINGS = Settings(depth=2, sample=64, epsilon=0.0)

#: View phase name -> engine phase.
PHASES = {f"PHASE_{p.upper()}": p for p in (TAKE_TILE, PLACE_TILE, PLACE_DWELLER, OVER)}


def _cells(cells: list[dict[str, int]]) -> tuple[int, ...]:
    return tuple(cell_id(c["x"], c["y"]) for c in cells)


def _garden(garden: dict[str, Any]) -> Garden:
    """A garden exactly as the view shows it (its pieces are recounted by the engine)."""
    return Garden(
        tiles=[
            PlacedTile(t["tile"], t["x"], t["y"], t["rotation"], t["flipped"])
            for t in garden["tiles"]
        ],
        bee_sectors=[
            BeeSector(b["colour"].removeprefix("TERRAIN_").lower(), _cells(b["cells"]), b["bees"])
            for b in garden["bee_sectors"]
        ],
        hummingbirds={
            (t["x"], t["y"]): t["hummingbirds"] for t in garden["tiles"] if t["hummingbirds"]
        },
        dwellers=[
            Dweller(d["card"], cell_id(d["x"], d["y"]), _cells(d["cells"]), d["turn"])
            for d in garden["dwellers"]
        ],
    )


def build(view: dict[str, Any], seat: int) -> State:
    """An engine state that shows ``seat`` exactly ``view`` (see the module docstring)."""
    variants = view["variants"]
    phase = PHASES[view["phase"]]
    current = view["current_seat"]
    if current < 0:  # over: the engine keeps the last seat, which no view shows
        current = seat
    state = State(
        players=view["players"],
        options=Options(
            variants["allow_flip"],
            variants["thoughtful_one_per_sector_per_turn"],
            variants["existing_sector_bonus_once_per_colour_per_turn"],
        ),
        cards=tuple(card["id"] for card in view["dweller_cards"]),  # type: ignore[arg-type]
        bag=[],
        market=[m["tile"] for m in sorted(view["market"], key=lambda m: m["slot"])],
        gardens=[_garden(g) for g in sorted(view["gardens"], key=lambda g: g["seat"])],
        first_seat=view["first_seat"],
        current=current,
        turn=view["turns_played"],
        phase=phase,
        pending_card=view["pending_card"],
        rng=0,
        taken_tile=view["taken_tile"],
    )
    state.bag = unseen_tiles(state)[: view["bag_count"]]
    return state


__all__ = ["ENGINE", "PHASES", "SETTINGS", "build"]

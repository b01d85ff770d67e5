"""What no seat can see in Under the Leaves, and a state resampled from it.

Everything on the table is public: the gardens, the market, the tile taken and
the dweller cards. Hidden from every seat alike (spectators too): the order of
the face-down bag and which garden tiles left the game unseen at setup (the bag
holds only as many tiles as the player count calls for). Nothing is ever
revealed to one seat only, and no decision is secret or simultaneous.
"""

from __future__ import annotations

from services.core.engine import Rng
from services.undertheleaves.rules.catalogue import GARDEN_TILES
from services.undertheleaves.rules.state import State, clone

_GARDEN_TILE_IDS = tuple(sorted(t.id for t in GARDEN_TILES))


def unseen_tiles(state: State) -> list[str]:
    """The garden tiles no seat has seen (in the bag or out of the game), sorted:
    every garden tile not in a garden, the market or the hand of the seat placing."""
    seen = {state.taken_tile, *state.market}
    for garden in state.gardens:
        seen.update(placed.tile for placed in garden.tiles)
    return [tile for tile in _GARDEN_TILE_IDS if tile not in seen]


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """A copy of ``state`` whose bag is redrawn from the unseen tiles.

    The unseen tiles (sorted) are shuffled with ``rng`` and the first ones, as
    many as the bag holds, become the bag; the copy's generator is reseeded from
    ``rng``. The copy is a fresh :func:`state.clone`: its lists, gardens and
    caches are its own (records are immutable and shared), so nothing done to it
    reaches ``state`` or a view handed out from it. The same for every ``seat``
    (nothing is private)."""
    copy = clone(state)
    pool = unseen_tiles(state)
    rng.shuffle(pool)
    copy.bag = pool[: len(state.bag)]
    copy.rng = rng.next_u64()
    return copy


__all__ = ["determinize", "unseen_tiles"]

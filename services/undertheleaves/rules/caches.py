"""The engine's caches, each with a switch to its plain path.

Every cache this engine keeps is named in :data:`KEPT`. While a name is
switched off (``with plain("board"): ...``), the engine computes what that
cache stands in for every time, from the stored state alone: the benchmark
``bench/apply_breakdown.py`` times the service's Apply both ways, and the
tests check that both ways give the same actions, views and bytes. A cache
stays in the engine only where that benchmark shows it pays (see
docs/BENCHMARKS.md, "Engine caches against their plain paths").
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from services.core.engine.caches import switched_off

#: Cache name -> whether the engine uses it (True but inside :func:`plain`).
KEPT: dict[str, bool] = {
    # A garden's board (cells, sectors, puddles, blocks), grown one tile at a time.
    "board": True,
    # A garden's frontier (free positions beside its tiles), kept sorted in place.
    "frontier": True,
    # take_tile / place_tile actions built once, with their arguments checked once.
    "actions": True,
    # View dicts of placed tiles, pieces, market slots and cards, built once per value.
    "part_views": True,
    # A garden's piece counts and View dict, reused while the garden is unchanged.
    "garden_view": True,
    # A garden's stored JSON (and its tiles'), kept as fragments between encodings.
    "garden_json": True,
}


def plain(*names: str) -> AbstractContextManager[None]:
    """Run the block with the caches ``names`` switched off (all of them if none
    is named); each is switched back on afterwards."""
    return switched_off(KEPT, *names)

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

from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def plain(*names: str) -> Iterator[None]:
    """Run the block with the caches ``names`` switched off (all of them if none
    is named); each is switched back on afterwards."""
    chosen = names or tuple(KEPT)
    unknown = set(chosen) - set(KEPT)
    if unknown:
        raise KeyError(f"no such cache: {', '.join(sorted(unknown))}")
    before = {name: KEPT[name] for name in chosen}
    KEPT.update(dict.fromkeys(chosen, False))
    try:
        yield
    finally:
        KEPT.update(before)

"""The engine's caches, each with a switch to its plain path.

Every cache this engine keeps is named in :data:`KEPT`. While a name is
switched off (``with plain("part_views"): ...``), the engine computes what that
cache stands in for every time: the benchmark ``bench/apply_breakdown.py``
times the service's Apply both ways, and the tests check that both ways give
the same actions, views and bytes (see docs/BENCHMARKS.md, "Engine caches against
their plain paths").
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from services.core.engine.caches import switched_off

#: Cache name -> whether the engine uses it (True but inside :func:`plain`).
KEPT: dict[str, bool] = {
    # View dicts of chips, track spaces, Standby spaces, special cards and
    # areas, built once per immutable key (ints and tuples) and shared by views.
    "part_views": True,
    # Actions whose labels name what they move (Owner moves, special birds,
    # milestone claims, kept cards), built once per key and shared.
    "actions": True,
}


def plain(*names: str) -> AbstractContextManager[None]:
    """Run the block with the caches ``names`` switched off (all of them if none
    is named); each is switched back on afterwards."""
    return switched_off(KEPT, *names)

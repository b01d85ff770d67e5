"""The engine's caches, each with a switch to its plain path.

Every cache this engine keeps is named in :data:`KEPT`. While a name is
switched off (``with plain("legal"): ...``), the engine computes what that
cache stands in for every time: the benchmark ``bench/apply_breakdown.py``
times the service's Apply both ways, and the tests check that both ways give
the same actions and states (see docs/BENCHMARKS.md, "Engine caches against
their plain paths").
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from services.core.engine.caches import switched_off

#: Cache name -> whether the engine uses it (True but inside :func:`plain`).
KEPT: dict[str, bool] = {
    # The current decision's legal list, worked out when the flow stops there
    # (to see whether it has a single option) and reused by legal() and apply().
    "legal": True,
    # Whether a bird is affordable from a food signature (the counts of food a
    # player holds): a table per signature, filled on first use.
    "afford": True,
}


def plain(*names: str) -> AbstractContextManager[None]:
    """Run the block with the caches ``names`` switched off (all of them if none
    is named); each is switched back on afterwards."""
    return switched_off(KEPT, *names)

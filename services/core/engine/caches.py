"""Switching an engine's caches to their plain paths.

An engine that keeps caches names them in a ``KEPT`` mapping (cache name ->
in use) in its ``rules/caches.py``; every cache reads its flag and, while it is
off, computes what it stands in for every time. The benchmarks time both ways
and the tests check that both ways give the same bytes, actions and views.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager


@contextmanager
def switched_off(kept: MutableMapping[str, bool], *names: str) -> Iterator[None]:
    """Run the block with the caches ``names`` of ``kept`` switched off (all of
    them if none is named); each is switched back as it was afterwards. An
    unknown name is a ``KeyError``."""
    chosen = names or tuple(kept)
    unknown = set(chosen) - set(kept)
    if unknown:
        raise KeyError(f"no such cache: {', '.join(sorted(unknown))}")
    before = {name: kept[name] for name in chosen}
    kept.update(dict.fromkeys(chosen, False))
    try:
        yield
    finally:
        kept.update(before)

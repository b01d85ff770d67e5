"""Wingspan's caches (rules/caches.py) give what their plain paths give."""

from __future__ import annotations

import pytest

from services.core.engine import Rng
from services.wingspan.rules import ENGINE, caches


def test_the_kept_caches_are_named() -> None:
    assert set(caches.KEPT) == {"legal", "afford"}


@pytest.mark.parametrize("cache", sorted(caches.KEPT))
def test_every_cache_gives_what_its_plain_path_gives(cache: str) -> None:
    """With a cache switched to its plain path (``caches.plain``), a random game
    stores the same bytes, offers the same actions and shows the same views."""

    def replay() -> list[tuple[bytes, list[tuple], dict]]:
        state = ENGINE.setup(2, {}, 31)
        chooser = Rng(31)
        seen = []
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal(state, seat)
            state = ENGINE.apply(state, seat, legal[chooser.below(len(legal))])
            after = ENGINE.to_act(state)
            keys = [a.key() for a in ENGINE.legal(state, after[0])] if after else []
            seen.append((ENGINE.encode(state), keys, ENGINE.view(state, None)))
        return seen

    cached = replay()
    with caches.plain(cache):
        assert replay() == cached

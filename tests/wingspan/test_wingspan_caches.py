"""Wingspan's caches (rules/caches.py) give what their plain paths give."""

from __future__ import annotations

import pytest

from services.wingspan.rules import ENGINE, caches
from tests.engine_trace import random_game_trace


def test_the_kept_caches_are_named() -> None:
    assert set(caches.KEPT) == {"legal", "afford"}


@pytest.mark.parametrize("cache", sorted(caches.KEPT))
def test_every_cache_gives_what_its_plain_path_gives(cache: str) -> None:
    """With a cache switched to its plain path (``caches.plain``), a random game
    stores the same bytes, offers the same actions and shows the same views."""

    cached = random_game_trace(ENGINE, 2, 31)
    with caches.plain(cache):
        assert random_game_trace(ENGINE, 2, 31) == cached

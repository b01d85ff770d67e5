"""Wingspan's caches (rules/caches.py) give what their plain paths give."""

from __future__ import annotations

from services.wingspan.rules import caches


def test_the_kept_caches_are_named() -> None:
    assert set(caches.KEPT) == {"legal", "afford"}

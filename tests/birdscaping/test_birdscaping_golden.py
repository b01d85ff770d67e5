"""Birdscaping: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from tests.golden import game_hashes

GOLDEN = {
    1: "42a40cb4366f2d07a56a248c62e1ab459bf00b2bfc612fa4cf9e12f3c16747b2",
    2: "203d28495f27c9925d4098c0a8607da2210d33e03df5d6212b8408825a5bba3b",
}


def test_birdscaping_golden_games() -> None:
    assert game_hashes("birdscaping") == GOLDEN

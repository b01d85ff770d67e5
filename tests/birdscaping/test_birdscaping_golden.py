"""Birdscaping: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from tests.golden import game_hashes

GOLDEN = {
    1: "1461d2717e725e1af4c53e2ee015a4db967f4be84b74bcaa0978be165fe5c366",
    2: "167bedc0ec92111041e02e9ed985232e63880a979dda6c626b56e01336362ce3",
}


def test_birdscaping_golden_games() -> None:
    assert game_hashes("birdscaping") == GOLDEN

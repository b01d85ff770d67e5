"""Under the Leaves: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from tests.golden import game_hashes

GOLDEN = {
    2: "8d77e6a8625096e1b9d9f7bf82232e3b8b123579517f57842fbb14dec434ee5e",
    3: "e9dde3f6b67a69c2b5dddf02b027af7b0eff5af93b5018eeb20a5e957ef835d6",
    4: "95d2ea5d6c647fe0bc601083956a6c38a2c42f0e705e9d3be3d074a4d5e1e7a8",
}


def test_undertheleaves_golden_games() -> None:
    assert game_hashes("undertheleaves") == GOLDEN

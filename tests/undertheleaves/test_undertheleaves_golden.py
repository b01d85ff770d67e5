"""Under the Leaves: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from tests.golden import game_hashes

GOLDEN = {
    2: "e2493d59cad9d147326aaec6c732d5d168afcd18a4777344cdeade6d79da4908",
    3: "a096987df26ea79cbae8ee713a34fea561d34b7ab4e6be5e382c38d4aabee54d",
    4: "dd6e859f70b92ee2756a1a1b80ecd30b9c1748660f5305722fcd3f43443180d7",
}


def test_undertheleaves_golden_games() -> None:
    assert game_hashes("undertheleaves") == GOLDEN

"""Wingspan: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from pathlib import Path

from services.wingspan.rules import ENGINE
from tests.golden import continued_hash, game_hashes

GOLDEN = {
    2: "e9f40d1c398b82f99626dfcc8e4645727e23b7430480057e9f77964a13c927d6",
    3: "825d2f1ef9044b67e9ade04dd27154c371e1bd6e6be44bc5064514980b8dba3b",
    4: "64ac8c50a72b9a764f0824156f0a9ab6b27c08f5f65b8e3be1a4d4c81d81d8b0",
    5: "0bedfee01d6e17f6f42d04154e22825655edae5f8af112cd4acee6162aef9a74",
}


def test_wingspan_golden_games() -> None:
    assert game_hashes("wingspan") == GOLDEN


#: A state saved by an earlier version (``data/saved_state_v1.json``) and the hash of
#: 40 seeded decisions played on from it: games stored in Redis survive a deploy.
SAVED_STATE = Path(__file__).parent / "data" / "saved_state_v1.json"
SAVED_CONTINUED = "24573abbc83d792a3b45b10744218b5d4deae820fe94c5c2030e29918e06bb33"


def test_wingspan_loads_a_state_saved_by_an_earlier_version() -> None:
    data = SAVED_STATE.read_bytes()
    assert ENGINE.encode(ENGINE.decode(data)) == data
    assert continued_hash(ENGINE, data) == SAVED_CONTINUED

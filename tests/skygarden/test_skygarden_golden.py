"""Sky Garden: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from pathlib import Path

from services.skygarden.rules import ENGINE
from tests.golden import continued_hash, game_hashes

GOLDEN = {
    1: "f4160edc4cd29857cc0de9f35ac7274fc1e952ccb61e3ca1d6ac00ccdebd3c37",
    2: "cf8d230704dccb4f6b07481525e4298dfdee4de5731d9ae2c799f304f16b8f0d",
    3: "082e2e440477bc10eb14715bb9265d05aae6e0aa481e73ab2315b2d42267d9a7",
    4: "f1d8c743acaae89b9aec25c36d66597984003beaf1fceef3ce03776176f73c4f",
}


def test_skygarden_golden_games() -> None:
    assert game_hashes("skygarden") == GOLDEN


#: A state saved by an earlier version (``data/saved_state_v1.json``) and the hash of
#: 40 seeded decisions played on from it: games stored in Redis survive a deploy.
SAVED_STATE = Path(__file__).parent / "data" / "saved_state_v1.json"
SAVED_CONTINUED = "f77b8b2971a83d33aee984829a42acddb6eb4b6db34e73cdd3e82d7496407dff"


def test_skygarden_loads_a_state_saved_by_an_earlier_version() -> None:
    data = SAVED_STATE.read_bytes()
    assert ENGINE.encode(ENGINE.decode(data)) == data
    assert continued_hash(ENGINE, data) == SAVED_CONTINUED

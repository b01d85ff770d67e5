"""Sky Garden: seeded random games give the same decisions, scores, views and stored
states as when these hashes were recorded (``tests.golden``). A refactor that
only renames things keeps them; a deliberate rules change updates them in the
same commit and says why."""

from __future__ import annotations

from pathlib import Path

from services.skygarden.rules import ENGINE
from tests.golden import continued_hash, game_hashes

GOLDEN = {
    1: "f8d92e4014b547e934108ff1d5ab899f0cca9555a040fc9bcf1986d7f946a5a0",
    2: "9114159e78b52011d6395bd6cfe1dd74d7b1a6d1ec317cc5bfd3875d21d2cefb",
    3: "40988c7147396f5d19a5aa8ab21edc20bc1594c9071721a32a23c7cd739594a3",
    4: "d43a7affccbced4218ae599f9f94e047cc343a5b26cf4b21f5988d90ae83ff63",
}


def test_skygarden_golden_games() -> None:
    assert game_hashes("skygarden") == GOLDEN


#: A state saved by an earlier version (``data/saved_state_v1.json``) and the hash of
#: 40 seeded decisions played on from it: games stored in Redis survive a deploy.
SAVED_STATE = Path(__file__).parent / "data" / "saved_state_v1.json"
SAVED_CONTINUED = "5a023432a6bc2d76f556af9925945f4f68c2d1254b35cac93c01b936cdfd4fae"


def test_skygarden_loads_a_state_saved_by_an_earlier_version() -> None:
    data = SAVED_STATE.read_bytes()
    assert ENGINE.encode(ENGINE.decode(data)) == data
    assert continued_hash(ENGINE, data) == SAVED_CONTINUED

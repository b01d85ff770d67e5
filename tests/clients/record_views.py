"""Records the views the CLI's snapshot tests render, from real games on real services.

Each game is served in-process (tests/harness.py) over a real Redis and played to
the end with seeded random choices for every seat. At every decision of seat 0 the
seat's ``GetState`` and ``Legal`` replies are kept; the recording saves a few of them
(the first decision, the one in the middle, the one with the most choices) and the
final state with its ``Score``, as protobuf binary, plus the game's catalogue:

    tests/clients/data/<game>/catalogue.binpb                  GetCatalogueResponse
    tests/clients/data/<game>/<scenario>-<stage>.state.binpb   GetStateResponse
    tests/clients/data/<game>/<scenario>-<stage>.legal.binpb   LegalResponse (not at the end)
    tests/clients/data/<game>/<scenario>-end.score.binpb       ScoreResponse

Run it again (``python -m tests.clients.record_views``) after a change of the views,
then regenerate the snapshots (``ROOST_UPDATE_SNAPSHOTS=1 pytest
tests/clients/test_render_snapshots.py``) and look at them.
"""

from __future__ import annotations

import importlib
import random
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.registry import game as registry_game
from tests.harness import game_server, redis_url

DATA = Path(__file__).resolve().parent / "data"
FINISHED = 2
MAX_APPLIES = 5000


@dataclass(frozen=True)
class Scenario:
    """One recorded game: the game, a name, the player count and a seed."""

    game: str
    name: str
    players: int
    seed: int


SCENARIOS = (
    Scenario("skygarden", "2p", 2, 11),
    Scenario("skygarden", "solo", 1, 12),
    Scenario("wingspan", "2p", 2, 21),
    Scenario("wingspan", "3p", 3, 22),
    Scenario("birdscaping", "2p", 2, 31),
    Scenario("birdscaping", "solo", 1, 32),
    Scenario("undertheleaves", "2p", 2, 41),
    Scenario("undertheleaves", "4p", 4, 42),
)


#: A decision worth a snapshot of its own, per game (the first one met is kept as "special").
SPECIAL = {
    "birdscaping": lambda view: bool(view.payment.card),
    "wingspan": lambda view: view.decision.kind == 7,  # paying food for a bird
    "undertheleaves": lambda view: view.phase == 1,  # placing the taken tile
    "skygarden": lambda view: view.turn.step == 2 and view.turn.pending_bird != "",
}


def _play(stub: Any, m: Any, scenario: Scenario) -> dict[str, bytes]:
    """Plays one game; returns the recorded files' names (without the folder) and bytes."""
    pick = random.Random(scenario.seed)
    common = importlib.import_module("roost.common.v1.common_pb2")
    created = stub.NewGame(
        m.NewGameRequest(
            common=common.CommonOptions(
                players=scenario.players,
                seed=scenario.seed,
                seat_names=[f"player {i}" for i in range(scenario.players)],
            )
        )
    )
    game_id = created.game_id
    tokens = {c.seat: [("x-seat-token", c.token)] for c in created.credentials}
    decisions: list[tuple[bytes, bytes, int]] = []
    special: tuple[bytes, bytes, int] | None = None
    for _ in range(MAX_APPLIES):
        state = stub.GetState(m.GetStateRequest(game_id=game_id), metadata=tokens[0])
        if state.status == FINISHED:
            break
        seat = 0 if 0 in state.to_act else state.to_act[0]
        legal = stub.Legal(m.LegalRequest(game_id=game_id), metadata=tokens[seat])
        if seat == 0:
            decisions.append(
                (state.SerializeToString(), legal.SerializeToString(), len(legal.actions))
            )
            if special is None and SPECIAL[scenario.game](state.view):
                special = decisions[-1]
        choice = pick.randrange(len(legal.actions))
        stub.Apply(
            m.ApplyRequest(
                game_id=game_id,
                expected_version=legal.version,
                request_id=uuid.uuid4().hex,
                action_id=legal.actions[choice].ref.id,
            ),
            metadata=tokens[seat],
        )
    else:
        raise RuntimeError(f"{scenario} did not finish in {MAX_APPLIES} applies")
    score = stub.Score(m.ScoreRequest(game_id=game_id), metadata=tokens[0])
    stages = {
        "start": decisions[0],
        "mid": decisions[len(decisions) // 2],
        "many": max(decisions, key=lambda d: d[2]),
    }
    if special is not None:
        stages["special"] = special
    out: dict[str, bytes] = {}
    for stage, (state_bytes, legal_bytes, _) in stages.items():
        out[f"{scenario.name}-{stage}.state.binpb"] = state_bytes
        out[f"{scenario.name}-{stage}.legal.binpb"] = legal_bytes
    out[f"{scenario.name}-end.state.binpb"] = state.SerializeToString()
    out[f"{scenario.name}-end.score.binpb"] = score.SerializeToString()
    return out


def record(games: list[str]) -> None:
    """Records every scenario of ``games``."""
    with redis_url() as url:
        for name in games:
            spec = importlib.import_module(f"services.{name}.service").SPEC
            info = registry_game(name)
            m = info.messages()
            folder = DATA / name
            folder.mkdir(parents=True, exist_ok=True)
            with game_server(spec, url) as server, server.channel() as channel:
                stub = info.stub(channel)
                catalogue = stub.GetCatalogue(m.GetCatalogueRequest())
                (folder / "catalogue.binpb").write_bytes(catalogue.SerializeToString())
                for scenario in SCENARIOS:
                    if scenario.game != name:
                        continue
                    for file, data in _play(stub, m, scenario).items():
                        (folder / file).write_bytes(data)
                    print(f"recorded {name} {scenario.name}")


if __name__ == "__main__":
    record(sys.argv[1:] or sorted({s.game for s in SCENARIOS}))

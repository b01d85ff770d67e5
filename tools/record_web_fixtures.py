"""Record real game positions as JSON fixtures for the web frontend's unit tests.

Each game is served in-process over a real Redis (the test harness), played
to the end with seeded random choices through the public gRPC API, and a few
positions are written to ``web/test/fixtures/<game>/<position>.json``:

* ``<players>p-start``, ``-mid`` and ``-end``: what seat 0 sees (``GetState``
  with its token), its legal actions (``Legal``) and the score board;
* ``<players>p-wide``: seat 0's decision with the most legal actions (a
  multi-step choice such as a tile's spot, rotation and side), at 1 and 2
  players only (the larger tables repeat the same decisions, longer);
* ``<players>p-spectator``: a position after 30 moves seen without a token;
* ``<players>p-<moment>`` and ``<players>p-<moment>-spectator``: the first
  position where a game-specific moment has come (see ``MOMENTS``: a
  Birdscaping payment under way, every Sky Garden seat's event card chosen),
  seen by seat 0 and by a spectator.

Plus ``catalogue.json`` once per game. Player counts: solo where the game has
it, 2 players for every game, and the largest table of the games that seat
more (Wingspan 5, Under the Leaves 4, Sky Garden 4). Messages are written with proto JSON
names (lowerCamelCase), which is what protobuf-es ``fromJson`` reads.

Run from the repository root after ``make proto``::

    .venv/bin/python tools/record_web_fixtures.py [game ...]
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from roost import games as registry_games
from roost.common.v1 import common_pb2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness import game_server, redis_url  # noqa: E402

OUT = ROOT / "web" / "test" / "fixtures"


def _tables(low: int, high: int) -> tuple[int, ...]:
    """The player counts recorded for a game: its fewest and most, and 2 between them."""
    return tuple(sorted({low, high} | ({2} if low <= 2 <= high else set())))


#: Game name -> the player counts recorded (solo and multiplayer where the game
#: has both), for every game of the registry.
TABLES: dict[str, tuple[int, ...]] = {
    g.name: _tables(g.min_players, g.max_players) for g in registry_games.GAMES
}


def _paying(view: dict[str, Any]) -> bool:
    """Birdscaping: a bird's payment is under way (its steps are on the board)."""
    return bool(view.get("payment", {}).get("card"))


def _events_chosen(view: dict[str, Any]) -> bool:
    """Sky Garden: every seat has chosen its event card (now public)."""
    seats = view.get("seats", [])
    return bool(seats) and all(s.get("eventCard") for s in seats)


#: Game name -> moment name -> a test on seat 0's view (proto JSON): the first
#: position where it holds is recorded for seat 0 and for a spectator.
MOMENTS: dict[str, dict[str, Callable[[dict[str, Any]], bool]]] = {
    "birdscaping": {"payment": _paying},
    "skygarden": {"events": _events_chosen},
}

#: Log events kept per position (the page shows the last dozen).
LOG_EVENTS = 8

SEED = 20261201
MAX_MOVES = 5000


def spec_of(game: str) -> Any:
    """The GameSpec of a game service, imported by name."""
    module = __import__(f"services.{game}.service", fromlist=["SPEC"])
    return module.SPEC


def to_json(message: Message) -> Any:
    """A message as proto JSON (lowerCamelCase names, as protobuf-es expects)."""
    return json.loads(json_format.MessageToJson(message, preserving_proto_field_name=False))


def token_md(token: str | None) -> tuple[tuple[str, str], ...]:
    """Call metadata carrying a seat token (none for a spectator)."""
    return (("x-seat-token", token),) if token else ()


def snapshot(stub: Any, messages: ModuleType, game_id: str, token: str | None) -> dict[str, Any]:
    """State, legal actions, score and the last dozen log events of one reader."""
    md = token_md(token)
    state = stub.GetState(messages.GetStateRequest(game_id=game_id), metadata=md)
    record: dict[str, Any] = {"state": to_json(state)}
    if token:
        legal = stub.Legal(messages.LegalRequest(game_id=game_id), metadata=md)
        record["legal"] = to_json(legal)
    else:
        record["legal"] = {}
    score = stub.Score(messages.ScoreRequest(game_id=game_id), metadata=md)
    record["score"] = to_json(score)
    since = max(0, state.version - LOG_EVENTS)
    log = stub.GetLog(messages.GetLogRequest(game_id=game_id, from_version=since), metadata=md)
    record["log"] = [to_json(entry.event) for entry in log.entries]
    return record


def play(game: str, players: int, channel: grpc.Channel) -> dict[str, dict[str, Any]]:
    """Play one seeded random game; the positions recorded, by name."""
    spec = spec_of(game)
    messages = spec.messages
    stub = getattr(spec.grpc_module, f"{spec.service_name.rsplit('.', 1)[1]}Stub")(channel)

    names = ["Ada", "Bo", "Cy", "Di", "Ed"][:players]
    created = stub.NewGame(
        messages.NewGameRequest(
            common=common_pb2.CommonOptions(players=players, seed=SEED, seat_names=names)
        )
    )
    game_id = created.game_id
    tokens = {c.seat: c.token for c in created.credentials}
    rng = random.Random(SEED + players)
    snaps: list[dict[str, Any]] = []
    spectator: dict[str, Any] | None = None
    moments: dict[str, dict[str, Any]] = {}
    tag = f"{players}p"
    to_act = list(created.to_act)
    for move in range(MAX_MOVES):
        if not to_act:
            break
        if 0 in to_act:
            snaps.append(snapshot(stub, messages, game_id, tokens[0]))
            view = snaps[-1]["state"].get("view", {})
            for moment, holds in MOMENTS.get(game, {}).items():
                if f"{tag}-{moment}" not in moments and holds(view):
                    moments[f"{tag}-{moment}"] = snaps[-1]
                    moments[f"{tag}-{moment}-spectator"] = snapshot(stub, messages, game_id, None)
        seat = to_act[0]
        md = token_md(tokens[seat])
        legal = stub.Legal(messages.LegalRequest(game_id=game_id), metadata=md)
        choice = rng.randrange(len(legal.actions))
        reply = stub.Apply(
            messages.ApplyRequest(
                game_id=game_id,
                expected_version=legal.version,
                request_id=uuid.uuid4().hex,
                action_id=legal.actions[choice].ref.id,
            ),
            metadata=md,
        )
        to_act = list(reply.to_act)
        if spectator is None and move >= 30:
            spectator = snapshot(stub, messages, game_id, None)
    end = snapshot(stub, messages, game_id, tokens[0])
    if spectator is None:
        spectator = snapshot(stub, messages, game_id, None)
    recorded = {
        f"{tag}-start": snaps[0],
        f"{tag}-mid": snaps[len(snaps) // 2],
        f"{tag}-end": end,
        f"{tag}-spectator": spectator,
        **moments,
    }
    if players <= 2:
        recorded[f"{tag}-wide"] = max(snaps, key=lambda s: len(s["legal"].get("actions", [])))
    return recorded


def catalogue(game: str, channel: grpc.Channel) -> Any:
    """The game's catalogue as proto JSON, without the data-provenance notes (never drawn)."""
    spec = spec_of(game)
    stub = getattr(spec.grpc_module, f"{spec.service_name.rsplit('.', 1)[1]}Stub")(channel)
    return strip(to_json(stub.GetCatalogue(spec.messages.GetCatalogueRequest())))


def strip(value: Any) -> Any:
    """Drop the "source" notes from a JSON value, recursively."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k != "source"}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def write(path: Path, value: Any) -> None:
    """Write one fixture, compact but line-broken for readable diffs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1, sort_keys=True) + "\n")


def main(games: list[str]) -> None:
    """Record every asked game (all of them by default)."""
    with redis_url() as url:
        for game in games or list(TABLES):
            with game_server(spec_of(game), url) as server, server.channel() as channel:
                for old in (OUT / game).glob("*.json"):
                    old.unlink()
                write(OUT / game / "catalogue.json", catalogue(game, channel))
                for players in TABLES[game]:
                    for name, record in play(game, players, channel).items():
                        write(OUT / game / f"{name}.json", record)
                        print(f"{game}/{name}")


if __name__ == "__main__":
    main(sys.argv[1:])

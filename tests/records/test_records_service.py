"""Game records over real gRPC and a real Redis (docs/RECORDS.md, issue 30).

Every game at every player count: a random game through the service, its
record (GetRecord) replayed by ``roost replay --verify``, which passes; the
same record with one action changed fails at that version, with the exit
status of the check that differs. While a game is in progress GetRecord gives
only its public part (no seed, secret decisions redacted).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis
from roost import games as registry
from roost.common.v1 import common_pb2

from clients.cli import records as cli_records
from clients.cli.main import main as roost_main
from services.birdscaping.service import SPEC as BIRDSCAPING
from services.core.engine.replay import ReplayMismatch, action_of
from services.core.records.archive import Archive
from services.core.store import events_key, game_key
from services.registry import by_name
from services.skygarden.service import SPEC as SKYGARDEN
from services.undertheleaves.service import SPEC as UNDERTHELEAVES
from services.wingspan.service import SPEC as WINGSPAN
from tests.harness import ServerHandle, game_server
from tests.matchmaking.stack import start, with_db
from tests.service_contract import Client

pytestmark = pytest.mark.service

SPECS = {s.name: s for s in (SKYGARDEN, WINGSPAN, BIRDSCAPING, UNDERTHELEAVES)}
CASES = [
    (entry.name, players)
    for entry in registry.GAMES
    for players in range(entry.min_players, entry.max_players + 1)
    if entry.name in SPECS
]


@pytest.fixture(scope="module")
def archive_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('archive') / 'archive.sqlite3'}"


def _fleet(redis_url: str, archive_url: str) -> Iterator[dict[str, ServerHandle]]:
    with ExitStack() as stack:
        yield {
            name: stack.enter_context(
                game_server(spec, redis_url, archive_url=archive_url, archive_poll_seconds=0.2)
            )
            for name, spec in SPECS.items()
        }


@pytest.fixture(scope="module")
def servers(redis_server_url: str, archive_url: str) -> Iterator[dict[str, ServerHandle]]:
    """One replica of each game service, archiving into one SQLite file."""
    yield from _fleet(redis_server_url, archive_url)


@pytest.fixture(scope="module")
def replicas(redis_server_url: str, archive_url: str) -> Iterator[dict[str, ServerHandle]]:
    """A second replica of each (its caches know nothing of the games)."""
    yield from _fleet(redis_server_url, archive_url)


@pytest.fixture(scope="module")
def raw_redis(redis_server_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server_url)
    yield client
    client.close()


def reads(client: Client, game_id: str, tokens: dict[int, str]) -> list[bytes]:
    """Every read RPC's answer, as bytes: GetState, GetLog (spectator and each
    seat), Score, GetRecord, and the whole Watch of the ended game."""
    answers = []
    for token in [None, *tokens.values()]:
        answers.append(client.state(game_id, token).SerializeToString(deterministic=True))
        answers.append(client.log(game_id, token).SerializeToString(deterministic=True))
    answers.append(client.score(game_id).SerializeToString(deterministic=True))
    answers.append(_record(client, game_id).SerializeToString(deterministic=True))
    answers.extend(r.SerializeToString(deterministic=True) for r in client.watch(game_id))
    return answers


def wait_archived(archive: Archive, game_id: str) -> None:
    """Until the game's row is in the archive (generous deadline)."""
    deadline = time.monotonic() + 30
    while not archive.has(game_id):
        assert time.monotonic() < deadline, f"{game_id} was never archived"
        time.sleep(0.02)


def _record(client: Client, game_id: str) -> common_pb2.Message:
    return client.stub.GetRecord(client.m.GetRecordRequest(game_id=game_id), timeout=30).record


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_finished_games_record_replays_and_a_changed_action_fails_there(
    servers: dict[str, ServerHandle],
    replicas: dict[str, ServerHandle],
    raw_redis: redis.Redis,
    archive_url: str,
    game: str,
    players: int,
    tmp_path: Path,
) -> None:
    """Records: replay --verify passes; archive: after the game's Redis keys
    are gone every read answers from the archive with the same bytes."""
    client = Client(servers[game], SPECS[game])
    created = client.new_game(players, seed=1000 + players)
    final_version = client.play_random(created, random.Random(players))
    record = _record(client, created.game_id)
    assert record.complete and record.seed == 1000 + players
    assert [d.version for d in record.decisions] == list(range(1, final_version + 1))
    assert record.scoreboard == client.score(created.game_id).scoreboard
    assert all(d.view_sha256 for d in record.decisions)
    path = tmp_path / "game.json"
    path.write_text(cli_records.to_json(record))
    assert roost_main(["replay", "--verify", str(path)]) == 0

    # The archive: the same answers once Redis has forgotten the game, from a
    # replica that never saw it.
    tokens = {c.seat: c.token for c in created.credentials}
    before = reads(client, created.game_id, tokens)
    wait_archived(Archive(archive_url), created.game_id)
    raw_redis.delete(game_key(created.game_id), events_key(created.game_id))
    assert reads(Client(replicas[game], SPECS[game]), created.game_id, tokens) == before

    # One action changed: the first decision with another legal choice.
    changed = _changed(record)
    if changed is None:
        pytest.skip("no decision of this game had a second legal choice")
    version, tampered = changed
    path.write_text(cli_records.to_json(tampered))
    with pytest.raises(ReplayMismatch) as mismatch:
        cli_records.verify(tampered)
    assert mismatch.value.version == version
    assert (
        roost_main(["replay", "--verify", str(path)])
        == cli_records.VERIFY_EXIT[mismatch.value.fact]
    )
    assert mismatch.value.fact in ("to_act", "view", "state", "action", "status")


def _changed(record):
    """The record with the first replaceable action replaced by another legal
    one of the same seat (or its args altered), and that decision's version."""
    import importlib

    engine = importlib.import_module(f"services.{record.game}.rules").ENGINE
    state = engine.setup(record.players, json.loads(record.options_json), record.seed)
    for i, decision in enumerate(record.decisions):
        if decision.seat < 0 or decision.kind in ("resign", "abort", "timeout"):
            continue
        legal = engine.legal(state, decision.seat)
        mine = cli_records.decisions_of(record)[i]
        wanted = action_of(mine.kind, mine.args_json)
        others = [a for a in legal if a.key() != wanted.key()]
        if others:
            tampered = type(record)()
            tampered.CopyFrom(record)
            other = others[0]
            tampered.decisions[i].kind = other.kind
            tampered.decisions[i].args_json = json.dumps([list(p) for p in other.args])
            return decision.version, tampered
        played = next(a for a in legal if a.key() == wanted.key())
        state = engine.apply(state, decision.seat, played)
    return None


def test_a_game_in_progress_gives_only_its_public_part(
    servers: dict[str, ServerHandle], tmp_path: Path
) -> None:
    """GetRecord of a live game: no seed, no view digests, secrets redacted;
    replay --verify refuses it as incomplete."""
    client = Client(servers["wingspan"], WINGSPAN)
    created = client.new_game(2, seed=5)
    record = _record(client, created.game_id)
    assert not record.complete and record.seed == 0
    assert not any(d.view_sha256 for d in record.decisions)
    assert all(not d.args_json for d in record.decisions if d.secret)
    with pytest.raises(ReplayMismatch) as mismatch:
        cli_records.verify(record)
    assert mismatch.value.fact == "incomplete"
    # roost export GAME_ID writes the same record as canonical JSON.
    out = tmp_path / "live.json"
    argv = [
        "export",
        created.game_id,
        "--game",
        "wingspan",
        "--target",
        servers["wingspan"].address,
    ]
    assert roost_main([*argv, "--out", str(out)]) == 0
    assert out.read_text() == cli_records.to_json(record) + "\n"
    assert roost_main(["replay", "--verify", str(out)]) == cli_records.VERIFY_EXIT["incomplete"]


def test_a_players_games_page_by_page_and_the_bulk_export(
    servers: dict[str, ServerHandle],
    archive_url: str,
    redis_server_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """ListGames (the matchmaker's, over the archive): a player's games newest
    first, two per page, no game twice; ``roost export --game G --format
    jsonl`` streams the archived records, each one a verifiable record."""
    import asyncio

    from roost.matchmaking.v1 import matchmaking_pb2 as mm

    from services.matchmaking.history import list_games

    client = Client(servers["undertheleaves"], UNDERTHELEAVES)
    ids = []
    for n in range(3):
        request = client.m.NewGameRequest(
            common=common_pb2.CommonOptions(
                players=2, seed=500 + n, seat_identities=["player-history", f"other-{n}"]
            )
        )
        created = client.stub.NewGame(request, timeout=30)
        client.play_random(created, random.Random(n))
        ids.append(created.game_id)
    archive = Archive(archive_url)
    for game_id in ids:
        wait_archived(archive, game_id)
    assert _record(client, ids[0]).seats[0].identity == "player-history"

    seen, token = [], ""
    while True:
        page = asyncio.run(
            list_games(archive, mm.ListGamesRequest(player_id="player-history", limit=2,
                                                    page_token=token))
        )  # fmt: skip
        assert len(page.games) <= 2
        seen.extend(g.game_id for g in page.games)
        token = page.next_page_token
        if not token:
            break
    assert sorted(seen) == sorted(ids) and len(seen) == 3
    ended = [g.ended_ms for g in asyncio.run(
        list_games(archive, mm.ListGamesRequest(player_id="player-history"))
    ).games]  # fmt: skip
    assert ended == sorted(ended, reverse=True)

    # The same through the matchmaker process's ListGames: roost history.
    matchmaker = start(
        by_name("matchmaking"),
        {"REDIS_URL": with_db(redis_server_url, 11), "ARCHIVE_URL": archive_url,
         "MM_GAMES": "undertheleaves"},
    )  # fmt: skip
    try:
        capsys.readouterr()
        argv = ["history", "--player", "player-history", "--json"]
        assert roost_main([*argv, "--matchmaker", matchmaker.address]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert sorted(g["game_id"] for g in listed["games"]) == sorted(ids)
    finally:
        matchmaker.stop()

    out = tmp_path / "undertheleaves.jsonl"
    argv = ["export", "--game", "undertheleaves", "--format", "jsonl", "--archive", archive_url]
    assert roost_main([*argv, "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    exported = [cli_records.from_json_text(line) for line in lines]
    assert set(ids) <= {r.game_id for r in exported}
    for record in exported:
        if record.game_id in ids:
            cli_records.verify(record)
    archive.close()

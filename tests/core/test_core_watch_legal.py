"""Watch's legal lists and ``skip_own_events``, over real gRPC and a real Redis.

A seat's Watch with ``include_legal`` carries, on an event after which the seat
is asked, exactly the list Legal gives at that version, whether the process
serving the stream wrote that version itself (the list then comes from its
memory) or another process did (it reads the stored game). With
``skip_own_events`` the stream leaves out the seat's own decisions but the
final event, and every other event still comes, in order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from services.core.game_service import GameSpec
from services.undertheleaves.service import SPEC as UNDERTHELEAVES
from services.wingspan.service import SPEC as WINGSPAN
from tests.harness import ServerHandle, game_server
from tests.service_contract import Client

SPECS = {"undertheleaves": UNDERTHELEAVES, "wingspan": WINGSPAN}


@pytest.fixture(scope="module", params=sorted(SPECS))
def two_servers(
    request: pytest.FixtureRequest, redis_server_url: str
) -> Iterator[tuple[GameSpec, ServerHandle, ServerHandle]]:
    """Two processes' worth of one game's service over one Redis."""
    spec = SPECS[request.param]
    with game_server(spec, redis_server_url) as first, game_server(spec, redis_server_url) as other:
        yield spec, first, other


def _watch(client: Client, game_id: str, token: str, **flags: Any) -> Any:
    return client.stub.Watch(
        client.m.WatchRequest(game_id=game_id, include_legal=True, **flags),
        metadata=client.md(token),
        timeout=120,
    )


@pytest.mark.parametrize("same_process", [True, False], ids=["same-process", "other-process"])
def test_watch_legal_is_legals_list_at_the_event(
    two_servers: tuple[GameSpec, ServerHandle, ServerHandle], same_process: bool
) -> None:
    """Decisions applied one at a time: after each, every asked seat's stream
    carries Legal's list at the new version (the version is current while the
    test reads it), the acting seat's also when it acts again."""
    spec, first, other = two_servers
    applier = Client(first, spec)
    watcher = applier if same_process else Client(other, spec)
    created = applier.new_game(2, seed=5)
    game_id = created.game_id
    tokens = {c.seat: c.token for c in created.credentials}
    streams = {seat: _watch(watcher, game_id, token) for seat, token in tokens.items()}
    rng = random.Random(5)
    version, to_act = created.version, list(created.to_act)
    for _ in range(40):
        for seat, stream in streams.items():
            item = next(stream)
            assert item.event.version == version
            if seat in item.event.to_act:
                assert list(item.legal) == list(applier.legal(game_id, tokens[seat]).actions)
            else:
                assert not item.legal
        if not to_act:
            break
        seat = rng.choice(to_act)
        actions = applier.legal(game_id, tokens[seat]).actions
        reply = applier.apply(game_id, tokens[seat], version, action_id=rng.randrange(len(actions)))
        version, to_act = reply.version, list(reply.to_act)
    for stream in streams.values():
        stream.cancel()


def test_skip_own_events_leaves_out_the_seats_decisions_but_the_final_one(
    two_servers: tuple[GameSpec, ServerHandle, ServerHandle],
) -> None:
    """A whole game: the skipping stream is the full stream without the seat's
    own events before the final one (live and read back from the start), and
    its legal lists are the full stream's."""
    spec, first, _other = two_servers
    if spec.name != "undertheleaves":
        pytest.skip("one whole game is enough")
    client = Client(first, spec)
    created = client.new_game(2, seed=9)
    game_id = created.game_id
    tokens = {c.seat: c.token for c in created.credentials}
    seat = 0
    live_full = _watch(client, game_id, tokens[seat])
    live_skipping = _watch(client, game_id, tokens[seat], skip_own_events=True)
    version, to_act = created.version, list(created.to_act)
    rng = random.Random(9)
    while to_act:
        actor = rng.choice(to_act)
        actions = client.legal(game_id, tokens[actor]).actions
        reply = client.apply(game_id, tokens[actor], version, action_id=rng.randrange(len(actions)))
        version, to_act = reply.version, list(reply.to_act)
    full = [(i.event.version, i.event.seat, list(i.legal)) for i in live_full]
    skipping = [(i.event.version, i.event.seat, list(i.legal)) for i in live_skipping]
    final = full[-1][0]
    assert final == version
    expected = [e for e in full if e[1] != seat or e[0] == final]
    assert [e[:2] for e in skipping] == [e[:2] for e in expected]
    assert len(skipping) < len(full)
    kept = {e[0]: e[2] for e in full}
    for event_version, _seat, legal in skipping:
        assert legal == kept[event_version]
    replayed = _watch(client, game_id, tokens[seat], skip_own_events=True)
    assert [(i.event.version, i.event.seat) for i in replayed] == [e[:2] for e in expected]

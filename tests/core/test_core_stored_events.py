"""The stored event record (services/core/events.py) keeps the stored format.

Games written by earlier processes hold stream entries whose fields are the
short names ``s, k, a, l, x, p, t, st, ta`` (DESIGN "State in Redis"). The
typed record writes exactly those fields, in that order, and reads entries
written that way, over real gRPC and a real Redis.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from roost.common.v1 import common_pb2

from services.core.events import StoredEvent
from services.core.store import events_key
from services.wingspan.service import SPEC as WINGSPAN
from tests.harness import ServerHandle, game_server
from tests.service_contract import Client

#: Entries as the earlier servicer wrote them (its event dict literals): the
#: creation event and a secret decision with its public label.
OLD_CREATION = {
    "s": "-1", "k": "new_game", "a": "[]", "l": "2-player game created", "x": "0", "p": "",
    "t": "1764600000000", "st": "IN_PROGRESS", "ta": "0,1",
}  # fmt: skip
OLD_SECRET = {
    "s": "0", "k": "keep_birds", "a": '[["birds",[]]]', "l": "Keep no birds", "x": "1",
    "p": "Seat 0 kept 2 cards", "t": "1764600000123", "st": "IN_PROGRESS", "ta": "1",
}  # fmt: skip


def test_the_record_writes_the_stored_fields_in_their_order() -> None:
    """An entry read and written again is byte for byte the entry stored."""
    for version, fields in ((1, OLD_CREATION), (2, OLD_SECRET)):
        record = StoredEvent.from_fields(version, fields)
        flat = record.fields()
        assert flat[0::2] == list(fields) and flat[1::2] == list(fields.values())


def test_a_secret_event_reads_as_its_public_label_to_other_seats() -> None:
    """Secret decisions: another seat reads the public label and no kind."""
    record = StoredEvent.from_fields(2, OLD_SECRET)
    assert record.seat == 0 and record.secret and record.to_act == (1,)
    theirs = record.to_proto(1)
    assert (theirs.redacted, theirs.kind, theirs.label) == (True, "", "Seat 0 kept 2 cards")
    mine = record.to_proto(0)
    assert (mine.redacted, mine.kind, mine.label) == (False, "keep_birds", "Keep no birds")
    assert mine.status == common_pb2.GAME_STATUS_IN_PROGRESS and mine.time_ms == 1764600000123


@pytest.fixture(scope="module")
def server(redis_server_url: str) -> Iterator[ServerHandle]:
    with game_server(WINGSPAN, redis_server_url) as handle:
        yield handle


@pytest.mark.service
def test_events_stored_by_the_earlier_servicer_read_through_getlog_and_watch(
    server: ServerHandle, redis_server_url: str
) -> None:
    """A game's stream as the earlier code wrote it: GetLog and Watch read
    every entry; the service's own writes have the same fields in the same
    order."""
    client = Client(server, WINGSPAN)
    created = client.new_game(2, seed=3)
    game_id = created.game_id
    tokens = {c.seat: c.token for c in created.credentials}
    client.apply(game_id, tokens[0], 1, action_id=0)
    raw = redis.Redis.from_url(redis_server_url)
    written = raw.xrange(events_key(game_id))
    assert [list(f) for _id, f in written] == [[k.encode() for k in OLD_CREATION]] * 2
    # The stream as the earlier servicer left it.
    raw.delete(events_key(game_id))
    raw.xadd(events_key(game_id), OLD_CREATION, id="1-0")
    raw.xadd(events_key(game_id), OLD_SECRET, id="2-0")
    other = client.log(game_id, tokens[1])
    assert [e.event.label for e in other.entries] == [
        "2-player game created",
        "Seat 0 kept 2 cards",
    ]
    assert other.entries[1].event.redacted and not other.entries[1].HasField("action")
    assert client.log(game_id, tokens[0]).entries[1].HasField("action")
    own = client.log(game_id, tokens[0]).entries[1]
    assert (own.event.kind, own.event.label, own.event.to_act) == (
        "keep_birds",
        "Keep no birds",
        [1],
    )
    stream = client.watch(game_id, None, from_version=0)
    seen = [next(stream).event for _ in range(2)]
    stream.cancel()
    assert [(e.version, e.seat, e.redacted) for e in seen] == [(1, -1, False), (2, 0, True)]

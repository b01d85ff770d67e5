"""The service bench's load generator reads a reply's version from its bytes: the
same number the generated parser reads, for every size of version."""

import pytest
from roost.common.v1 import common_pb2

from bench.service_apply import _reply_version
from services.undertheleaves.service import SPEC


@pytest.mark.parametrize("version", [1, 2, 127, 128, 300, 16_384, 2**40])
def test_the_version_read_from_the_reply_bytes_is_the_parsed_one(version: int) -> None:
    reply = (
        SPEC.messages.ApplyResponse(
            version=version,
            status=common_pb2.GAME_STATUS_IN_PROGRESS,
            to_act=[1],
            event={"version": version, "kind": "take_tile", "label": "Take a tile"},
        ).SerializeToString()
        + b"\x22\x02\x08\x01"
    )  # a view field after the head, as sent
    assert _reply_version(reply) == SPEC.messages.ApplyResponse.FromString(reply).version


def test_a_reply_without_its_version_first_is_refused() -> None:
    with pytest.raises(ValueError):
        _reply_version(b"")
    with pytest.raises(ValueError):
        _reply_version(b"\x10\x01")

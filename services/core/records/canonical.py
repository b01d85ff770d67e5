"""The canonical JSON form of a game record (docs/RECORDS.md).

Protobuf's JSON mapping with fixed options: field names as in the .proto
(snake_case), fields at their default value left out, enums by name, keys sorted, 64-bit
integers as strings (the mapping's rule), no
indentation (one record per line in a JSON Lines dump). The same record gives
the same bytes in every process.
"""

from __future__ import annotations

from google.protobuf import json_format
from roost.common.v1 import record_pb2


def to_json(record: record_pb2.GameRecord) -> str:
    """The record's canonical JSON text (one line)."""
    return json_format.MessageToJson(
        record, preserving_proto_field_name=True, indent=None, ensure_ascii=False, sort_keys=True
    )


def from_json(text: str) -> record_pb2.GameRecord:
    """A record from JSON (canonical or any protobuf JSON form of it)."""
    return json_format.Parse(text, record_pb2.GameRecord())

"""Protobuf wire-format helpers for replies written as bytes (varints, length-delimited fields)."""

from __future__ import annotations

SMALL_VARINTS = [bytes([n]) for n in range(128)]


def varint(value: int) -> bytes:
    """Protobuf base-128 varint of a non-negative int."""
    if value < 128:
        return SMALL_VARINTS[value]
    out = bytearray()
    while value >= 128:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def field_wire(field_number: int, data: bytes) -> bytes:
    """``data`` (a serialized message) as message field ``field_number``."""
    return varint(field_number << 3 | 2) + varint(len(data)) + data

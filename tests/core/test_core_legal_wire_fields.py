"""Tripwire: the hand-written legal-list bytes write every field of
``ActionRef`` and ``LegalAction``.

``ActionCodec.legal_wire`` writes the entries of a legal list byte by byte, not
through the protobuf serializer, so a field added to either message would
silently never reach a client. The fields it writes are declared next to it
(``LEGAL_WIRE_WRITES``, with the ones filled elsewhere in
``LEGAL_WIRE_LEFT_OUT``); these tests fail when the protos and that
declaration part, and when the bytes carry a field the declaration omits.
"""

from __future__ import annotations

import importlib

import pytest
from roost import games as identities
from roost.common.v1 import common_pb2

from services.core.convert import LEGAL_WIRE_LEFT_OUT, LEGAL_WIRE_WRITES, ActionCodec

GAMES = [g.name for g in identities.GAMES]


def _fields(descriptor) -> dict[int, str]:
    return {field.number: field.name for field in descriptor.fields}


def test_action_ref_has_only_fields_the_bytes_write() -> None:
    """roost.common.v1.ActionRef: every field is written by the legal-list bytes."""
    declared = {**LEGAL_WIRE_WRITES["ActionRef"], **LEGAL_WIRE_LEFT_OUT.get("ActionRef", {})}
    assert _fields(common_pb2.ActionRef.DESCRIPTOR) == declared


@pytest.mark.parametrize("game", GAMES)
def test_legal_action_has_only_fields_the_bytes_write(game: str) -> None:
    """Each game's LegalAction: every field is written by the bytes or declared as
    filled elsewhere (score_after); its ref is the common ActionRef."""
    messages = importlib.import_module(f"roost.{game}.v1.service_pb2")
    descriptor = messages.LegalAction.DESCRIPTOR
    declared = {**LEGAL_WIRE_WRITES["LegalAction"], **LEGAL_WIRE_LEFT_OUT["LegalAction"]}
    assert _fields(descriptor) == declared
    assert descriptor.fields_by_name["ref"].message_type is common_pb2.ActionRef.DESCRIPTOR


@pytest.mark.parametrize("game", GAMES)
def test_the_bytes_carry_exactly_the_declared_fields(game: str) -> None:
    """Entries of a real opening legal list, parsed back, carry the declared fields
    (``id`` is left out at index 0, as the serializer leaves out a zero)."""
    service = importlib.import_module(f"services.{game}.service").SPEC
    engine = service.engine
    state = engine.setup(engine.max_players, {}, 3)
    seat = engine.to_act(state)[0]
    actions = engine.legal(state, seat)[:3]
    assert len(actions) >= 2
    codec = ActionCodec(service.types.Action)
    response = service.messages.LegalResponse.FromString(codec.legal_wire(2, actions))
    writes = LEGAL_WIRE_WRITES
    for entry in response.actions:
        assert {f.number for f, _ in entry.ListFields()} == set(writes["LegalAction"])
        ref_fields = {f.number for f, _ in entry.ref.ListFields()}
        expected = set(writes["ActionRef"])  # the id too, 0 included (explicit presence)
        if not entry.ref.label:
            expected.discard(2)
        assert ref_fields == expected

"""A protobuf message as the plain values an engine's ``view`` returns.

Engines describe a view as a dict whose keys are the fields of the game's
``View`` message, with enum values as their names (``"PHASE_PLAY"``) and
nested messages as dicts. :func:`to_values` inverts the service's conversion:
every field is present (defaults included), repeated fields are lists, enums
are their value names. The search bots' builders read views in this form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

_MESSAGE = FieldDescriptor.TYPE_MESSAGE
_ENUM = FieldDescriptor.TYPE_ENUM


def to_values(message: Message) -> dict[str, Any]:
    """Every field of ``message`` as plain values (see the module docstring)."""
    out: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        value = getattr(message, field.name)
        if field.type == _MESSAGE:
            if field.message_type.GetOptions().map_entry:
                out[field.name] = dict(value)
            elif field.is_repeated:
                out[field.name] = [to_values(item) for item in value]
            else:
                out[field.name] = to_values(value)
        elif field.type == _ENUM:
            names = field.enum_type.values_by_number
            if field.is_repeated:
                out[field.name] = [names[v].name if v in names else v for v in value]
            else:
                out[field.name] = names[value].name if value in names else value
        elif field.is_repeated:
            out[field.name] = list(value)
        else:
            out[field.name] = value
    return out


def action_values(action: Message) -> tuple[str, dict[str, Any]]:
    """A typed ``Action`` message as (kind, args): the oneof's set field and its fields."""
    kind = action.WhichOneof("kind")
    if kind is None:
        return "", {}
    return kind, to_values(getattr(action, kind))


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def same_actions(engine_actions: Sequence[Any], server_actions: Sequence[Any]) -> bool:
    """True when the engine's legal list equals the server's: same length and,
    in order, the same kind and arguments (labels are not compared)."""
    if len(engine_actions) != len(server_actions):
        return False
    for mine, theirs in zip(engine_actions, server_actions, strict=True):
        kind, args = action_values(theirs.action)
        if kind != mine.kind or args != {k: _plain(v) for k, v in mine.args}:
            return False
    return True

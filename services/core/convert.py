"""Conversions between engine values and protobuf messages.

The engine contract keeps views and actions as plain Python values whose names
match the game's ``View`` and ``Action`` messages, so one converter serves every
game. Actions convert field by field through the message descriptors (cached
per action kind); views go to the generated constructor as they are. For the
Apply reply, :meth:`ActionCodec.legal_wire` (and
:class:`~services.core.view_wire.ViewWire`, for views) write wire bytes
directly, reusing the bytes of unchanged legal entries and view parts.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from roost.common.v1 import common_pb2

from services.core.engine import Action, OptionError, ScoreBoard, SoloResult, jsonstate
from services.core.wire import varint as _varint

_ENUM = FieldDescriptor.TYPE_ENUM


class _KindCodec:
    """Converts the args of one action kind to and from its sub-message."""

    __slots__ = (
        "enum_by_name",
        "enum_by_number",
        "enum_types",
        "fields",
        "message_class",
        "repeated",
    )

    def __init__(self, message_class: type[Message]) -> None:
        self.message_class = message_class
        descriptor = message_class.DESCRIPTOR
        self.fields = [f.name for f in descriptor.fields]
        self.repeated = {f.name for f in descriptor.fields if f.is_repeated}
        self.enum_by_name: dict[str, dict[str, int]] = {}
        self.enum_by_number: dict[str, dict[int, str]] = {}
        #: enum field name -> the enum's full name (for error messages)
        self.enum_types: dict[str, str] = {}
        for f in descriptor.fields:
            if f.type == _ENUM:
                self.enum_by_name[f.name] = {v.name: v.number for v in f.enum_type.values}
                self.enum_by_number[f.name] = {v.number: v.name for v in f.enum_type.values}
                self.enum_types[f.name] = f.enum_type.full_name

    def unknown_enum(self, message: Message) -> tuple[str, int] | None:
        """The first enum field of ``message`` holding a number its enum does not
        define (proto3 enums are open: such a number parses), and that number."""
        for name, known in self.enum_by_number.items():
            value = getattr(message, name)
            for number in value if name in self.repeated else (value,):
                if number not in known:
                    return name, number
        return None

    def build(self, args: tuple[tuple[str, Any], ...]) -> Message:
        values: dict[str, Any] = {}
        for name, value in args:
            enum_map = self.enum_by_name.get(name)
            if enum_map is not None:
                value = [enum_map[v] for v in value] if name in self.repeated else enum_map[value]
            values[name] = value
        return self.message_class(**values)

    def read(self, message: Message) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in self.fields:
            value = getattr(message, name)
            enum_map = self.enum_by_number.get(name)
            if name in self.repeated:
                value = tuple(enum_map[v] for v in value) if enum_map else tuple(value)
            elif enum_map is not None:
                value = enum_map.get(value, str(value))
            values[name] = value
        return values


#: An action's wire cache in one codec: (the action, its three entry heads). Equal
#: actions share one. See :meth:`ActionCodec.legal_wire`.
_Entries = tuple[Action, tuple[bytes, bytes, bytes]]

#: Actions the codec finds by identity, at most (then it starts afresh).
_BY_ID_LIMIT = 50_000

#: Ids written from a table (below 16,384 an id's varint takes at most two bytes,
#: which is what an entry's heads allow for); longer lists are built whole.
_ID_TABLE_SIZE = 4096

#: The varint of each id below ``_ID_TABLE_SIZE``, 0 included (``ActionRef.id``
#: has explicit presence: it is always written); shared by every codec.
_ID_VARINTS: list[bytes] = []


class ActionCodec:
    """Typed ``Action`` messages of one game ⇄ engine :class:`Action` values."""

    def __init__(self, action_class: type[Message]) -> None:
        self.action_class = action_class
        oneof = action_class.DESCRIPTOR.oneofs_by_name["kind"]
        self.kinds: dict[str, _KindCodec] = {
            f.name: _KindCodec(_message_class_of(action_class, f.name)) for f in oneof.fields
        }
        #: action -> its entry heads for this codec (see ``_Entries``).
        self._entries: dict[Action, _Entries] = {}
        #: label -> the entries of the last action seen with that label: a new
        #: action finds an equal one's heads through its label (a string keeps its
        #: hash; ``Action.__hash__`` is Python).
        self._by_label: dict[str, _Entries] = {}
        #: id(action) -> its three heads and the action itself: the lookup of every
        #: entry of a legal list. Holding the action keeps its id from being reused
        #: while the entry lives.
        self._by_id: dict[int, tuple[bytes, bytes, bytes, Action]] = {}

    def to_proto(self, action: Action) -> Message:
        """The typed message of an engine action."""
        sub = self.kinds[action.kind].build(action.args)
        return self.action_class(**{action.kind: sub})

    def legal_wire(self, field_number: int, actions: list[Action]) -> bytes:
        """The wire encoding of ``repeated LegalAction <field> = field_number``
        holding ``actions`` (id = index), to append to a serialized response.

        Legal lists run to hundreds of entries, so an entry is two cached pieces:
        the action's *head* and the id's varint, from one table shared by every
        codec. The head holds the entry's length, the ``action`` field, then the
        ``ref`` field (its length, label, kind and the id's tag), so the id comes
        last: the entry is ``{action, ref: {label, kind, id}}``, each field once,
        in an order that differs from the serializer's (field 2 before field 1,
        the id after the label), which every protobuf parser accepts, and parses
        to exactly the message the serializer would write. The index reaches the
        head only through the id's size (one varint byte below 128, id 0
        included since ``ActionRef.id`` has explicit presence; two below
        16,384), so an action has three heads in this codec's table, found by the
        action's identity (engines hand out the same action objects again; the
        table holds the action, so its id stays its own). Nothing is kept per
        index, nor on the action.
        """
        count = len(actions)
        if not count:
            return b""
        if count > _ID_TABLE_SIZE:
            return self._long_list(field_number, actions)
        by_id = self._by_id
        try:
            heads = [by_id[id(actions[0])][0]]
            heads += [by_id[id(action)][1] for action in actions[1:128]]
            if count > 128:
                heads += [by_id[id(action)][2] for action in actions[128:]]
        except KeyError:  # an action without heads here yet
            heads = self._heads(actions)
        parts = [_varint(field_number << 3 | 2)] * (3 * count)
        parts[1::3] = heads
        parts[2::3] = _ID_VARINTS[:count]
        return b"".join(parts)

    def _heads(self, actions: list[Action]) -> list[bytes]:
        """Each action's head for its index, found (or built) and kept. An action
        without heads here finds those of an equal action through its label (a
        string keeps its hash: no call of ``Action.__hash__``), else through the
        action itself; a new action costs one small message build."""
        out = []
        by_id = self._by_id
        for index, action in enumerate(actions):
            known = by_id.get(id(action))
            if known is None:
                heads = self._entries_of(action)[1]
                if len(by_id) >= _BY_ID_LIMIT:  # engines that build fresh actions
                    by_id.clear()
                by_id[id(action)] = (*heads, action)
            else:
                heads = known
            out.append(heads[0 if index == 0 else 1 if index < 128 else 2])
        return out

    def _long_list(self, field_number: int, actions: list[Action]) -> bytes:
        """A list longer than the id table: every entry built whole."""
        out = []
        for index, action in enumerate(actions):
            ref_tail, action_field = self._pieces(action)
            ref = b"\x08" + _varint(index) + ref_tail
            item = b"\x0a" + _varint(len(ref)) + ref + action_field
            out.append(_varint(len(item)) + item)
        tag = _varint(field_number << 3 | 2)
        return tag + tag.join(out)

    def _entries_of(self, action: Action) -> _Entries:
        """The entry heads of ``action`` (or of an equal one), kept in the table."""
        by_label = self._by_label
        known = by_label.get(action.label)
        if known is None or (known[0] is not action and known[0] != action):
            if len(self._entries) > 50_000:
                self._entries.clear()
                by_label.clear()
                self._by_id.clear()
            known = self._entries.get(action)
            if known is None:
                known = self._entries[action] = (action, _entry_heads(*self._pieces(action)))
        by_label[action.label] = known
        return known

    def _pieces(self, action: Action) -> tuple[bytes, bytes]:
        """The wire bytes of an action's ``ActionRef`` without its id (label,
        kind), and of its ``LegalAction.action`` field."""
        label, kind = action.label.encode(), action.kind.encode()
        ref_tail = b""
        if label:
            ref_tail += b"\x12" + _varint(len(label)) + label
        ref_tail += b"\x1a" + _varint(len(kind)) + kind
        body = self.to_proto(action).SerializeToString()
        return ref_tail, b"\x12" + _varint(len(body)) + body

    def fill_legal(self, container: Any, actions: list[Action]) -> None:
        """Append one ``LegalAction`` per action (id = index) to a repeated field
        (the reference for :meth:`legal_wire`, kept for tests)."""
        for index, action in enumerate(actions):
            entry = container.add(ref={"id": index, "label": action.label, "kind": action.kind})
            entry.action.CopyFrom(self.to_proto(action))

    def kind_of(self, message: Message) -> str | None:
        """The oneof field set in ``message`` (None when empty)."""
        return message.WhichOneof("kind")

    def invalid_field(self, message: Message) -> tuple[str, str] | None:
        """Why a typed action cannot name any decision, as (field path below
        the action, description): an enum field holding a number its enum does
        not define. None when every value is one the proto defines."""
        kind = message.WhichOneof("kind")
        if kind is None:
            return None
        codec = self.kinds[kind]
        found = codec.unknown_enum(getattr(message, kind))
        if found is None:
            return None
        name, number = found
        return f"{kind}.{name}", f"{number} is not a value of {codec.enum_types[name]}"

    def matches(self, message: Message, candidate: Action) -> bool:
        """True when ``message`` names exactly the decision ``candidate``."""
        kind = message.WhichOneof("kind")
        if kind != candidate.kind:
            return False
        codec = self.kinds[kind]
        values = codec.read(getattr(message, kind))
        engine_args = dict(candidate.args)
        for name, value in values.items():
            expected = engine_args.get(name)
            if expected is None:
                if value not in (0, "", False, ()):
                    return False
                continue
            if isinstance(expected, list):
                expected = tuple(expected)
            if value != expected:
                return False
        return True

    def from_args_json(self, kind: str, args_json: str) -> Message:
        """Rebuild a typed action from the args stored in the event log."""
        pairs = tuple((name, _freeze(value)) for name, value in json.loads(args_json))
        return self.to_proto(Action(kind, pairs))


_ID_VARINTS.extend(_varint(index) for index in range(_ID_TABLE_SIZE))


#: Every field the hand-written legal-list bytes (``ActionCodec.legal_wire``,
#: ``_long_list``, ``_pieces`` and ``_entry_heads``) write, by message and field
#: number: ``ActionRef`` in the common package, and ``LegalAction`` in every
#: game's service package. A field added to either must be written there and
#: listed here (or listed in ``LEGAL_WIRE_LEFT_OUT``);
#: tests/core/test_core_legal_wire_fields.py fails until it is.
LEGAL_WIRE_WRITES: dict[str, dict[int, str]] = {
    "ActionRef": {1: "id", 2: "label", 3: "kind"},
    "LegalAction": {1: "ref", 2: "action"},
}

#: Fields the legal-list bytes leave out on purpose, and who fills them.
LEGAL_WIRE_LEFT_OUT: dict[str, dict[int, str]] = {
    # Only with LegalRequest.with_score_preview, set by GameServicer.Legal on the
    # parsed response after the bytes are merged.
    "LegalAction": {3: "score_after"},
}


def _entry_heads(ref_tail: bytes, action_field: bytes) -> tuple[bytes, bytes, bytes]:
    """A ``LegalAction`` entry's heads (see ``ActionCodec.legal_wire``) for id 0,
    for an id of one varint byte and for one of two: each is the entry's length,
    its ``action`` field, then its ``ref`` field up to the id's varint (id 0 is
    written too: ``ActionRef.id`` has explicit presence)."""

    def head(id_size: int) -> bytes:  # the bytes of the id field: its tag and varint
        ref_size = len(ref_tail) + id_size
        item_size = len(action_field) + 1 + len(_varint(ref_size)) + ref_size
        ref_start = b"\x0a" + _varint(ref_size) + ref_tail + b"\x08"
        return _varint(item_size) + action_field + ref_start

    one_byte = head(2)
    return (one_byte, one_byte, head(3))


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _message_class_of(parent: type[Message], field_name: str) -> type[Message]:
    """The generated class of a message-typed field."""
    return type(getattr(parent(), field_name))


def args_to_json(action: Action) -> str:
    """Compact JSON of an action's args (``[[name, value], ...]``), for the event log."""
    return jsonstate.dumps(action.args).decode()


def view_to_proto(view: dict[str, Any], view_class: type[Message]) -> Message:
    """The typed view message of an engine view.

    The generated constructor takes the nested dicts and lists as they are
    (sub-messages as dicts, enums by value name) and builds the whole tree in
    C: about 2.5 times faster than filling it field by field from Python, and
    an unknown key still raises ``ValueError``. Response messages take a view
    dict the same way (``ApplyResponse(view=...)``), so a view is never
    built twice and copied.
    """
    return view_class(**view)


def view_to_proto_reference(view: dict[str, Any], view_class: type[Message]) -> Message:
    """The same conversion through ``json_format.ParseDict`` (the reference, for tests)."""
    return json_format.ParseDict(view, view_class())


def options_from_proto(options: Message) -> dict[str, Any]:
    """Options that were set (presence-tracked scalars, non-empty repeated).
    An enum option holding a number its enum does not define raises
    :class:`OptionError` naming the field."""
    result: dict[str, Any] = {}
    for field in options.DESCRIPTOR.fields:
        if field.is_repeated:
            values = list(getattr(options, field.name))
            if values:
                result[field.name] = values
        elif field.has_presence and options.HasField(field.name):
            value = getattr(options, field.name)
            if field.type == _ENUM:
                known = field.enum_type.values_by_number.get(value)
                if known is None:
                    raise OptionError(
                        field.name, f"{value} is not a value of {field.enum_type.full_name}"
                    )
                value = known.name
            result[field.name] = value
    return result


def scoreboard_to_proto(board: ScoreBoard) -> common_pb2.ScoreBoard:
    """The common score board message."""
    return common_pb2.ScoreBoard(
        seats=[
            common_pb2.SeatScore(
                seat=s.seat,
                total=s.total,
                categories=[
                    common_pb2.ScoreCategory(name=n, points=p) for n, p in s.categories.items()
                ],
                tiebreak=list(s.tiebreak),
                rank=s.rank,
            )
            for s in board.seats
        ],
        final=board.final,
        winners=board.winners,
        extras=board.extras,
        solo=_solo_to_proto(board.solo),
    )


def _solo_to_proto(solo: SoloResult | None) -> common_pb2.SoloResult | None:
    """The solo outcome message (None outside solo games)."""
    if solo is None:
        return None
    return common_pb2.SoloResult(
        won=solo.won,
        opponent_score=solo.opponent_score,
        targets=list(solo.targets),
        target_reached=solo.target_reached,
    )

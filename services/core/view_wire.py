"""The view of an Apply reply written as wire bytes, reusing unchanged parts.

:class:`ViewWire` keeps the serialized bytes of each part of the views it has
encoded (opted in per game by ``GameSpec.view_parts_are_values``), so an Apply
re-serializes only what changed since the view before it.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from services.core.wire import varint as _varint

#: Elements a part remembers by identity, at most (then it starts afresh).
RECENT_PER_PART = 1024
#: The same bound for views whose parts recur by identity (``ViewWire(shared=True)``):
#: identity is then the only reuse, so it holds the parts of a few thousand games.
SHARED_PER_PART = 8192


#: A message's kept parts: field name -> (the list the field held, and per
#: element: its dict, its bytes as that field, the element's own kept parts).
Kept = dict[str, tuple[list[Any], list[tuple[Any, bytes, "Kept"]]]]
_NOTHING: tuple[list[Any], list[tuple[Any, bytes, Kept]]] = ([], [])


class _Part:
    """A repeated message field of a view message (at any depth): its tag, its
    element class, the element's own repeated message fields, and the bytes of
    elements built lately, by identity (engines share read-only dicts for what
    recurs: a market slot, a tile's printed spaces)."""

    __slots__ = ("limit", "message_class", "parts", "recent", "tag")

    def __init__(self, field: Any, limit: int) -> None:
        self.tag = _varint(field.number << 3 | 2)
        self.message_class = GetMessageClass(field.message_type)
        self.parts = _parts_of(field.message_type, limit)
        self.limit = limit
        #: id(element dict) -> (that dict, its bytes as this field); the dict is
        #: held, so its id cannot be reused while the entry lives.
        self.recent: dict[int, tuple[Any, bytes]] = {}

    def remember(self, item: Any, chunk: bytes) -> None:
        """Keep ``chunk`` as the bytes of ``item`` (forgetting all at the bound)."""
        recent = self.recent
        if len(recent) >= self.limit:
            recent.clear()
        recent[id(item)] = (item, chunk)


def _parts_of(descriptor: Any, limit: int = RECENT_PER_PART) -> dict[str, _Part]:
    """The repeated message fields (not maps) of a message type."""
    return {
        f.name: _Part(f, limit)
        for f in descriptor.fields
        if f.is_repeated
        and f.message_type is not None
        and not f.message_type.GetOptions().map_entry
    }


def _encode(
    message_class: type[Message],
    parts: dict[str, _Part],
    value: dict[str, Any],
    before: Kept,
    kept: Kept,
) -> bytes:
    """A message's bytes: its other fields through the generated constructor,
    then its repeated message fields element by element, reusing the bytes of
    an element equal to the one at its index in ``before`` or built lately
    (the very dict), and building the others (their own parts likewise,
    against the element they replace). The parts used are recorded in
    ``kept``. A parser takes fields in any order, so the result parses to
    exactly ``message_class(**value)``."""
    rest: dict[str, Any] = {}
    chunks: list[bytes] = []
    for name, field_value in value.items():
        part = parts.get(name)
        if part is None:
            rest[name] = field_value
            continue
        old_list, old = before.get(name, _NOTHING)
        if field_value is old_list:  # the very list as before: all its bytes hold
            kept[name] = (old_list, old)
            chunks += [entry[1] for entry in old]
            continue
        now: list[tuple[Any, bytes, Kept]] = []
        for index, item in enumerate(field_value):
            if index < len(old):
                previous = old[index]
                # `is` first: a dict's == looks up every key, even against itself.
                if previous[0] is item or previous[0] == item:
                    now.append(previous)
                    chunks.append(previous[1])
                    continue
            sub: Kept = {}
            if part.parts and index < len(old) and _continues(part, old[index][0], item):
                data = _encode(part.message_class, part.parts, item, old[index][2], sub)
                chunk = part.tag + _varint(len(data)) + data
            else:  # nothing to reuse inside: one build in C, unless built lately
                seen = part.recent.get(id(item))
                if seen is not None and seen[0] is item:
                    chunk = seen[1]
                else:
                    data = part.message_class(**item).SerializeToString()
                    chunk = part.tag + _varint(len(data)) + data
                    part.remember(item, chunk)
            now.append((item, chunk, sub))
            chunks.append(chunk)
        kept[name] = (field_value, now)
    return message_class(**rest).SerializeToString() + b"".join(chunks)


def _encode_shared(
    message_class: type[Message], parts: dict[str, _Part], value: dict[str, Any]
) -> bytes:
    """A message's bytes when its parts recur by identity: each element of a
    repeated message field is the very dict built lately (its bytes reused) or
    is new (built: its own parts again reused or built). No per-game memory."""
    rest: dict[str, Any] = {}
    chunks: list[bytes] = []
    for name, field_value in value.items():
        part = parts.get(name)
        if part is None:
            rest[name] = field_value
            continue
        recent = part.recent
        for item in field_value:
            seen = recent.get(id(item))
            if seen is not None and seen[0] is item:
                chunks.append(seen[1])
                continue
            if part.parts:
                data = _encode_shared(part.message_class, part.parts, item)
            else:
                data = part.message_class(**item).SerializeToString()
            chunk = part.tag + _varint(len(data)) + data
            part.remember(item, chunk)
            chunks.append(chunk)
    return message_class(**rest).SerializeToString() + b"".join(chunks)


def _continues(part: _Part, before: dict[str, Any], item: dict[str, Any]) -> bool:
    """Whether ``item`` looks like a later state of ``before`` (a garden that
    grew, not a market slot now holding another tile): the first element of its
    first non-empty repeated part is unchanged. Only then is building it part by
    part worth more than one build of the whole in C."""
    for name in part.parts:
        old = before.get(name)
        if old:
            new = item.get(name)
            return bool(new) and old[0] == new[0]
    return False


class ViewWire:
    """Wire bytes of one game's ``View``, reusing the bytes of parts that did
    not change since the game's previous view.

    The parts are the elements of repeated message fields, at any depth (the
    gardens, boards and player areas that make up most of a view, and the
    tiles, cards and pieces inside them). Each game keeps its last view's
    parts with their bytes; an element equal to the one at its index last time
    (a deep ``==`` in C, fast when unchanged parts share their sub-dicts), or
    that is the very dict built lately anywhere (a market slot, a card), reuses
    its bytes; any other is built, its own parts again reused or built against
    the element it replaces: a garden that gained a tile costs the new tile, not
    all of them. Only for engines whose view values never alias
    their mutable state and never change once handed out
    (``GameSpec.view_parts_are_values``, checked per game by
    ``tests/view_values.py``): a kept dict must not change behind the cache's back.

    With ``shared=True``, for engines that hand out the very same dict for every
    part that did not change (``GameSpec.view_parts_shared``), identity is the
    only reuse: no per-game memory to keep, walk and replace (``kept`` is then
    not used), and a part any game built lately serves every game.
    """

    def __init__(self, view_class: type[Message], *, shared: bool = False) -> None:
        self.view_class = view_class
        self.shared = shared
        #: The View's repeated message fields by name.
        self.parts: dict[str, _Part] = _parts_of(
            view_class.DESCRIPTOR, SHARED_PER_PART if shared else RECENT_PER_PART
        )

    def encode(self, view: dict[str, Any], kept: Kept | None = None) -> bytes:
        """The serialized View of ``view``; ``kept`` holds the game's parts from
        its previous view and is replaced in place by this view's (unless shared)."""
        if self.shared:
            return _encode_shared(self.view_class, self.parts, view)
        assert kept is not None, "a ViewWire that is not shared needs the game's kept parts"
        before = dict(kept)
        kept.clear()
        return _encode(self.view_class, self.parts, view, before, kept)

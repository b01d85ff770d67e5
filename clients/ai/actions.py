"""Fixed, discrete action spaces: every legal action of a game as one integer.

A game's space is built from its protobuf ``Action`` message (the ``oneof
kind``, in field-number order, and each kind's fields in order) and a table of
value domains per game (:mod:`clients.ai.domains`). Each kind owns a block of
indices; inside it an action's index is the mixed-radix number of its argument
values, each value's position in its field's domain:

    index = offset(kind) + sum(position(arg_i) * stride_i)

A field is one of:

* :class:`Values` -- a fixed tuple of values (enum names from the descriptor,
  card ids from the game's catalogue, an integer range, ``(False, True)``);
* :class:`Subset` -- a repeated field read as a bit mask over a fixed tuple
  (bit ``i`` set when ``values[i]`` is in the list);
* :class:`Among` -- a repeated field read as a bit mask over the items offered
  *now*: the sorted union of that field's items over the legal actions of that
  kind (Wingspan's birds kept at setup are a subset of the five dealt);
* :class:`Same` -- a field every legal action of the kind shares (Under the
  Leaves' dweller card: one card is placed at a time); it takes no room, and
  the space checks that no two legal actions then share an index;
* :class:`Counts` -- several integer fields read together as one composition
  (Wingspan's food payment: five counts with a bounded total).

The mapping is fixed by the game and the player count, never by the legal
list, except for :class:`Among` fields, whose positions depend on the items
offered. Going back from an index needs the legal list: :meth:`ActionSpace.decode`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.core.engine import Action


class ActionCodeError(ValueError):
    """An action falls outside the game's fixed space (a domain table out of date)."""


@dataclass(frozen=True)
class Values:
    """One field whose value is one of ``values``."""

    values: tuple[Any, ...]

    @property
    def size(self) -> int:
        return len(self.values)

    def position(self, value: Any, context: Any = None) -> int:
        try:
            return self._positions[value]
        except KeyError:
            raise ActionCodeError(f"value {value!r} is not in the domain") from None

    def __post_init__(self) -> None:
        object.__setattr__(self, "_positions", {v: i for i, v in enumerate(self.values)})


@dataclass(frozen=True)
class Subset:
    """A repeated field as a bit mask over ``values``."""

    values: tuple[Any, ...]

    @property
    def size(self) -> int:
        return 1 << len(self.values)

    def position(self, value: Sequence[Any], context: Any = None) -> int:
        mask = 0
        for item in value:
            if item not in self.values:
                raise ActionCodeError(f"item {item!r} is not in the domain")
            mask |= 1 << self.values.index(item)
        return mask


@dataclass(frozen=True)
class Among:
    """A repeated field as a bit mask over the items offered now (at most ``width``)."""

    width: int

    @property
    def size(self) -> int:
        return 1 << self.width

    def position(self, value: Sequence[Any], context: tuple[Any, ...] | None = None) -> int:
        if context is None:
            raise ActionCodeError("an Among field needs the legal list")
        mask = 0
        for item in value:
            mask |= 1 << context.index(item)
        return mask


@dataclass(frozen=True)
class Same:
    """A field shared by every legal action of its kind: no room in the index."""

    size: int = 1

    def position(self, value: Any, context: Any = None) -> int:
        return 0


@dataclass(frozen=True)
class Counts:
    """Several integer fields together: every tuple of counts with total <= ``total``."""

    fields: tuple[str, ...]
    total: int

    def __post_init__(self) -> None:
        tuples = [
            t
            for t in itertools.product(range(self.total + 1), repeat=len(self.fields))
            if sum(t) <= self.total
        ]
        object.__setattr__(self, "_positions", {t: i for i, t in enumerate(tuples)})
        object.__setattr__(self, "tuples", tuple(tuples))

    @property
    def size(self) -> int:
        return len(self._positions)

    def position(self, value: tuple[int, ...], context: Any = None) -> int:
        try:
            return self._positions[value]
        except KeyError:
            raise ActionCodeError(f"counts {value!r} exceed a total of {self.total}") from None


Part = Values | Subset | Among | Same | Counts


@dataclass(frozen=True)
class KindCode:
    """The block of one action kind: its offset and its parts in order."""

    kind: str
    offset: int
    names: tuple[tuple[str, ...], ...]
    parts: tuple[Part, ...]
    strides: tuple[int, ...]
    size: int

    @property
    def contextual(self) -> bool:
        """Its index depends on the legal list (an Among part)."""
        return any(isinstance(p, Among) for p in self.parts)

    @property
    def plain(self) -> bool:
        """One-to-one on the arguments (no Same or Among part): kept per action."""
        return not any(isinstance(p, Among | Same) for p in self.parts)


class ActionSpace:
    """The fixed discrete space of one game and player count (module docstring)."""

    def __init__(
        self, game: str, kinds: Sequence[tuple[str, Sequence[tuple[tuple[str, ...], Part]]]]
    ):
        self.game = game
        codes: dict[str, KindCode] = {}
        offset = 0
        for kind, fields in kinds:
            names = tuple(n for n, _ in fields)
            parts = tuple(p for _, p in fields)
            strides = []
            size = 1
            for part in reversed(parts):
                strides.append(size)
                size *= part.size
            codes[kind] = KindCode(kind, offset, names, parts, tuple(reversed(strides)), size)
            offset += size
        self.codes = codes
        #: How many indices the space has (``Discrete(n)``).
        self.n = offset
        self._cache: dict[Action, int] = {}

    def block(self, kind: str) -> range:
        """The indices of one kind."""
        code = self.codes[kind]
        return range(code.offset, code.offset + code.size)

    def kind_of(self, index: int) -> str:
        """The action kind an index belongs to."""
        for code in self.codes.values():
            if code.offset <= index < code.offset + code.size:
                return code.kind
        raise ActionCodeError(f"index {index} is outside 0..{self.n - 1}")

    def _index(self, kind: str, args: dict[str, Any], contexts: dict[str, Any]) -> int:
        try:
            code = self.codes[kind]
        except KeyError:
            raise ActionCodeError(f"{self.game} has no action kind {kind!r}") from None
        index = code.offset
        for names, part, stride in zip(code.names, code.parts, code.strides, strict=True):
            if isinstance(part, Counts):
                value: Any = tuple(args[n] for n in names)
            else:
                value = args[names[0]]
            context = contexts.get((kind, names[0])) if isinstance(part, Among) else None
            index += part.position(value, context) * stride
        return index

    def index(self, action: Action, legal: Sequence[Action] | None = None) -> int:
        """The index of ``action`` (``legal``: the list it belongs to, for Among fields)."""
        cached = self._cache.get(action)
        if cached is not None:
            return cached
        code = self.codes.get(action.kind)
        if code is not None and code.contextual:
            among = list(legal) if legal is not None else [action]
            return self.indices(among)[among.index(action)]
        index = self._index(action.kind, dict(action.args), {})
        if code.plain and len(self._cache) < 200_000:
            self._cache[action] = index
        return index

    def indices(self, legal: Sequence[Action]) -> list[int]:
        """The index of every action of a legal list, in order; they are distinct.

        Indices of kinds made of Values, Subset and Counts parts only are kept per
        action: they are one-to-one on the action's arguments, so a list of such
        actions (distinct by the engine's contract) needs no further check. A list
        with Same or Among kinds is checked for two actions sharing an index."""
        cache = self._cache
        out = [cache.get(action) for action in legal]
        if None not in out:
            return out
        contexts: dict[Any, tuple[Any, ...]] | None = None
        for position, index in enumerate(out):
            if index is not None:
                continue
            action = legal[position]
            code = self.codes.get(action.kind)
            if code is not None and code.contextual:
                if contexts is None:
                    contexts = self._contexts(legal)
                out[position] = self._index(action.kind, dict(action.args), contexts)
            else:
                out[position] = self.index(action)
        if len(set(out)) != len(out):
            raise ActionCodeError(f"two legal actions of {self.game} share an index")
        return out

    def _contexts(self, legal: Sequence[Action]) -> dict[Any, tuple[Any, ...]]:
        """For every Among field, the sorted union of its items over ``legal``."""
        unions: dict[Any, set[Any]] = {}
        for action in legal:
            code = self.codes.get(action.kind)
            if code is None or not code.contextual:
                continue
            args = dict(action.args)
            for names, part in zip(code.names, code.parts, strict=True):
                if isinstance(part, Among):
                    unions.setdefault((action.kind, names[0]), set()).update(args[names[0]])
        out = {}
        for key, items in unions.items():
            ordered = tuple(sorted(items))
            width = next(
                p.width
                for n, p in zip(self.codes[key[0]].names, self.codes[key[0]].parts, strict=True)
                if n[0] == key[1]
            )
            if len(ordered) > width:
                raise ActionCodeError(f"{key} offers {len(ordered)} items, more than {width}")
            out[key] = ordered
        return out

    def decode(self, index: int, legal: Sequence[Action]) -> Action:
        """The legal action with this index (``ActionCodeError`` if none has it)."""
        for action, i in zip(legal, self.indices(legal), strict=True):
            if i == index:
                return action
        raise ActionCodeError(f"index {index} is not a legal action now")

    def describe(self, index: int) -> str:
        """A human description of an index: its kind and argument positions."""
        kind = self.kind_of(index)
        code = self.codes[kind]
        rest = index - code.offset
        out = []
        for names, part, stride in zip(code.names, code.parts, code.strides, strict=True):
            position, rest = divmod(rest, stride)
            if isinstance(part, Values):
                out.append(f"{names[0]}={part.values[position]!r}")
            elif isinstance(part, Counts):
                out.append(f"{','.join(names)}={part.tuples[position]}")
            elif isinstance(part, Subset):
                chosen = [v for i, v in enumerate(part.values) if position >> i & 1]
                out.append(f"{names[0]}={chosen}")
            elif isinstance(part, Among):
                out.append(f"{names[0]}=mask {position:#b} over the offered items")
        return f"{kind}({', '.join(out)})"

"""The value domains of every game's action fields, and the spaces built from them.

The kinds and their fields come from the game's ``Action`` message
(``roost.<game>.v1.types_pb2``); enum fields take their values from the
descriptor (``*_UNSPECIFIED`` left out) and bool fields ``(False, True)``.
Integer and string fields take the domain written below, from the game's
rules catalogue (card ids, areas, track spaces) or the rulebook's bounds.
docs/AI.md lists the resulting spaces.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from clients.ai.actions import ActionSpace, Among, Counts, Part, Same, Subset, Values

_ENUM = FieldDescriptor.TYPE_ENUM
_BOOL = FieldDescriptor.TYPE_BOOL

#: A game's domain table: (kind, field) or field -> its part (None: a field the
#: engine never sets in that kind).
Table = dict[Any, Part]


def _wingspan(players: int) -> Table:
    from services.wingspan.rules import cards

    birds = Values(tuple(range(cards.NB)))
    return {
        "bird": birds,
        "bonus": Values(tuple(range(cards.NBONUS))),
        "seat": Values(tuple(range(players))),
        # A payment is five food counts; a bird costs at most three food and
        # every missing one may be paid with two of any kind: at most six.
        ("pay_food", "*"): Counts(("invertebrate", "seed", "fish", "fruit", "rodent"), 6),
        # Setup: keep any of the five birds dealt (rulebook, Setup 4).
        ("keep_birds", "birds"): Among(5),
    }


def _birdscaping(players: int) -> Table:
    from services.birdscaping.rules import cards

    return {"card": Values(tuple(cards.KEY))}


def _skygarden(players: int) -> Table:
    from services.skygarden.rules import data

    birds = Values(tuple(data.BIRDS))
    return {
        "card": Values(tuple(data.EVENT_IDS)),
        "space": Values(tuple(range(data.TRACK_LEN + 1))),
        "bird": birds,
        "steps": Values(tuple(range(1, data.EMP_MAX_TOTAL + 1))),
        # The printed areas and the Additional Area (index NAREA).
        "area": Values(tuple(range(data.NAREA + 1))),
        "side": Values(tuple(data.AX_SIDES)),
        "ad": Values(tuple(data.AD_IDS)),
        # The birdcage's nine milestone slots (3 x 3).
        "slot": Values(tuple(range(len(data.SLOT_LINES)))),
        "element": Values(tuple(data.ELEMENTS)),
    }


#: A garden never reaches further than 12 tiles from its start tile (board.py).
_TILE_REACH = 12


def _undertheleaves(players: int) -> Table:
    tiles = Values(tuple(range(-_TILE_REACH, _TILE_REACH + 1)))
    # A tile at (x, y) covers the cells 2x..2x+1 and 2y-1..2y.
    cell_x = Values(tuple(range(-2 * _TILE_REACH, 2 * _TILE_REACH + 2)))
    cell_y = Values(tuple(range(-2 * _TILE_REACH - 1, 2 * _TILE_REACH + 1)))
    return {
        "slot": Values(tuple(range(4))),
        ("place_tile", "x"): tiles,
        ("place_tile", "y"): tiles,
        "rotation": Values((0, 90, 180, 270)),
        # One dweller card is placed at a time (the pending card): its cell says it all.
        ("place_dweller", "card"): Same(),
        ("place_dweller", "x"): cell_x,
        ("place_dweller", "y"): cell_y,
    }


TABLES: dict[str, Callable[[int], Table]] = {
    "wingspan": _wingspan,
    "birdscaping": _birdscaping,
    "skygarden": _skygarden,
    "undertheleaves": _undertheleaves,
}


def _part(table: Table, kind: str, field: FieldDescriptor) -> Part:
    for key in ((kind, field.name), field.name):
        if key in table:
            return table[key]
    if field.type == _ENUM:
        names = tuple(v.name for v in field.enum_type.values if not v.name.endswith("_UNSPECIFIED"))
        return Subset(names) if field.is_repeated else Values(names)
    if field.type == _BOOL:
        return Values((False, True))
    raise KeyError(f"no domain for {kind}.{field.name}")


@cache
def action_space(game: str, players: int) -> ActionSpace:
    """The fixed action space of ``game`` with ``players`` seats."""
    table = TABLES[game](players)
    types = importlib.import_module(f"roost.{game}.v1.types_pb2")
    kinds: list[tuple[str, list[tuple[tuple[str, ...], Part]]]] = []
    for kind_field in types.Action.DESCRIPTOR.oneofs_by_name["kind"].fields:
        kind = kind_field.name
        whole = table.get((kind, "*"))
        if whole is not None:
            names = getattr(whole, "fields", ())
            kinds.append((kind, [(tuple(names), whole)]))
            continue
        fields = [((f.name,), _part(table, kind, f)) for f in kind_field.message_type.fields]
        kinds.append((kind, fields))
    return ActionSpace(game, kinds)


def _part_text(part: Part) -> str:
    if isinstance(part, Values):
        values = part.values
        if len(values) > 6:
            if all(isinstance(v, int) for v in values) and list(values) == list(
                range(values[0], values[0] + len(values))
            ):
                return f"{values[0]}..{values[-1]}"
            return f"{len(values)} values ({values[0]!r} ... {values[-1]!r})"
        return ", ".join(repr(v) for v in values)
    if isinstance(part, Subset):
        return f"bit mask over {', '.join(part.values)}"
    if isinstance(part, Among):
        return f"bit mask over the (at most {part.width}) items offered, sorted"
    if isinstance(part, Counts):
        return f"every count tuple with total <= {part.total}"
    return "not encoded (shared by every legal action of the kind)"


def space_table(game: str, players: int) -> str:
    """The action space of a game as a Markdown table (docs/AI.md)."""
    space = action_space(game, players)
    rows = [
        f"`Discrete({space.n})` for {players} players.",
        "",
        "| kind | indices | fields (domain, in index order) |",
        "|---|---|---|",
    ]
    for code in space.codes.values():
        fields = "; ".join(
            f"{'+'.join(names)}: {_part_text(part)}"
            for names, part in zip(code.names, code.parts, strict=True)
        )
        last = code.offset + code.size - 1
        span = f"{code.offset}" if code.size == 1 else f"{code.offset}..{last}"
        rows.append(f"| `{code.kind}` | {span} | {fields or '-'} |")
    return "\n".join(rows)

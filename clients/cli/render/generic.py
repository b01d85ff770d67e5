"""Drawing any game's messages in the terminal with rich, generically.

A View message becomes a panel: its scalar fields in a two-column grid, each
nested message as its own panel, each repeated message as a table (one row per
element, one column per field; nested values shown compactly). A repeated
message whose elements hold cells is also drawn as a map per element, one
letter per enum value. Enum values lose their prefix
(``PHASE_PLACE_TILE`` -> ``place tile``). Nothing here knows a game.

What counts as a cell is read from the message shapes:

- a *cell* is a message with integer ``x``, ``y`` and a (singular) enum field;
  its first bool field, if any, is its flag (drawn as a capital letter);
- a *tile* is a message with integer ``x``, ``y`` and a repeated enum field of
  k×k values (4 for a 2×2 tile): a square of cells packed in reading order, top
  row first. Its i-th value is the cell ``(k*x + i % k, k*y - i // k)``, so a
  2×2 tile at (x, y) covers (2x, 2y), (2x+1, 2y), (2x, 2y-1), (2x+1, 2y-1), in
  that order. A repeated bool field of the same length is the cells' flag
  (named in the plural: ``mushrooms`` is drawn as the flag ``mushroom``).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import isqrt
from typing import Any, NamedTuple

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from rich import box
from rich.color import Color, ColorParseError
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

MAX_ROWS = 40
MAX_INLINE = 60
MAP_LIMIT = 40

_MESSAGE = FieldDescriptor.TYPE_MESSAGE
_ENUM = FieldDescriptor.TYPE_ENUM


def title(name: str) -> str:
    """``dweller_cards`` -> ``Dweller cards``."""
    return name.replace("_", " ").capitalize()


def enum_text(field: FieldDescriptor, number: int) -> str:
    """An enum value's name without its type prefix, in lower case."""
    value = field.enum_type.values_by_number.get(number)
    if value is None:
        return str(number)
    name = value.name
    prefix = _enum_prefix(field.enum_type)
    if name.startswith(prefix):
        name = name[len(prefix) :]
    return name.replace("_", " ").lower()


def _enum_prefix(enum_type: Any) -> str:
    names = [v.name for v in enum_type.values]
    if not names:
        return ""
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    cut = prefix.rfind("_")
    return prefix[: cut + 1] if cut >= 0 else ""


def scalar_text(field: FieldDescriptor, value: Any) -> str:
    """One scalar value as text."""
    if field.type == _ENUM:
        return enum_text(field, value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _set_fields(message: Message) -> list[tuple[FieldDescriptor, Any]]:
    """Fields worth showing: every scalar (even zero), set messages, non-empty lists."""
    out = []
    for field in message.DESCRIPTOR.fields:
        value = getattr(message, field.name)
        if field.is_repeated:
            if len(value):
                out.append((field, value))
        elif field.type == _MESSAGE:
            if message.HasField(field.name):
                out.append((field, value))
        else:
            out.append((field, value))
    return out


def compact(message: Message, depth: int = 0) -> str:
    """A one-line summary of a message: ``k=v, k=[a, b], k={...}``."""
    parts = []
    for field, value in _set_fields(message):
        if field.is_repeated:
            if field.type == _MESSAGE:
                if depth >= 1:
                    parts.append(f"{field.name}=[{len(value)}]")
                else:
                    inner = "; ".join(compact(v, depth + 1) for v in list(value)[:4])
                    more = "; ..." if len(value) > 4 else ""
                    parts.append(f"{field.name}=[{inner}{more}]")
            else:
                parts.append(f"{field.name}=[{', '.join(scalar_text(field, v) for v in value)}]")
        elif field.type == _MESSAGE:
            parts.append(f"{field.name}={{{compact(value, depth + 1)}}}")
        else:
            if value in (0, "", False) and field.type != _ENUM:
                continue
            parts.append(f"{field.name}={scalar_text(field, value)}")
    text = ", ".join(parts)
    return text if len(text) <= MAX_INLINE * 3 else text[: MAX_INLINE * 3 - 3] + "..."


def _cell(field: FieldDescriptor, value: Any) -> str:
    if field.is_repeated:
        if field.type == _MESSAGE:
            if not len(value):
                return ""
            shown = "; ".join(compact(v, 1) for v in list(value)[:3])
            more = f" (+{len(value) - 3})" if len(value) > 3 else ""
            text = shown + more
            return text if len(text) <= MAX_INLINE else f"{len(value)} items"
        return ", ".join(scalar_text(field, v) for v in value)
    if field.type == _MESSAGE:
        return compact(value, 1)
    return scalar_text(field, value)


class MapCell(NamedTuple):
    """One cell of a map, taken from a cell message or from a tile's packed lists."""

    #: Full name of the message it came from (the cell's or the tile's).
    kind: str
    x: int
    y: int
    #: The enum field its value belongs to, and that value.
    enum_field: FieldDescriptor
    number: int
    #: The flag's name (``""`` when the message has no flag) and its value.
    flag: str = ""
    flagged: bool = False


def _has_xy(names: Any) -> bool:
    return "x" in names and "y" in names


def _is_cell(message: Message) -> bool:
    names = message.DESCRIPTOR.fields_by_name
    return _has_xy(names) and any(f.type == _ENUM and not f.is_repeated for f in names.values())


def _tile_field(message: Message) -> FieldDescriptor | None:
    """The repeated enum field of a tile (see the module docstring), else None."""
    names = message.DESCRIPTOR.fields_by_name
    if not _has_xy(names):
        return None
    return next((f for f in names.values() if f.type == _ENUM and f.is_repeated), None)


def _singular(name: str) -> str:
    """The name of one element of a repeated field: ``mushrooms`` -> ``mushroom``."""
    return name[:-1] if name.endswith("s") and len(name) > 1 else name


def _cell_of(message: Message) -> MapCell:
    fields = message.DESCRIPTOR.fields
    enum_field = next(f for f in fields if f.type == _ENUM and not f.is_repeated)
    flag = next((f for f in fields if f.type == FieldDescriptor.TYPE_BOOL), None)
    return MapCell(
        message.DESCRIPTOR.full_name,
        message.x,
        message.y,
        enum_field,
        getattr(message, enum_field.name),
        flag.name if flag is not None else "",
        bool(getattr(message, flag.name)) if flag is not None else False,
    )


def _tile_cells(message: Message, enum_field: FieldDescriptor) -> list[MapCell]:
    """A tile's cells: value i is the cell (k*x + i % k, k*y - i // k), k*k values in all."""
    values = list(getattr(message, enum_field.name))
    k = isqrt(len(values))
    if k == 0 or k * k != len(values):
        return []
    flag = next(
        (
            f
            for f in message.DESCRIPTOR.fields
            if f.type == FieldDescriptor.TYPE_BOOL
            and f.is_repeated
            and len(getattr(message, f.name)) == len(values)
        ),
        None,
    )
    flags = list(getattr(message, flag.name)) if flag is not None else [False] * len(values)
    name = message.DESCRIPTOR.full_name
    flag_name = _singular(flag.name) if flag is not None else ""
    left, top = k * message.x, k * message.y
    return [
        MapCell(name, left + i % k, top - i // k, enum_field, number, flag_name, bool(flagged))
        for i, (number, flagged) in enumerate(zip(values, flags, strict=True))
    ]


def _map_cells(message: Message) -> list[MapCell] | None:
    """The cells ``message`` stands for itself (a cell or a tile), else None."""
    if _is_cell(message):
        return [_cell_of(message)]
    tile = _tile_field(message)
    if tile is not None:
        return _tile_cells(message, tile)
    return None


def cells_of(message: Message, depth: int = 0) -> list[MapCell]:
    """Every cell among the descendants: cell messages, and the cells of tile messages."""
    found: list[MapCell] = []
    if depth > 4:
        return found
    for field, value in _set_fields(message):
        if field.type != _MESSAGE:
            continue
        for item in value if field.is_repeated else [value]:
            own = _map_cells(item)
            if own is not None:
                found.extend(own)
            else:
                found.extend(cells_of(item, depth + 1))
    return found


def _symbols(enum_field: FieldDescriptor) -> dict[int, str]:
    """A distinct letter per enum value (the first unused letter of its name)."""
    taken: set[str] = set()
    out: dict[int, str] = {}
    for value in enum_field.enum_type.values:
        if value.number == 0:
            continue
        text = enum_text(enum_field, value.number).replace(" ", "")
        letter = next((c for c in text if c.isalpha() and c not in taken), "?")
        taken.add(letter)
        out[value.number] = letter
    return out


def _style(name: str) -> str:
    try:
        Color.parse(name)
    except ColorParseError:
        return "bold"
    return f"bold {name}"


def cell_map(cells: Sequence[MapCell]) -> RenderableType | None:
    """Cells drawn as a grid: one letter per enum value, capital when the cell's flag is set.

    Only the cells of the most common message type among ``cells`` are drawn.
    """
    groups: dict[str, list[MapCell]] = {}
    for c in cells:
        groups.setdefault(c.kind, []).append(c)
    cells = max(groups.values(), key=len) if groups else []
    if len(cells) < 3:
        return None
    enum_field = cells[0].enum_field
    flag = cells[0].flag
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    if max(xs) - min(xs) > MAP_LIMIT or max(ys) - min(ys) > MAP_LIMIT:
        return None
    symbols = _symbols(enum_field)
    grid: dict[tuple[int, int], tuple[str, str]] = {}
    for c in cells:
        letter = symbols.get(c.number, "?")
        if c.flagged:
            letter = letter.upper()
        grid[(c.x, c.y)] = (letter, _style(enum_text(enum_field, c.number)))
    text = Text()
    for y in range(max(ys), min(ys) - 1, -1):
        text.append(f"{y:>3} ", style="dim")
        for x in range(min(xs), max(xs) + 1):
            letter, style = grid.get((x, y), (".", "dim"))
            text.append(letter + " ", style=style)
        text.append("\n")
    text.append(f"    x {min(xs)}..{max(xs)}\n", style="dim")
    legend = "  ".join(f"{letter} {enum_text(enum_field, n)}" for n, letter in symbols.items())
    if flag:
        legend += f"  (capital: {flag.replace('_', ' ')})"
    text.append(legend, style="dim")
    return text


def maps_of(name: str, items: Sequence[Message]) -> list[RenderableType]:
    """One map panel per element that holds cells (e.g. each seat's garden)."""
    panels: list[RenderableType] = []
    for index, item in enumerate(items):
        drawn = cell_map(cells_of(item))
        if drawn is None:
            continue
        who = getattr(item, "seat", index) if "seat" in item.DESCRIPTOR.fields_by_name else index
        panels.append(Panel(drawn, title=f"{title(name)}: seat {who}", expand=False))
    direct = [c for i in items for c in _map_cells(i) or ()]
    drawn = cell_map(direct) if direct else None
    if drawn is not None:
        panels.append(Panel(drawn, title=f"{title(name)} map", expand=False))
    return panels


def table_of(name: str, items: Sequence[Message]) -> RenderableType:
    """A table with one row per element."""
    descriptor = items[0].DESCRIPTOR
    table = Table(title=title(name), box=box.SIMPLE_HEAVY, title_justify="left", expand=False)
    columns = [f for f in descriptor.fields]
    for field in columns:
        table.add_column(title(field.name), overflow="fold", max_width=MAX_INLINE)
    for item in list(items)[:MAX_ROWS]:
        table.add_row(*[_cell(f, getattr(item, f.name)) for f in columns])
    if len(items) > MAX_ROWS:
        table.caption = f"{len(items) - MAX_ROWS} more not shown"
    return table


def panel_of(message: Message, name: str = "", depth: int = 0) -> RenderableType:
    """A panel of a whole message (see the module docstring)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    parts: list[RenderableType] = []
    for field, value in _set_fields(message):
        if field.is_repeated and field.type == _MESSAGE:
            items = list(value)
            if depth >= 2:
                grid.add_row(title(field.name), _cell(field, value))
                continue
            parts.append(table_of(field.name, items))
            maps = maps_of(field.name, items)
            if maps:
                parts.append(Columns(maps))
        elif field.type == _MESSAGE and not field.is_repeated:
            if depth >= 2:
                grid.add_row(title(field.name), compact(value, 1))
            else:
                parts.append(panel_of(value, field.name, depth + 1))
        else:
            grid.add_row(title(field.name), _cell(field, value))
    body: RenderableType = Group(grid, *parts) if parts else grid
    return Panel(body, title=title(name) if name else None, expand=False)

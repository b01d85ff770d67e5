"""Pieces every game's board is drawn with.

- Reading fields defensively: :func:`field` reads a field by one of several names (a
  renamed field, e.g. the viewer's seat, is one line here), :func:`optional` tells a
  field that is absent from one that is zero (proto3 ``optional``), so a dweller at
  x=0 is drawn at 0.
- Placeholders: a seat of -1 (nobody) and an enum's ``UNSPECIFIED`` read "—"; enum
  values lose their type prefix (``ROW_GARDEN`` → "garden").
- Layout: :func:`side_by_side` puts panels in columns when the width allows and stacks
  them otherwise, so nothing is squeezed into one letter per line at 80 columns.
- Colour is decoration only: every mark that carries meaning is also a letter or a
  symbol, so a monochrome console (not a terminal, or ``NO_COLOR``) loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

NOBODY = "—"
#: The field of every game's View that holds the viewing seat.
VIEWER_FIELD = "viewer_seat"


def field(message: Any, *names: str, default: Any = None) -> Any:
    """The first of ``names`` that ``message`` has, else ``default``."""
    fields = message.DESCRIPTOR.fields_by_name
    for name in names:
        if name in fields:
            return getattr(message, name)
    return default


def optional(message: Any, name: str) -> Any | None:
    """A field's value, or None when it is absent: a field with presence (a message, a
    proto3 ``optional`` scalar) that is not set is None; zero stays zero."""
    descriptor = message.DESCRIPTOR.fields_by_name.get(name)
    if descriptor is None:
        return None
    if descriptor.has_presence and not message.HasField(name):
        return None
    return getattr(message, name)


def viewer(view: Any) -> int:
    """The seat the view is drawn for (-1: a spectator, whose view leaves the seat unset)."""
    value = optional(view, VIEWER_FIELD)
    return int(value) if value is not None else -1


def seat_text(seat: int | None, names: dict[int, str] | None = None) -> str:
    """A seat as text: "—" for nobody (-1 or None), else its name or "seat N"."""
    if seat is None or seat < 0:
        return NOBODY
    return (names or {}).get(seat) or f"seat {seat}"


def enum_text(message: Any, name: str, value: int | None = None) -> str:
    """An enum field's value without its prefix, lower case; "—" when unspecified."""
    descriptor = message.DESCRIPTOR.fields_by_name[name]
    number = getattr(message, name) if value is None else value
    if number == 0:
        return NOBODY
    entry = descriptor.enum_type.values_by_number.get(number)
    if entry is None:
        return str(number)
    words = entry.name.split("_")
    skip = len(_snake(descriptor.enum_type.name).split("_"))
    return " ".join(words[skip:]).lower() or entry.name.lower()


def _snake(name: str) -> str:
    out = ""
    for i, char in enumerate(name):
        if char.isupper() and i and not name[i - 1].isupper():
            out += "_"
        out += char
    return out


def words(identifier: str) -> str:
    """``warbling_white_eye`` → "warbling white eye"."""
    return identifier.replace("_", " ")


def panel(body: RenderableType, title: str, subtitle: str = "") -> Panel:
    """A titled panel with a plain box (readable without colour)."""
    return Panel(
        body,
        title=f"[bold]{title}[/bold]",
        title_align="left",
        subtitle=subtitle or None,
        subtitle_align="right",
        box=box.ROUNDED,
        expand=True,
    )


def facts(rows: Iterable[tuple[str, Any]]) -> Table:
    """A two-column grid of name/value facts (values of None are left out)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column(overflow="fold")
    for name, value in rows:
        if value is None:
            continue
        grid.add_row(name, value if isinstance(value, Text | Table) else str(value))
    return grid


def table(*columns: str, title: str = "", wrap: Sequence[str] = ()) -> Table:
    """A table whose columns in ``wrap`` fold long text; the others keep one line."""
    out = Table(
        title=title or None,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        expand=False,
        pad_edge=False,
        show_edge=False,
    )
    for name in columns:
        if name in wrap:
            out.add_column(name, overflow="fold", ratio=1)
        else:
            out.add_column(name, no_wrap=True)
    return out


def side_by_side(items: Sequence[RenderableType], width: int, each: int = 58) -> RenderableType:
    """``items`` in columns when ``width`` holds two of ``each`` columns, else stacked."""
    if width >= 2 * each and len(items) > 1:
        return Columns(list(items), width=width // 2 - 1, expand=False)
    return Group(*items)


def marks(count: int, symbol: str, zero: str = "") -> str:
    """``count`` symbols ("●●●"), or ``zero`` for none; numbers beyond 8."""
    if count <= 0:
        return zero
    return symbol * count if count <= 8 else f"{symbol}×{count}"

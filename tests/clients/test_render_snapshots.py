"""Snapshots of every game's board, choices and end screen, drawn from views recorded on
real services (tests/clients/record_views.py), at 80 and 120 columns, without colour.

A drawing that changes fails here until the snapshot is regenerated and looked at:
``ROOST_UPDATE_SNAPSHOTS=1 pytest tests/clients/test_render_snapshots.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from clients.cli import render
from clients.cli.choices import Menu, choices_of, menu_table
from tests.clients.recorded import Recorded, all_positions, catalogue

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE = os.environ.get("ROOST_UPDATE_SNAPSHOTS") == "1"
WIDTHS = (80, 120)


def text_of(renderables: list[RenderableType], width: int) -> str:
    """What a monochrome console of ``width`` columns prints."""
    console = Console(record=True, width=width, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    for renderable in renderables:
        console.print(renderable)
    return console.export_text()


def screen(position: Recorded, width: int) -> str:
    """The board as ``roost play`` draws it, then the choices or the end screen."""
    view = position.state.view
    known = catalogue(position.game)
    parts: list[RenderableType] = [
        render.board(
            position.game,
            view,
            known,
            width=width,
            names=position.names,
            legal=position.legal.actions if position.legal is not None else (),
        )
    ]
    if position.legal is not None:
        menu = Menu(choices_of(position.game, position.legal.actions, view, known))
        parts.append(menu_table(menu.entries(), menu.narrowed, width))
    if position.score is not None:
        board = position.score.scoreboard
        names = position.names
        # As `roost play` ends: the outcome line carries a solo result, the table does not.
        parts += [render.scoreboard(board, names, solo=False), render.outcome(board, names, 0)]
    return text_of(parts, width)


CASES = [(p, w) for p in all_positions() for w in WIDTHS]


@pytest.mark.parametrize(
    ("position", "width"), CASES, ids=[f"{p.game}-{p.name}-{w}" for p, w in CASES]
)
def test_screen_matches_its_snapshot(position: Recorded, width: int) -> None:
    drawn = screen(position, width)
    path = SNAPSHOTS / position.game / f"{position.name}-{width}.txt"
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(drawn)
        if not UPDATE:
            pytest.fail(f"new snapshot {path.name} written: look at it and commit it")
    assert drawn == path.read_text(), f"{path} differs (see the module docstring)"


@pytest.mark.parametrize(
    ("position", "width"), CASES, ids=[f"{p.game}-{p.name}-{w}" for p, w in CASES]
)
def test_nothing_is_cropped_or_squeezed(position: Recorded, width: int) -> None:
    """Readable at 80 columns: no text cut short with an ellipsis, no line past the
    width, and no column squeezed to one letter per line."""
    drawn = screen(position, width)
    assert "…" not in drawn
    lines = drawn.splitlines()
    assert all(len(line) <= width for line in lines)
    assert squeezed(drawn) < 3, drawn


def squeezed(drawn: str) -> int:
    """The longest run of lines holding one letter each (a column squeezed to nothing)."""
    run = longest = 0
    for line in drawn.splitlines():
        run = run + 1 if len(line.strip("│ ╭╮╰╯─")) == 1 else 0
        longest = max(longest, run)
    return longest


def test_the_check_finds_the_generic_dumps_squeezed_player_table() -> None:
    """The generic dump of a Wingspan view prints its player table one letter per line
    at 80 columns; the check above sees it (and the Wingspan board passes it)."""
    mid = next(p for p in all_positions() if p.game == "wingspan" and p.name == "2p-mid")
    assert squeezed(text_of([render.panel_of(mid.state.view, "Board")], 80)) >= 3

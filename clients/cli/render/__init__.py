"""Drawing the games in the terminal.

One module per game, ``clients/cli/render/<game>.py`` (found by its presence), draws
its ``View`` the way the table looks, with the card and tile facts of the game's
catalogue; :mod:`.common` holds the shared pieces, and
:mod:`.scores` the end screen and event lines every game shares, and :mod:`.generic`
draws the view of a game without a renderer of its own as a generic dump.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from clients.cli.render.common import seat_text
from clients.cli.render.generic import cell_map, cells_of, maps_of, panel_of
from clients.cli.render.scores import (
    actions,
    event_line,
    outcome,
    scoreboard,
    solo_facts,
    solo_line,
)
from clients.registry import games_with_module

__all__ = [
    "actions",
    "board",
    "cell_map",
    "cells_of",
    "event_line",
    "maps_of",
    "outcome",
    "panel_of",
    "scoreboard",
    "seat_text",
    "solo_facts",
    "solo_line",
]

#: The registry's games with a renderer of their own (``clients/cli/render/<game>.py``).
DRAWN = games_with_module("clients.cli.render")


def board(
    game: str,
    view: Any,
    catalogue: Any | None,
    *,
    width: int = 80,
    names: dict[int, str] | None = None,
    legal: Sequence[Any] = (),
) -> RenderableType:
    """``view`` drawn by the game's own renderer (the generic dump for other games).

    ``legal`` (the viewer's legal actions, when drawing for a decision) lets a board mark
    where they apply (Under the Leaves: the spots for the taken tile). ``catalogue`` may
    be None (an older service without GetCatalogue): the renderers then
    show what the view itself holds."""
    if game not in DRAWN:
        return panel_of(view, "Board")
    module = importlib.import_module(f"clients.cli.render.{game}")
    try:
        return module.render(view, catalogue, width=width, names=names, legal=legal)
    except Exception as error:  # a view newer than this client: show it rather than stop
        note = Text(f"(the {game} board could not be drawn: {error!r}; the view as it is)")
        return Group(note, panel_of(view, "Board"))

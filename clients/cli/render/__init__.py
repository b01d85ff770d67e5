"""Drawing the games in the terminal.

One module per game draws its ``View`` the way the table looks, with the card and tile
facts of the game's catalogue (:mod:`.wingspan`, :mod:`.undertheleaves`,
:mod:`.skygarden`, :mod:`.birdscaping`); :mod:`.common` holds the shared pieces, and
:mod:`.generic` draws any other message as a generic dump and the shared score board,
end-of-game line and event lines.
"""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import RenderableType

from clients.cli.render.generic import (
    actions,
    event_line,
    outcome,
    panel_of,
    scoreboard,
    solo_facts,
    solo_line,
)

__all__ = [
    "actions",
    "board",
    "event_line",
    "outcome",
    "panel_of",
    "scoreboard",
    "solo_facts",
    "solo_line",
]

#: The games with a renderer of their own.
DRAWN = ("wingspan", "undertheleaves", "skygarden", "birdscaping")


def board(game: str, view: Any, catalogue: Any | None, *, width: int = 80) -> RenderableType:
    """``view`` drawn by the game's own renderer (the generic dump for other games).

    ``catalogue`` may be None (an older service without GetCatalogue): the renderers then
    show what the view itself holds."""
    if game not in DRAWN:
        return panel_of(view, "Board")
    module = importlib.import_module(f"clients.cli.render.{game}")
    return module.render(view, catalogue, width=width)

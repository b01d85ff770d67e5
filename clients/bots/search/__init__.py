"""The search bot: determinized Monte Carlo search from the seat's own view.

* :mod:`.protoview`: a protobuf View or Action as plain values.
* ``<game>.py``: the observation builder of a game (the seat's view -> an
  engine state that shows it exactly, hidden places filled in).
* :mod:`.ismcts`: the search over determinizations.
* :mod:`.policy`: the bot policy that ties them together.

The forward model is the game's pure rules package (``services.<game>.rules``),
imported as a library; nothing of the platform is (see docs/ARCHITECTURE.md, Bots).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from clients.registry import games_with_module

#: The registry's games with an observation builder (``clients/bots/search/<game>.py``,
#: found by its presence).
BUILDERS = games_with_module("clients.bots.search")


def builder(game: str) -> ModuleType | None:
    """The observation builder module of ``game`` (with ``ENGINE`` and ``build``), or None."""
    if game not in BUILDERS:
        return None
    return importlib.import_module(f"clients.bots.search.{game}")

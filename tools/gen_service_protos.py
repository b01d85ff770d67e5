"""Write every game's ``service.proto`` from one template.

The seven RPCs and their request/response messages are the same in every game
(only the package, the service name, and the game's own ``View``/``Action``
(types.proto) and ``Options`` (options.proto) differ), so they are written
once, in ``tools/game_service.proto.tmpl``, and generated per game. The
generated files are committed (they are the API other languages compile);
``tests/protos`` fails when one is out of date. Run: ``make service-protos``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "tools" / "game_service.proto.tmpl"

#: game package -> (proto service name, title, one-line summary)
GAMES: dict[str, tuple[str, str, str]] = {
    "skygarden": (
        "SkyGarden", "Sky Garden",
        "Sky Garden, 1 to 4 players (2 players with Lucy; solo with its targets).",
    ),
    "wingspan": ("Wingspan", "Wingspan (base game)", "Wingspan, base game, 2 to 5 players."),
    "birdscaping": (
        "Birdscaping", "Birdscaping", "Birdscaping, 2 players or solo against the AI column."
    ),
    "undertheleaves": ("UnderTheLeaves", "Under the Leaves", "Under the Leaves, 2 to 4 players."),
}  # fmt: skip


def render(game: str) -> str:
    """The service.proto text of ``game``."""
    service, title, summary = GAMES[game]
    template = Template(TEMPLATE.read_text())
    return template.substitute(game=game, service=service, title=title, summary=summary)


def target(game: str) -> Path:
    """Where ``game``'s service.proto lives."""
    return ROOT / "protos" / "roost" / game / "v1" / "service.proto"


def main() -> int:
    """Write every game's service.proto."""
    for game in GAMES:
        target(game).write_text(render(game))
    return 0


if __name__ == "__main__":
    sys.exit(main())

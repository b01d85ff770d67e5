"""Write every game's ``service.proto`` from one template.

The RPCs and their request/response messages are the same in every game
(only the package, the service name, and the game's own ``View``/``Action``
(types.proto), ``Options`` (options.proto) and ``Catalogue`` (catalogue.proto)
differ), so they are written
once, in ``tools/game_service.proto.tmpl``, and generated per game. The
generated files are committed (they are the API other languages compile);
``tests/protos`` fails when one is out of date. Run: ``make service-protos``.

Which games exist, and each one's service name, title and player counts, come
from the registry, protos/roost/games.toml.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "tools" / "game_service.proto.tmpl"

REGISTRY = ROOT / "protos" / "roost" / "games.toml"

#: game name -> its entry in the registry
GAMES: dict[str, dict[str, object]] = {
    entry["name"]: entry for entry in tomllib.loads(REGISTRY.read_text())["games"]
}


def summary(entry: dict[str, object]) -> str:
    """The one-line comment above the service: title, player counts, note."""
    note = f"; {entry['note']}" if entry.get("note") else ""
    return f"{entry['title']}, {entry['min_players']} to {entry['max_players']} players{note}."


def render(game: str) -> str:
    """The service.proto text of ``game``."""
    entry = GAMES[game]
    template = Template(TEMPLATE.read_text())
    return template.substitute(
        game=game, service=entry["service"], title=entry["title"], summary=summary(entry)
    )


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

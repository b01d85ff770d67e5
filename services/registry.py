"""Which services exist, their modules, proto service names and default ports.

Used by the local launcher (``make run``), the matchmaker and each game's
service spec. The identities come from ``roost.games``, generated from
protos/roost/games.toml with the stubs (the one registry, shared with the
clients); this module adds where each service's code lives. A service is
*implemented* once its package has a ``__main__`` module.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from roost import games as identities


@dataclass(frozen=True, slots=True)
class ServiceEntry:
    """One deployable service."""

    name: str
    module: str
    service_name: str
    default_port: int
    is_game: bool = True
    #: Player counts a game accepts (0 for the matchmaker).
    min_players: int = 0
    max_players: int = 0

    def implemented(self) -> bool:
        """True when ``python -m <module>`` can start it."""
        try:
            return importlib.util.find_spec(f"{self.module}.__main__") is not None
        except ModuleNotFoundError:
            return False


def _entry(identity: identities.ServiceIdentity) -> ServiceEntry:
    """The service entry of a registry identity (its code is ``services.<name>``)."""
    players = (0, 0)
    if isinstance(identity, identities.GameIdentity):
        players = (identity.min_players, identity.max_players)
    return ServiceEntry(
        identity.name,
        f"services.{identity.name}",
        identity.full_name,
        identity.default_port,
        is_game=players != (0, 0),
        min_players=players[0],
        max_players=players[1],
    )


SERVICES: tuple[ServiceEntry, ...] = tuple(
    _entry(identity) for identity in (identities.MATCHMAKER, *identities.GAMES)
)

GAMES: tuple[ServiceEntry, ...] = tuple(s for s in SERVICES if s.is_game)

#: The matchmaker's entry.
MATCHMAKER: ServiceEntry = SERVICES[0]


def by_name(name: str) -> ServiceEntry:
    """The entry called ``name`` (KeyError if unknown)."""
    for entry in SERVICES:
        if entry.name == name:
            return entry
    raise KeyError(name)

"""Which services exist, their modules, proto service names and default ports.

Used by the local launcher (``make run``) and the matchmaker. A service is
*implemented* once its package has a ``__main__`` module.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServiceEntry:
    """One deployable service."""

    name: str
    module: str
    service_name: str
    default_port: int
    is_game: bool = True

    def implemented(self) -> bool:
        """True when ``python -m <module>`` can start it."""
        try:
            return importlib.util.find_spec(f"{self.module}.__main__") is not None
        except ModuleNotFoundError:
            return False


SERVICES: tuple[ServiceEntry, ...] = (
    ServiceEntry("matchmaking", "services.matchmaking", "roost.matchmaking.v1.Matchmaker", 50050,
                 is_game=False),
    ServiceEntry("skygarden", "services.skygarden", "roost.skygarden.v1.SkyGarden", 50051),
    ServiceEntry("wingspan", "services.wingspan", "roost.wingspan.v1.Wingspan", 50052),
    ServiceEntry("birdscaping", "services.birdscaping", "roost.birdscaping.v1.Birdscaping", 50053),
    ServiceEntry("undertheleaves", "services.undertheleaves",
                 "roost.undertheleaves.v1.UnderTheLeaves", 50054),
)  # fmt: skip

GAMES: tuple[ServiceEntry, ...] = tuple(s for s in SERVICES if s.is_game)


def by_name(name: str) -> ServiceEntry:
    """The entry called ``name`` (KeyError if unknown)."""
    for entry in SERVICES:
        if entry.name == name:
            return entry
    raise KeyError(name)

"""Reading the views recorded by ``record_views`` (tests/clients/data/<game>/)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.registry import game

DATA = Path(__file__).resolve().parent / "data"
GAMES = ("birdscaping", "skygarden", "undertheleaves", "wingspan")


@dataclass(frozen=True)
class Recorded:
    """One recorded position: the seat's state, its legal actions (None at the end) and,
    at the end, the score."""

    game: str
    name: str
    state: Any
    legal: Any | None
    score: Any | None

    @property
    def names(self) -> dict[int, str]:
        """Seat names as the service gave them."""
        return {s.seat: s.name for s in self.state.seats}


def catalogue(name: str) -> Any:
    """The game's recorded Catalogue message."""
    m = game(name).messages()
    data = (DATA / name / "catalogue.binpb").read_bytes()
    return m.GetCatalogueResponse.FromString(data).catalogue


def positions(name: str) -> list[Recorded]:
    """Every recorded position of a game, by name (``2p-start``, ``solo-end``, ...)."""
    m = game(name).messages()
    out = []
    for path in sorted((DATA / name).glob("*.state.binpb")):
        stem = path.name.removesuffix(".state.binpb")
        legal = path.with_name(f"{stem}.legal.binpb")
        score = path.with_name(f"{stem}.score.binpb")
        out.append(
            Recorded(
                name,
                stem,
                m.GetStateResponse.FromString(path.read_bytes()),
                m.LegalResponse.FromString(legal.read_bytes()) if legal.exists() else None,
                m.ScoreResponse.FromString(score.read_bytes()) if score.exists() else None,
            )
        )
    return out


def all_positions() -> list[Recorded]:
    """Every recorded position of every game."""
    return [p for g in GAMES for p in positions(g)]

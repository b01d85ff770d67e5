"""One game played in process on a rules engine: the core every environment shares.

A :class:`Match` holds an engine state and speaks in action indices
(:mod:`clients.ai.domains`) and observation vectors (:mod:`clients.ai.observe`).
The engine is the game's pure rules package (``services.<game>.rules``), the
same one the services run, so a policy trained here meets the same rules on
the live service.

Who decides: the engine may ask several seats at once (a simultaneous draft);
:attr:`Match.current` is then the lowest of them, so every environment plays
such a phase in seat order. A waiting seat's legal list does not depend on the
others' choices, and secret choices never reach another seat's view, so
nothing is learnt from going first or last.

Outcome (:meth:`Match.returns`): in a game of several seats, each seat gets
(seats it beat - seats that beat it) / (seats - 1) by final rank: +1 for a
win, -1 for a loss, 0 for a draw with two players; the returns sum to zero.
A solo game gives +1 when won, -1 when lost.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import numpy as np
from roost import games as registry_games

from clients.ai.actions import ActionSpace
from clients.ai.domains import action_space
from clients.ai.observe import encoder_of
from services.core.engine import Action, Engine

#: Every game of the registry (protos/roost/games.toml), in port order.
GAMES = tuple(g.name for g in registry_games.GAMES)


@cache
def engine_of(game: str) -> Engine[Any]:
    """The rules engine of ``game`` (``services.<game>.rules.ENGINE``)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(GAMES)}")
    return importlib.import_module(f"services.{game}.rules").ENGINE


def check_players(game: str, players: int) -> None:
    """Raise ValueError unless the game accepts ``players`` seats."""
    engine = engine_of(game)
    if not engine.min_players <= players <= engine.max_players:
        raise ValueError(
            f"{game} takes {engine.min_players} to {engine.max_players} players, not {players}"
        )


class Match:
    """A game in process, driven by action indices (module docstring)."""

    def __init__(
        self,
        game: str,
        players: int = 2,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        state: Any = None,
    ) -> None:
        check_players(game, players)
        self.game = game
        self.players = players
        self.seed = seed
        self.options = dict(options or {})
        self.engine = engine_of(game)
        self.space: ActionSpace = action_space(game, players)
        self.encoder = encoder_of(game, players)
        self.state = state if state is not None else self.engine.setup(players, self.options, seed)
        #: Every decision taken: (seat, action).
        self.history: list[tuple[int, Action]] = []
        self._legal: tuple[int, list[Action], list[int]] | None = None

    # -- who acts and what they may do -------------------------------------------------

    @property
    def over(self) -> bool:
        return self.engine.is_over(self.state)

    @property
    def current(self) -> int:
        """The seat to decide now (the lowest of several), -1 once over."""
        seats = self.engine.to_act(self.state)
        return min(seats) if seats else -1

    def asked(self, seat: int) -> bool:
        """True when ``seat`` is among the seats asked to decide now."""
        return seat in self.engine.to_act(self.state)

    def legal(self, seat: int | None = None) -> list[Action]:
        """The legal actions of ``seat`` (default: the current seat)."""
        return self._legal_of(self.current if seat is None else seat)[0]

    def legal_indices(self, seat: int | None = None) -> list[int]:
        """The indices of those actions, in the same order."""
        return self._legal_of(self.current if seat is None else seat)[1]

    def _legal_of(self, seat: int) -> tuple[list[Action], list[int]]:
        cached = self._legal
        if cached is not None and cached[0] == seat:
            return cached[1], cached[2]
        actions = self.engine.legal(self.state, seat) if seat >= 0 else []
        indices = self.space.indices(actions)
        self._legal = (seat, actions, indices)
        return actions, indices

    def mask(self, seat: int | None = None) -> np.ndarray:
        """The action mask of ``seat``: 1 at every legal index (int8)."""
        mask = np.zeros(self.space.n, np.int8)
        mask[self.legal_indices(seat)] = 1
        return mask

    # -- deciding -----------------------------------------------------------------------

    def action_of(self, index: int, seat: int | None = None) -> Action:
        """The legal action of ``seat`` with this index (ValueError if none)."""
        actions, indices = self._legal_of(self.current if seat is None else seat)
        try:
            return actions[indices.index(index)]
        except ValueError:
            raise ValueError(f"action {index} is not legal now") from None

    def step(self, index: int, seat: int | None = None) -> Action:
        """Play the action with this index for ``seat`` (default: the current seat)."""
        seat = self.current if seat is None else seat
        action = self.action_of(index, seat)
        self.apply(seat, action)
        return action

    def apply(self, seat: int, action: Action) -> None:
        """Play an engine action for ``seat``."""
        self.state = self.engine.apply(self.state, seat, action)
        self.history.append((seat, action))
        self._legal = None

    # -- what a seat sees and gets ------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.engine.view(self.state, seat)

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``seat`` (its view only)."""
        return self.encoder.encode(self.engine.view(self.state, seat), out)

    def scores(self) -> list[int]:
        board = self.engine.score(self.state)
        totals = [0] * self.players
        for seat_score in board.seats:
            totals[seat_score.seat] = seat_score.total
        return totals

    def returns(self) -> list[float]:
        """Each seat's outcome once over (module docstring); zeros before."""
        if not self.over:
            return [0.0] * self.players
        return outcome(self.engine.score(self.state), self.players)

    def clone(self) -> Match:
        """An independent copy that plays on exactly as this one."""
        twin = Match.__new__(Match)
        twin.__dict__.update(self.__dict__)
        twin.state = self.engine.clone(self.state)
        twin.history = list(self.history)
        twin._legal = None
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """Pickles carry the encoded engine state (``engine.encode``)."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "state": self.engine.encode(self.state),
            "history": self.history,
        }

    def __setstate__(self, saved: dict[str, Any]) -> None:
        engine = engine_of(saved["game"])
        self.__init__(
            saved["game"],
            saved["players"],
            saved["seed"],
            saved["options"],
            engine.decode(saved["state"]),
        )
        self.history = list(saved["history"])

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        """Deep copies (OpenSpiel's clone) copy the engine state with ``engine.clone``."""
        return self.clone()


def outcome(board: Any, players: int) -> list[float]:
    """Returns by final rank (the Match docstring) from a final score board."""
    if players == 1:
        won = board.solo.won if board.solo is not None else bool(board.winners)
        return [1.0 if won else -1.0]
    rank = [0] * players
    for seat_score in board.seats:
        rank[seat_score.seat] = seat_score.rank
    out = []
    for seat in range(players):
        beat = sum(1 for other in range(players) if other != seat and rank[seat] < rank[other])
        lost = sum(1 for other in range(players) if other != seat and rank[seat] > rank[other])
        out.append((beat - lost) / (players - 1))
    return out

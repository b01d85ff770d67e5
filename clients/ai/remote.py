"""The environments on a live Roost service: a remote table over gRPC.

A :class:`RemoteTable` has the methods the environments use of an in-process
:class:`~clients.ai.match.Match` (``current``, ``legal_indices``, ``step``,
``observe``, ``scores``, ``returns``), so :func:`remote_pettingzoo_env` and
:func:`remote_gym_env` are the very environments of :mod:`clients.ai.aec` and
:mod:`clients.ai.gym` with this table plugged in:

* the table creates a game (``NewGame`` with the seed the environment draws,
  as in process) or joins one (``game_id`` and the tokens of the seats it
  plays); every call for a seat carries that seat's token (``x-seat-token``);
* the seat's observation is its ``View`` from ``GetState`` read into plain
  values (:func:`clients.bots.search.protoview.to_values`) and encoded as in
  process, and its legal actions are the service's ``LegalAction`` list,
  typed actions mapped to the same fixed indices; a decision is an ``Apply``
  by the action's id at the version it was listed for;
* seats the table has no token for are someone else's: the table follows the
  game's ``Watch`` stream until one of its own seats is asked again;
* in :func:`remote_gym_env` the other seats are played by Roost's bot
  policies (:func:`clients.bots.policies.make`: ``random``, ``greedy``,
  ``search@<N>p`` or an import path) through the service, exactly as
  ``roost bots`` plays them, or by anyone else when the table joins a game.

The same seed and the same decisions give the same observations as in
process: the service runs the same engine.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import grpc
import numpy as np

from clients import registry
from clients.ai.domains import action_space
from clients.ai.match import check_players, outcome
from clients.ai.observe import encoder_of
from clients.bots.search.protoview import action_values, to_values
from clients.games import new_game_request, supports_preview
from clients.rpc import metadata
from services.core.engine import Action, ScoreBoard, SeatScore, SoloResult

#: Seconds to wait for another seat's decision before giving up.
WAIT_SECONDS = 120.0


def engine_action(legal: Any) -> Action:
    """A service ``LegalAction`` as an engine ``Action`` (kind, args in field order)."""
    kind, values = action_values(legal.action)
    args = tuple(
        (name, tuple(value) if isinstance(value, list) else value) for name, value in values.items()
    )
    return Action(kind, args, legal.ref.label)


class RemoteTable:
    """A game on a live service, seen through the seats whose tokens it holds."""

    def __init__(
        self,
        game: str,
        address: str,
        players: int = 2,
        seed: int = 0,
        *,
        game_id: str | None = None,
        tokens: Mapping[int, str] | None = None,
        options_json: str = "",
    ) -> None:
        check_players(game, players)
        self.game = game
        self.players = players
        self.seed = seed
        self.info = registry.game(game)
        self.messages = self.info.messages()
        self.channel = grpc.insecure_channel(address)
        self.stub = self.info.stub(self.channel)
        self.space = action_space(game, players)
        self.encoder = encoder_of(game, players)
        self.history: list[tuple[int, Action]] = []
        if game_id is None:
            request = new_game_request(self.messages, players, seed, options_json=options_json)
            reply = self.stub.NewGame(request)
            game_id = reply.game_id
            tokens = {c.seat: c.token for c in reply.credentials}
            self.version, self.to_act = reply.version, list(reply.to_act)
            self.status_over = False
        else:
            self.version, self.to_act, self.status_over = 0, [], False
        self.game_id = game_id
        self.tokens: dict[int, str] = dict(tokens or {})
        self._legal: dict[int, tuple[int, list[Any], list[Action], list[int]]] = {}
        self._views: dict[int | None, tuple[int, Any]] = {}
        self._scores: tuple[int, Any] | None = None
        if not self.to_act:
            self.refresh()

    # -- following the game -------------------------------------------------------------

    def _token(self, seat: int | None) -> str | None:
        return self.tokens.get(seat) if seat is not None else next(iter(self.tokens.values()), None)

    def refresh(self) -> None:
        """Read the version, the seats to act and the status (GetState)."""
        reply = self.stub.GetState(
            self.messages.GetStateRequest(game_id=self.game_id),
            metadata=metadata(self._token(None)),
        )
        self.version, self.to_act = reply.version, list(reply.to_act)
        self.status_over = reply.status == _FINISHED
        seat = reply.viewer_seat
        self._views[seat if seat >= 0 else None] = (reply.version, reply.view)

    def wait_for(self, seat: int) -> None:
        """Follow Watch until ``seat`` is asked to decide or the game ends."""
        if self.over or seat in self.to_act:
            return
        request = self.messages.WatchRequest(game_id=self.game_id, from_version=self.version)
        stream = self.stub.Watch(
            request, metadata=metadata(self._token(seat)), timeout=WAIT_SECONDS
        )
        try:
            for reply in stream:
                event = reply.event
                if event.version <= self.version:
                    continue
                self.version, self.to_act = event.version, list(event.to_act)
                self.history.append((event.seat, Action(event.kind, (), event.label)))
                self.status_over = event.status == _FINISHED
                if self.status_over or seat in self.to_act:
                    return
        finally:
            stream.cancel()

    # -- the table's interface (as Match) -----------------------------------------------

    @property
    def over(self) -> bool:
        return self.status_over

    @property
    def current(self) -> int:
        return min(self.to_act) if self.to_act and not self.over else -1

    def asked(self, seat: int) -> bool:
        """True when ``seat`` is among the seats asked to decide now."""
        return not self.over and seat in self.to_act

    def legal_messages(self, seat: int, preview: bool = False) -> list[Any]:
        """The seat's ``LegalAction`` messages at the current version."""
        return self._legal_of(seat, preview)[1]

    def _legal_of(self, seat: int, preview: bool = False) -> tuple[int, list, list, list]:
        cached = self._legal.get(seat)
        if cached is not None and cached[0] == self.version and not preview:
            return cached
        if seat not in self.tokens or seat not in self.to_act:
            return (self.version, [], [], [])
        request = self.messages.LegalRequest(game_id=self.game_id)
        if preview and supports_preview(self.messages):
            request.with_score_preview = True
        reply = self.stub.Legal(request, metadata=metadata(self.tokens[seat]))
        actions = [engine_action(a) for a in reply.actions]
        entry = (reply.version, list(reply.actions), actions, self.space.indices(actions))
        self._legal[seat] = entry
        return entry

    def legal(self, seat: int | None = None) -> list[Action]:
        return self._legal_of(self.current if seat is None else seat)[2]

    def legal_indices(self, seat: int | None = None) -> list[int]:
        return self._legal_of(self.current if seat is None else seat)[3]

    def mask(self, seat: int | None = None) -> np.ndarray:
        mask = np.zeros(self.space.n, np.int8)
        mask[self.legal_indices(seat)] = 1
        return mask

    def apply_id(self, seat: int, action_id: int, version: int) -> None:
        """Apply the seat's legal action ``action_id`` of ``version``."""
        request = self.messages.ApplyRequest(
            game_id=self.game_id,
            expected_version=version,
            request_id=uuid.uuid4().hex,
            action_id=action_id,
            omit_view=True,
        )
        reply = self.stub.Apply(request, metadata=metadata(self.tokens[seat]))
        self.version, self.to_act = reply.version, list(reply.to_act)
        self.status_over = reply.status == _FINISHED
        self.history.append((seat, Action(reply.event.kind, (), reply.event.label)))

    def step(self, index: int, seat: int | None = None) -> Action:
        seat = self.current if seat is None else seat
        version, messages, actions, indices = self._legal_of(seat)
        try:
            position = indices.index(index)
        except ValueError:
            raise ValueError(f"action {index} is not legal now") from None
        self.apply_id(seat, messages[position].ref.id, version)
        return actions[position]

    def view_message(self, seat: int | None) -> Any:
        """The seat's ``View`` message at the current version (GetState)."""
        cached = self._views.get(seat)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        token = self.tokens.get(seat) if seat is not None else None
        reply = self.stub.GetState(
            self.messages.GetStateRequest(game_id=self.game_id), metadata=metadata(token)
        )
        self._views[seat] = (reply.version, reply.view)
        return reply.view

    def view(self, seat: int | None) -> dict[str, Any]:
        return to_values(self.view_message(seat))

    def observe(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        return self.encoder.encode(self.view(seat), out)

    def _board(self) -> Any:
        if self._scores is None or self._scores[0] != self.version:
            reply = self.stub.Score(
                self.messages.ScoreRequest(game_id=self.game_id),
                metadata=metadata(self._token(None)),
            )
            self._scores = (self.version, reply.scoreboard)
        return self._scores[1]

    def scores(self) -> list[int]:
        totals = [0] * self.players
        for seat_score in self._board().seats:
            totals[seat_score.seat] = seat_score.total
        return totals

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        return outcome(board_of(self._board()), self.players)

    def close(self) -> None:
        self.channel.close()


_FINISHED = 2  # roost.common.v1.GameStatus GAME_STATUS_FINISHED


def board_of(message: Any) -> ScoreBoard:
    """A service ``ScoreBoard`` as the engine contract's (for :func:`outcome`)."""
    seats = [SeatScore(s.seat, s.total, rank=s.rank) for s in message.seats]
    solo = None
    if message.HasField("solo"):
        solo = SoloResult(message.solo.won)
    return ScoreBoard(seats, message.final, solo=solo)


class BotSeats:
    """Roost's bot policies playing some seats of a remote table through the service."""

    def __init__(self, table: RemoteTable, kinds: Mapping[int, str], seed: int = 0) -> None:
        import random

        from clients.bots.policies import make

        preview = supports_preview(table.messages)
        rng = random.Random(seed)
        self.table = table
        self.policies = {seat: make(k, preview, rng, table.game) for seat, k in kinds.items()}

    def __call__(self, table: RemoteTable, seat: int) -> int:
        policy = self.policies[seat]
        _version, messages, _, indices = table._legal_of(seat, preview=policy.wants_preview)
        view = table.view_message(seat) if policy.wants_view else None
        return indices[policy.choose(messages, view)]


def remote_pettingzoo_env(game: str, address: str, players: int = 2, **kwargs: Any) -> Any:
    """The PettingZoo AEC environment on the service at ``address`` (every seat an agent)."""
    from clients.ai.aec import RoostAEC

    return RoostAEC(
        game, players, table=lambda seed: RemoteTable(game, address, players, seed), **kwargs
    )


def remote_gym_env(
    game: str,
    address: str,
    players: int = 2,
    seat: int = 0,
    opponents: str | Sequence[str] = "random",
    **kwargs: Any,
) -> Any:
    """The Gymnasium environment of ``seat`` on the service at ``address``; the other
    seats are Roost's bots of ``opponents`` (one kind, or one per other seat) playing
    through the service."""
    from clients.ai.gym import RoostGym

    others = [s for s in range(players) if s != seat]
    kinds = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
    holder: dict[str, Any] = {}

    def table(seed: int) -> RemoteTable:
        made = RemoteTable(game, address, players, seed)
        bots = BotSeats(made, dict(zip(others, kinds, strict=True)), seed)
        holder["bots"] = bots
        return made

    def opponent(table: RemoteTable, other: int) -> int:
        return holder["bots"](table, other)

    return RoostGym(game, players, seat=seat, opponents=opponent, table=table, **kwargs)


def join_gym_env(
    game: str, address: str, game_id: str, seat: int, token: str, players: int = 2, **kwargs: Any
) -> Any:
    """The Gymnasium environment of ``seat`` in an existing game (``game_id``, the
    seat's ``token``): the other seats are whoever holds their tokens (Roost's bots,
    people, other agents), followed through Watch. The game is the one given, so
    ``reset`` joins it where it stands and can be called once."""
    from clients.ai.gym import RoostGym

    def table(seed: int) -> RemoteTable:
        return RemoteTable(game, address, players, game_id=game_id, tokens={seat: token})

    return RoostGym(game, players, seat=seat, opponents=None, table=table, **kwargs)

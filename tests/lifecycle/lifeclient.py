"""A test client for the lifecycle RPCs over a game's generated stub (real gRPC)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import grpc
from roost.common.v1 import common_pb2

from services.core.game_service import GameSpec
from tests.harness import ServerHandle
from tests.service_contract import Client, error_reason

FINISHED = common_pb2.GAME_STATUS_FINISHED
ABORTED = common_pb2.GAME_STATUS_ABORTED
IN_PROGRESS = common_pb2.GAME_STATUS_IN_PROGRESS


def time_control(**fields: Any) -> common_pb2.TimeControl:
    """A TimeControl message (policy by short name: "bot" or "forfeit")."""
    policy = fields.pop("policy", "forfeit")
    fields["on_timeout"] = (
        common_pb2.TIMEOUT_POLICY_HOUSE_BOT
        if policy == "bot"
        else common_pb2.TIMEOUT_POLICY_FORFEIT
    )
    return common_pb2.TimeControl(**fields)


class LifeClient(Client):
    """The contract tests' client plus time control and the lifecycle RPCs."""

    def __init__(self, handle: ServerHandle, spec: GameSpec) -> None:
        super().__init__(handle, spec)

    def new_timed(
        self, players: int, tc: common_pb2.TimeControl | None, seed: int = 7, names=()
    ) -> Any:
        """NewGame with a time control (None: untimed)."""
        common = common_pb2.CommonOptions(players=players, seed=seed, seat_names=list(names))
        if tc is not None:
            common.time_control.CopyFrom(tc)
        return self.stub.NewGame(self.m.NewGameRequest(common=common), timeout=30)

    def resign(self, game_id: str, token: str) -> Any:
        """Resign as the token's seat."""
        return self.stub.Resign(
            self.m.ResignRequest(game_id=game_id), metadata=self.md(token), timeout=30
        )

    def abort(self, game_id: str, token: str) -> Any:
        """Abort as the token's seat."""
        return self.stub.Abort(
            self.m.AbortRequest(game_id=game_id), metadata=self.md(token), timeout=30
        )

    def offer_rematch(self, game_id: str, token: str) -> Any:
        """OfferRematch as the token's seat."""
        return self.stub.OfferRematch(
            self.m.OfferRematchRequest(game_id=game_id), metadata=self.md(token), timeout=30
        ).rematch

    def accept_rematch(self, game_id: str, token: str) -> Any:
        """AcceptRematch as the token's seat."""
        return self.stub.AcceptRematch(
            self.m.AcceptRematchRequest(game_id=game_id), metadata=self.md(token), timeout=30
        ).rematch

    def wait_state(self, game_id: str, until: Callable[[Any], bool], timeout: float = 20.0) -> Any:
        """GetState until ``until(state)`` holds (polled; fails after ``timeout``)."""
        end = time.monotonic() + timeout
        while True:
            state = self.state(game_id)
            if until(state):
                return state
            if time.monotonic() > end:
                raise AssertionError(f"condition not met; last state version {state.version}")
            time.sleep(0.02)

    def play_one(self, game_id: str, tokens: dict[int, str], seat: int, rng: random.Random) -> Any:
        """One random legal decision of ``seat`` at the current version."""
        legal = self.legal(game_id, tokens[seat])
        return self.apply(
            game_id, tokens[seat], legal.version, action_id=rng.randrange(len(legal.actions))
        )

    def play_until_all_decided(
        self, created: Any, rng: random.Random
    ) -> tuple[dict[int, str], set[int]]:
        """Random decisions until every seat has made one; returns the tokens and the seats."""
        tokens = {c.seat: c.token for c in created.credentials}
        decided: set[int] = set()
        players = len(tokens)
        while len(decided) < players:
            state = self.state(created.game_id)
            seat = state.to_act[0]
            self.play_one(created.game_id, tokens, seat, rng)
            decided.add(seat)
        return tokens, decided


def rejected_reason(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str]:
    """The status and ErrorInfo reason of a call that must fail."""
    try:
        call()
    except grpc.RpcError as error:
        return error.code(), error_reason(error)
    raise AssertionError("the call was accepted")

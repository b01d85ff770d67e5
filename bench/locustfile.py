"""Exploratory load on one game service with locust (the optional ``load`` extra).

    pip install '.[load]'
    ROOST_GAME=undertheleaves locust -f bench/locustfile.py --host 127.0.0.1:50054

Each simulated user creates a game (``ROOST_PLAYERS`` seats, default 2) and plays
every seat with uniformly random legal actions to the end, over the generated
stubs (blocking gRPC, made cooperative with gevent). Every call is reported to
locust by method name, with its status code on failure.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import grpc
import grpc.experimental.gevent as grpc_gevent
from locust import User, between, events, task
from roost.common.v1 import common_pb2

from clients import registry
from clients.games import new_game_request

grpc_gevent.init_gevent()

GAME = os.environ.get("ROOST_GAME", "undertheleaves")
PLAYERS = int(os.environ.get("ROOST_PLAYERS", "2"))
FINISHED = common_pb2.GAME_STATUS_FINISHED


class GameUser(User):
    """Plays whole random games against ``--host`` (host:port of the game service)."""

    wait_time = between(0.0, 0.1)

    def on_start(self) -> None:
        info = registry.game(GAME)
        self.m = info.messages()
        self.channel = grpc.insecure_channel(self.host or info.address())
        self.stub = info.stub(self.channel)
        self.rng = random.Random()

    def on_stop(self) -> None:
        self.channel.close()

    def _call(self, method: str, request: Any, token: str | None = None) -> Any:
        started = time.perf_counter()
        metadata = (("x-seat-token", token),) if token else ()
        try:
            reply = getattr(self.stub, method)(request, metadata=metadata, timeout=30)
        except grpc.RpcError as error:
            events.request.fire(
                request_type="grpc",
                name=method,
                response_time=(time.perf_counter() - started) * 1000,
                response_length=0,
                exception=error,
                context={"code": error.code().name},
            )
            raise
        events.request.fire(
            request_type="grpc",
            name=method,
            response_time=(time.perf_counter() - started) * 1000,
            response_length=reply.ByteSize(),
            exception=None,
            context={},
        )
        return reply

    @task
    def play_a_game(self) -> None:
        created = self._call("NewGame", new_game_request(self.m, PLAYERS))
        tokens = {c.seat: c.token for c in created.credentials}
        to_act = list(created.to_act)
        while to_act:
            seat = self.rng.choice(to_act)
            legal = self._call("Legal", self.m.LegalRequest(game_id=created.game_id), tokens[seat])
            if not legal.actions:
                break
            try:
                reply = self._call(
                    "Apply",
                    self.m.ApplyRequest(
                        game_id=created.game_id,
                        expected_version=legal.version,
                        action_id=self.rng.randrange(len(legal.actions)),
                    ),
                    tokens[seat],
                )
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.ABORTED:
                    continue
                raise
            to_act = list(reply.to_act)
            if reply.status == FINISHED:
                break

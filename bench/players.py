"""A patient client for fault tests: plays a game to the end with random legal
choices, retrying what a client may retry, and keeps every acknowledged Apply."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis
from roost.common.v1 import common_pb2

from services.core.game_service import GameSpec
from services.core.store import events_key

FINISHED = common_pb2.GAME_STATUS_FINISHED
#: Codes a well-behaved client retries (the same request id makes it safe).
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


@dataclass
class Acknowledged:
    """One Apply the server answered OK: what a lost write would contradict."""

    game_id: str
    version: int
    seat: int
    kind: str


@dataclass
class Player:
    """Plays one game through ``address`` until it ends or ``deadline`` passes."""

    spec: GameSpec
    address: str
    players: int
    seed: int
    codes: Counter[str] = field(default_factory=Counter)
    acknowledged: list[Acknowledged] = field(default_factory=list)
    game_id: str = ""
    finished: bool = False

    def _stub(self, channel: grpc.Channel) -> Any:
        short = self.spec.service_name.rsplit(".", 1)[1]
        return getattr(self.spec.grpc_module, f"{short}Stub")(channel)

    def _call(self, method: Any, request: Any, deadline: float, **kwargs: Any) -> Any:
        """One call, retried with backoff while the failure is retryable."""
        delay = 0.05
        while True:
            try:
                reply = method(request, timeout=3, **kwargs)
                self.codes["OK"] += 1
                return reply
            except grpc.RpcError as error:
                self.codes[error.code().name] += 1
                if error.code() not in RETRYABLE or time.monotonic() > deadline:
                    raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)

    def play(self, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        rng = random.Random(self.seed)
        m = self.spec.messages
        with grpc.insecure_channel(self.address) as channel:
            stub = self._stub(channel)
            created = self._call(
                stub.NewGame,
                m.NewGameRequest(
                    common=common_pb2.CommonOptions(players=self.players, seed=self.seed)
                ),
                deadline,
            )
            self.game_id = created.game_id
            tokens = {c.seat: c.token for c in created.credentials}
            while time.monotonic() < deadline:
                state = self._call(stub.GetState, m.GetStateRequest(game_id=self.game_id), deadline)
                if state.status == FINISHED:
                    self.finished = True
                    return
                seat = rng.choice(list(state.to_act))
                metadata = [("x-seat-token", tokens[seat])]
                legal = self._call(
                    stub.Legal, m.LegalRequest(game_id=self.game_id), deadline, metadata=metadata
                )
                if legal.version != state.version or not legal.actions:
                    continue
                choice = rng.randrange(len(legal.actions))
                request = m.ApplyRequest(
                    game_id=self.game_id, expected_version=legal.version,
                    action_id=choice, request_id=uuid.uuid4().hex,
                )  # fmt: skip
                try:
                    reply = self._call(stub.Apply, request, deadline, metadata=metadata)
                except grpc.RpcError as error:
                    if error.code() == grpc.StatusCode.ABORTED:
                        continue  # another seat moved first: read again
                    raise
                self.acknowledged.append(
                    Acknowledged(self.game_id, reply.version, seat, reply.event.kind)
                )
        raise AssertionError(f"game {self.game_id} did not end in {seconds} s")


def play_through(
    spec: GameSpec, address: str, games: int, fault: Callable[[], None], *, seed: int = 7000,
    seconds: float = 150,
) -> list[Player]:  # fmt: skip
    """Play ``games`` two-player games at once, call ``fault`` once they are
    under way (4 Applies acknowledged per game on average), and wait for every
    game to end. Raises the first error a player met."""
    players = [Player(spec, address, 2, seed=seed + n) for n in range(games)]
    errors: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            player.play(seconds=seconds)
        except BaseException as error:  # raised below, in the caller's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    while sum(len(p.acknowledged) for p in players) < 4 * games and not errors:
        time.sleep(0.01)
    fault()
    for thread in threads:
        thread.join(seconds + 30)
    if errors:
        raise errors[0]
    return players


def lost_acknowledged(url: str, players: list[Player]) -> list[Acknowledged]:
    """Acknowledged Applies that the stored stream does not hold as acknowledged
    (missing, or another seat's or kind's decision at that version)."""
    raw = redis.Redis.from_url(url)
    lost = []
    for player in players:
        stored = {
            int(entry_id.split(b"-")[0]): fields
            for entry_id, fields in raw.xrange(events_key(player.game_id))
        }
        for ack in player.acknowledged:
            fields = stored.get(ack.version)
            if (
                fields is None
                or fields[b"s"] != str(ack.seat).encode()
                or fields[b"k"] != ack.kind.encode()
            ):
                lost.append(ack)
    raw.close()
    return lost

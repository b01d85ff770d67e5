"""The figures behind docs/RELIABILITY.md: races, retries and faults survived.

    python -m bench.reliability [--races 200] [--retries 200] [--games 8]

Runs against real processes: a Redis with AOF (``appendfsync always``) and one
Under the Leaves service process, both on loopback.

* **Races**: for each trial, 8 clients send an Apply on the same version at
  once (different request ids); counts how many won (must be exactly one) and
  what the others got.
* **Retries**: each Apply is sent three times with the same request id (twice
  one after the other, once concurrently with the first); counts how many
  versions it produced (must be one) and whether every reply was the same.
* **Faults**: games played by patient clients (retrying UNAVAILABLE with the same
  request id) while Redis is SIGKILLed and restarted from its AOF, then while the
  service is SIGKILLed and restarted; counts the Applies acknowledged and those
  lost (an acknowledged version missing from the stored stream), and the status
  codes the clients saw.

Writes the "figures" section of docs/RELIABILITY.md.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import redis
from grpc_health.v1 import health_pb2
from roost.undertheleaves.v1 import service_pb2, service_pb2_grpc

from bench.players import lost_acknowledged, play_through
from bench.processes import durable_redis, service_process, wait_health
from bench.report import machine, write_section
from services.core.store import events_key
from services.undertheleaves.service import SPEC

MODULE = "services.undertheleaves"
DOC = Path(__file__).resolve().parent.parent / "docs" / "RELIABILITY.md"
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def _new_game(stub: service_pb2_grpc.UnderTheLeavesStub, seed: int) -> tuple[str, str]:
    created = stub.NewGame(service_pb2.NewGameRequest(common={"players": 2, "seed": seed}))
    seat = created.to_act[0]
    return created.game_id, created.credentials[seat].token


def races(address: str, trials: int) -> tuple[Counter[int], Counter[str]]:
    """Winners per trial, and the codes of every attempt."""
    winners: Counter[int] = Counter()
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(address) as channel, ThreadPoolExecutor(8) as pool:
        stub = service_pb2_grpc.UnderTheLeavesStub(channel)
        for trial in range(trials):
            game_id, token = _new_game(stub, 50_000 + trial)
            start = threading.Barrier(8)

            def attempt(_: int, game_id: str = game_id, token: str = token, start=start) -> str:
                request = service_pb2.ApplyRequest(
                    game_id=game_id, expected_version=1, action_id=0,
                    request_id=uuid.uuid4().hex,
                )  # fmt: skip
                start.wait()
                try:
                    stub.Apply(request, metadata=[("x-seat-token", token)], timeout=10)
                    return "OK"
                except grpc.RpcError as error:
                    return error.code().name

            outcome = list(pool.map(attempt, range(8)))
            codes.update(outcome)
            winners[outcome.count("OK")] += 1
    return winners, codes


def retries(address: str, url: str, count: int) -> tuple[Counter[int], int]:
    """Versions produced per retried Apply, and how many had differing replies."""
    produced: Counter[int] = Counter()
    differing = 0
    raw = redis.Redis.from_url(url)
    with grpc.insecure_channel(address) as channel, ThreadPoolExecutor(2) as pool:
        stub = service_pb2_grpc.UnderTheLeavesStub(channel)
        for n in range(count):
            game_id, token = _new_game(stub, 60_000 + n)
            request = service_pb2.ApplyRequest(
                game_id=game_id, expected_version=1, action_id=0, request_id=uuid.uuid4().hex
            )

            def send(_: int, request: service_pb2.ApplyRequest = request, token: str = token):
                return stub.Apply(request, metadata=[("x-seat-token", token)], timeout=10)

            replies = [*pool.map(send, range(2)), send(0)]
            differing += len({r.SerializeToString() for r in replies}) > 1
            produced[raw.xlen(events_key(game_id)) - 1] += 1
    raw.close()
    return produced, differing


def faults(games: int) -> list[tuple[str, int, int, Counter[str], float]]:
    """(fault, Applies acknowledged, acknowledged lost, codes seen, seconds down)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("Redis SIGKILLed, restarted from its AOF", "service SIGKILLed, restarted"):
            with (
                durable_redis() as store,
                service_process(MODULE, SPEC.service_name, store.url, Path(tmp)) as svc,
            ):
                down: dict[str, float] = {}

                def fault(name: str = name, store=store, svc=svc, down=down) -> None:
                    started = time.monotonic()
                    if name.startswith("Redis"):
                        store.kill()
                        wait_health(svc.address, SPEC.service_name, NOT_SERVING)
                        time.sleep(1.0)
                        store.start()
                        wait_health(svc.address, SPEC.service_name, SERVING)
                    else:
                        svc.kill()
                        time.sleep(0.5)
                        svc.start()
                    down["seconds"] = time.monotonic() - started

                players = play_through(SPEC, svc.address, games, fault, seed=9000, seconds=300)
                lost = len(lost_acknowledged(store.url, players))
                codes: Counter[str] = Counter()
                for player in players:
                    codes.update(player.codes)
                acknowledged = sum(len(p.acknowledged) for p in players)
                rows.append((name, acknowledged, lost, codes, down["seconds"]))
    return rows


def _codes(codes: Counter[str]) -> str:
    return ", ".join(f"{code} {count:,}" for code, count in sorted(codes.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--retries", type=int, default=200)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        durable_redis() as store,
        service_process(MODULE, SPEC.service_name, store.url, Path(tmp)) as svc,
    ):
        winners, race_codes = races(svc.address, args.races)
        produced, differing = retries(svc.address, store.url, args.retries)
    fault_rows = faults(args.games)
    lines = [
        f"Command: `python -m bench.reliability --races {args.races} --retries {args.retries} "
        f"--games {args.games}` ({machine()}; Redis with AOF, one Under the Leaves service "
        "process, clients in the same machine).",
        "",
        "| promise | trials | result |",
        "|---|---:|---|",
        f"| one winner per version (8 concurrent Applies on one version) | {args.races:,} "
        f"| winners per trial: {dict(sorted(winners.items()))}; attempts: {_codes(race_codes)} |",
        f"| a retried request id is applied once (3 sends, 2 of them concurrent) "
        f"| {args.retries:,} | versions produced per request: {dict(sorted(produced.items()))}; "
        f"requests whose replies differed: {differing} |",
    ]
    for name, acknowledged, lost, codes, seconds in fault_rows:
        lines.append(
            f"| no acknowledged Apply lost: {name} mid-games ({args.games} games) "
            f"| {acknowledged:,} acknowledged | lost: {lost}; out for {seconds:.1f} s; "
            f"calls seen: {_codes(codes)} |"
        )
    print("\n".join(lines))
    if not args.no_write:
        write_section("figures", "\n".join(lines), DOC)


if __name__ == "__main__":
    main()

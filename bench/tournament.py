"""Tournament throughput over gRPC for every implemented game.

    python -m bench.tournament [--games K] [--concurrency C] [--players N]
                               [--bots random] [--duel-games D] [--only GAME ...]
                               [--service-processes P ...] [--no-write]

For each implemented game (``services/<game>/__main__.py`` exists) it starts the
game service as its own process on a free loopback port over a local Redis
(or ``REDIS_URL``), or P of them (replicas, each on its own port, as a
deployment scales a service; the client spreads the games over them), runs
``roost tournament ... --json`` against it as a separate process, and writes
games/s, decisions/s and RPC latency (the throughput run, ``--bots``), and
wins, scores and ratings of random against greedy (the duel, ``--duel-games``),
into the ``tournament`` section of docs/BENCHMARKS.md (only that section is
rewritten).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench.cpu_time import cpu_seconds
from bench.report import machine, write_section
from services.core.redis_server import free_port, start_local_redis
from services.registry import GAMES, ServiceEntry

ROOT = Path(__file__).resolve().parent.parent


def implemented() -> list[ServiceEntry]:
    """Games whose service package has a ``__main__``."""
    return [g for g in GAMES if (ROOT / "services" / g.name / "__main__.py").exists()]


def start_service(entry: ServiceEntry, redis_url: str) -> tuple[subprocess.Popen[bytes], str]:
    """The game's service as its own quiet process on a free port (metrics off,
    warnings only): the process and its address, not yet waited for."""
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "METRICS_PORT": "0",
        "LOG_LEVEL": "warning",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", entry.module], env=env, cwd=ROOT, stdout=subprocess.DEVNULL
    )
    return server, f"127.0.0.1:{port}"


def _wait_healthy(address: str, service: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"{service} exited with {process.returncode}")
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                time.sleep(0.1)
    raise RuntimeError(f"{service} did not become healthy")


def _children_cpu_seconds() -> float:
    """User + system CPU seconds of this process's finished (waited-for) children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _per_decision_ms(seconds: float | None, decisions: int) -> float | None:
    return None if seconds is None else 1000.0 * seconds / max(decisions, 1)


def _cpu_delta(pid: int | None, before: float | None) -> float | None:
    after = cpu_seconds(pid) if pid is not None else None
    return None if after is None or before is None else after - before


def _services_cpu(pids: list[int]) -> float | None:
    readings = [cpu_seconds(pid) for pid in pids]
    return None if any(r is None for r in readings) else sum(readings)  # type: ignore[misc]


def run_game(
    entry: ServiceEntry,
    redis_url: str,
    args: argparse.Namespace,
    redis_pid: int | None = None,
    processes: int = 1,
) -> list[dict[str, Any]]:
    """Serve one game (``processes`` replicas) and run the tournaments against it;
    their JSON reports, each with the CPU milliseconds per decision of the
    service (all its replicas), the tournament client (every bot of the run) and
    Redis (when it is ours) over that run."""
    servers: list[subprocess.Popen[bytes]] = []
    addresses = []
    for _ in range(processes):
        server, address = start_service(entry, redis_url)
        servers.append(server)
        addresses.append(address)
    pids = [server.pid for server in servers]
    try:
        for address, server in zip(addresses, servers, strict=True):
            _wait_healthy(address, entry.service_name, server)
        address = ",".join(addresses)
        runs = [(args.games, args.concurrency, args.bots)]
        if args.duel_games:
            runs.append((args.duel_games, args.concurrency, "random,greedy"))
        reports = []
        for games, concurrency, bots in runs:
            command = [
                "tournament", "--game", entry.name, "--players", str(args.players),
                "--games", str(games), "--concurrency", str(concurrency),
                "--bots", bots, "--seed", "1", "--json",
            ]  # fmt: skip
            service_before = _services_cpu(pids)
            redis_before = cpu_seconds(redis_pid) if redis_pid is not None else None
            client_before = _children_cpu_seconds()
            result = subprocess.run(
                [sys.executable, "-m", "clients.cli.main", *command, "--target", address],
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=1800,
            )
            if result.returncode not in (0, 1):
                raise RuntimeError(
                    f"{entry.name}: roost exited {result.returncode}: {result.stderr}"
                )
            report = json.loads(result.stdout)
            decisions = report["decisions"]
            report["cpu_ms_per_decision"] = {
                "service": _per_decision_ms(
                    None if service_before is None else _services_cpu(pids) - service_before,
                    decisions,
                ),
                # The client's own figure leaves out its start-up (imports); the
                # child's whole CPU time is the fallback.
                "client": _per_decision_ms(
                    report.get("client_cpu_seconds", _children_cpu_seconds() - client_before),
                    decisions,
                ),
                "redis": _per_decision_ms(_cpu_delta(redis_pid, redis_before), decisions),
            }
            report["command"] = "roost " + shlex.join(command)
            report["service_processes"] = processes
            reports.append(report)
        return reports
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)


def _lat(report: dict[str, Any], method: str) -> str:
    row = report["rpc_latency"].get(method)
    if not row:
        return "-"
    return f"{row['p50_ms']:.1f} / {row['p95_ms']:.1f} / {row['p99_ms']:.1f}"


def _cpu(report: dict[str, Any], part: str) -> str:
    value = report.get("cpu_ms_per_decision", {}).get(part)
    return "-" if value is None else f"{value:.2f}"


def _service_busy(report: dict[str, Any]) -> str:
    """The share of one core each service process used over the run (on average)."""
    value = report.get("cpu_ms_per_decision", {}).get("service")
    if value is None:
        return "-"
    processes = report.get("service_processes", 1)
    return f"{value * report['decisions_per_second'] / 1000 / processes:.2f}"


def _ceiling(report: dict[str, Any]) -> str:
    """Games/s if every core of the machine ran only this run's three processes at
    the CPU per decision measured (and the service's own core were no limit)."""
    parts = report.get("cpu_ms_per_decision", {})
    if any(parts.get(p) is None for p in ("service", "client", "redis")):
        return "-"
    total_ms = parts["service"] + parts["client"] + parts["redis"]
    decisions_per_game = report["decisions"] / max(report["games_finished"], 1)
    per_second = (os.cpu_count() or 1) * 1000.0 / max(total_ms, 1e-9)
    return f"{per_second / max(decisions_per_game, 1e-9):.1f}"


def _legal_per_decision(report: dict[str, Any]) -> str:
    calls = report["rpc_latency"].get("Legal", {}).get("calls", 0)
    return f"{calls / max(report['decisions'], 1):.3f}"


def section(reports: list[dict[str, Any]], argv: list[str], load: float | None = None) -> str:
    """The Markdown of the tournament section (``load``: the machine's one-minute
    load average when the run started, which the throughput figures depend on)."""
    lines = [
        "## Tournaments over gRPC",
        "",
        f"`python -m bench.tournament {shlex.join(argv)}`".replace(" `", "`"),
        f"on {machine()}, {os.cpu_count()} CPUs shared by Redis, the game service and the",
        "tournament client (each its own process). Bots are remote clients: their Watch",
        "(include_legal, skip_own_events) tells them when to act and what they may do,",
        "Apply's next_actions chain their consecutive decisions; Legal is their recovery",
        "only (Legal calls per decision). Latency is measured by the client, in",
        "milliseconds. CPU per decision is the user + system time each process spent over",
        "the run divided by the decisions applied: the game service (its Apply and the",
        "Watch streams of every seat, all its processes together; from /proc), the",
        "tournament client (all its bots; its own reading, start-up left out) and Redis",
        "(from /proc). Service busy: the share of one core each service process used (CPU",
        "ms per decision x decisions/s / processes; the gRPC library's own threads count",
        "too, so it can pass 1.00); near or above 1.00 the service is what limits the run,",
        "whatever the bots do. CPU ceiling: the games/s the machine's cores would give if",
        "they ran nothing but these processes at the CPU per decision measured. Service",
        "processes above 1 are replicas on their own ports, the client spreading the games",
        "over them in turn (`--service-processes`).",
        "",
        "| game | service processes | players | games | concurrency | bots | games/s "
        "| decisions/s "
        "| Apply p50/p95/p99 | Legal calls per decision "
        "| CPU ms/decision: service / client / Redis | service busy | CPU ceiling games/s "
        "| errors |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in [r for r in reports if len(r["bots"]) == 1] or reports:
        errors = ", ".join(f"{k} {v}" for k, v in r["errors_by_code"].items()) or "none"
        lines.append(
            f"| {r['game']} | {r.get('service_processes', 1)} | {r['players']} "
            f"| {r['games_finished']}/{r['games_requested']} "
            f"| {r['concurrency']} | {','.join(r['bots'])} | {r['games_per_second']:.2f} "
            f"| {r['decisions_per_second']:.0f} | {_lat(r, 'Apply')} | {_legal_per_decision(r)} "
            f"| {_cpu(r, 'service')} / {_cpu(r, 'client')} / {_cpu(r, 'redis')} "
            f"| {_service_busy(r)} | {_ceiling(r)} | {errors} |"
        )
    duels = [r for r in reports if len(r["bots"]) > 1]
    if duels:
        lines += [
            "",
            "Bots against each other (seats rotate; greedy = best one-ply `score_after`, the",
            "score previews that come with its actions; ratings are OpenSkill over these games):",
            "",
            "| game | games | games/s | random wins | greedy wins | random mean score "
            "| greedy mean score | random mu | greedy mu |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in duels:
            b = r["bots_summary"]
            lines.append(
                f"| {r['game']} | {r['games_finished']} | {r['games_per_second']:.2f} "
                f"| {b['random']['wins']} | {b['greedy']['wins']} "
                f"| {b['random']['mean_score']:.1f} | {b['greedy']['mean_score']:.1f} "
                f"| {b['random']['mu']:.1f} | {b['greedy']['mu']:.1f} |"
            )
    lines += ["", "The exact client commands (each run against the game's own service):", ""]
    lines += [f"- `{r['command']}`" for r in reports]
    if load is not None:
        lines += [
            "",
            f"The machine's load average was {load:.1f} when the run started (other work shared",
            "its cores): compare games/s and latencies only between runs of similar load.",
        ]
    lines += [
        "",
        "ABORTED would count decisions that really were stale (the bot then calls Legal and",
        "decides again); seats deciding at once in a simultaneous phase do not collide.",
    ]
    return "\n".join(lines)


def _print_line(game: str, report: dict[str, Any]) -> None:
    print(
        f"{game:<15} {','.join(report['bots']):<14} x{report['service_processes']} "
        f"{report['games_per_second']:7.2f} games/s "
        f"{report['decisions_per_second']:8.0f} decisions/s  "
        f"CPU ms/decision service {_cpu(report, 'service')} "
        f"client {_cpu(report, 'client')} redis {_cpu(report, 'redis')}  "
        f"service busy {_service_busy(report)}  errors {report['errors_by_code'] or 'none'}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Run and write the section."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="random", help="bots of the throughput run")
    parser.add_argument(
        "--duel-games", type=int, default=20, help="games of random vs greedy (0: none)"
    )
    parser.add_argument("--only", nargs="*", default=None, help="game names")
    parser.add_argument(
        "--service-processes",
        type=int,
        nargs="+",
        default=[1],
        metavar="P",
        help="run each game's service as P processes (replicas; one run per value given)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only")
    raw = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(raw)
    entries = [g for g in implemented() if args.only is None or g.name in args.only]
    load = os.getloadavg()[0]
    url = os.environ.get("REDIS_URL")
    local = None if url else start_local_redis()
    try:
        redis_url = url or local.url  # type: ignore[union-attr]
        reports = []
        for entry in entries:
            redis_pid = local.process.pid if local is not None else None
            for processes in args.service_processes:
                for report in run_game(entry, redis_url, args, redis_pid, processes):
                    _print_line(entry.name, report)
                    reports.append(report)
    finally:
        if local is not None:
            local.stop()
    text = section(reports, raw, load)
    if args.no_write:
        print(text)
    else:
        write_section("tournament", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``roost up``, ``roost down`` and ``roost games``: the local stack and what it serves."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from argparse import Namespace
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rich.console import Console
from rich.table import Table

from clients import registry, sessions
from clients.registry import ServiceInfo
from clients.rpc import CliError, Exit, channel

# ---------------------------------------------------------------------- up


def cmd_up(args: Namespace, console: Console) -> int:
    """Run ``python -m services.launcher``: in the foreground, or with --detach in the background.

    In the foreground Ctrl-C / SIGTERM stop it. Detached, its output goes to
    ``launcher.log`` in the log directory, the command returns once every
    service is ready, and ``roost down`` stops the stack.
    """
    command = [sys.executable, "-m", "services.launcher"]
    if args.log_to_terminal:
        command.append("--log-to-terminal")
    if not args.detach:
        process = subprocess.Popen(command)

        def forward(signum: int, _frame: Any) -> None:
            if process.poll() is None:
                process.send_signal(signum)

        previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            code = process.wait()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return code if code >= 0 else Exit.INTERRUPTED
    running = _stack_pid()
    if running:
        raise CliError(f"a detached stack already runs (pid {running}); stop it with `roost down`")
    logs = Path(os.environ.get("ROOST_LOG_DIR") or ".roost/logs").absolute()
    logs.mkdir(parents=True, exist_ok=True)
    log_path = logs / "launcher.log"
    with open(log_path, "ab") as log:
        start_offset = log.tell()
        process = subprocess.Popen(
            [c for c in command if c != "--log-to-terminal"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    (sessions.home() / "stack.json").write_text(
        json.dumps({"pid": process.pid, "log": str(log_path), "logs": str(logs)})
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        text = log_path.read_bytes()[start_offset:].decode(errors="replace")
        if "Roost is running" in text:
            print(text.rstrip(), flush=True)
            console.print(
                f"running in the background (pid {process.pid}); logs in {logs}; "
                "stop with `roost down`"
            )
            return Exit.OK
        if process.poll() is not None:
            raise CliError(f"the stack exited ({process.returncode}):\n{text.rstrip()}")
        time.sleep(0.2)
    raise CliError(f"the stack was not ready within 90 s; see {log_path}")


def _stack_pid() -> int | None:
    """The pid of the detached stack while it runs."""
    try:
        pid = int(json.loads((sessions.home() / "stack.json").read_text())["pid"])
        os.kill(pid, 0)
    except (OSError, ValueError, KeyError):
        return None
    return pid


def cmd_down(args: Namespace, console: Console) -> int:
    """Stop the stack started with ``roost up --detach`` (services drain, then Redis)."""
    pid = _stack_pid()
    if pid is None:
        console.print("no detached stack is running")
        return Exit.OK
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _stack_pid() == pid:
        time.sleep(0.2)
    with contextlib.suppress(OSError):
        (sessions.home() / "stack.json").unlink()
    console.print(f"stopped the stack (pid {pid})")
    return Exit.OK


# ------------------------------------------------------------------- games


def _health(address: str, service: str, timeout: float) -> str:
    with channel(address) as ch:
        try:
            reply = health_pb2_grpc.HealthStub(ch).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
        except grpc.RpcError as error:
            return (
                "unreachable"
                if error.code()
                in (
                    grpc.StatusCode.UNAVAILABLE,
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                )
                else error.code().name.lower()
            )
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status).lower()


def game_options(info: ServiceInfo) -> list[str]:
    """The fields of a game's Options message (what ``--options`` JSON may set)."""
    try:
        fields = info.messages().NewGameRequest.DESCRIPTOR.fields_by_name["options"]
    except (ImportError, KeyError):
        return []
    return [f.json_name for f in fields.message_type.fields]


def cmd_games(args: Namespace, console: Console) -> int:
    """List the services: players, options, addresses and whether they answer."""
    rows = []
    for info in (registry.MATCHMAKER, *registry.GAMES):
        address = info.address()
        rows.append(
            {
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": game_options(info) if info.max_players else [],
                "address": address,
                "address_variable": info.env_var,
                "stubs": info.available(),
                "health": _health(address, info.full_name, args.timeout),
            }
        )
    if args.json:
        print(json.dumps(rows))
        return Exit.OK
    table = Table(title="Roost services", title_justify="left")
    for column in ("name", "title", "players", "address", "health"):
        table.add_column(column, no_wrap=column in ("name", "address"))
    for row in rows:
        low, high = row["min_players"], row["max_players"]
        players = (f"{low}" if low == high else f"{low}-{high}") if high else ""
        stubs = "" if row["stubs"] else " (stubs missing: make proto)"
        table.add_row(row["name"], row["title"], players, row["address"], row["health"] + stubs)
    console.print(table)
    console.print("options (--options JSON, e.g. --options '{\"allowFlip\": false}'):")
    for row in rows:
        if row["options"]:
            console.print(f"  {row['name']}: {', '.join(row['options'])}", highlight=False)
    console.print("addresses: --target, or the variables in docs/CLI.md (GAME_ADDR_<NAME>, ...)")
    return Exit.OK


# --------------------------------------------------------------------- new

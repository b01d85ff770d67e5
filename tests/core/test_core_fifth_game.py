"""A fifth game is a folder and one registry entry (docs/ENGINE_GUIDE.md,
"The shortest path: a copy of a game").

The test copies Under the Leaves under the new name ``copygame`` into a temporary
copy of the repository: its service folder (services/copygame/) and its protos
(protos/roost/copygame/v1/), with the names inside them changed, plus one
``[[games]]`` entry in protos/roost/games.toml. Nothing else is written by hand.
It then runs the same generators ``make proto`` and ``make service-protos`` run
and shows the new game

- served: ``python -m services.copygame`` answers NewGame and Apply over gRPC;
- listed by the CLI: ``roost games --json`` has it, and its health is ``serving``;
- in the web lobby's registry: the generated web/src/registry.ts lists it, and
  the TypeScript client's generated table of clients (clients/typescript/src/services.ts) has it;
- played by the bots: ``roost tournament`` plays it to the end;
- in the rendered manifests: tools/gen_deploy.py writes its Deployment and
  Service and opens its port in the Dockerfile.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tests.waiting import wait_until

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SOURCE, SOURCE_SERVICE, SOURCE_TITLE = "undertheleaves", "UnderTheLeaves", "Under the Leaves"
NAME, SERVICE, TITLE = "copygame", "CopyGame", "Copy Game"
ENTRY = f"""
[[games]]
name = "{NAME}"
title = "{TITLE}"
service = "{SERVICE}"
default_port = 50059
min_players = 2
max_players = 4
note = "a copy of Under the Leaves"
"""
#: What the temporary repository needs besides the new game: the code, the
#: protos and registry, the generators and what they write into.
COPIED = ("services", "clients", "protos", "tools", "deploy", "web/src/registry.ts")


def _copy_folder(source: Path, target: Path) -> None:
    """Copy a game's folder with its names changed (module paths, proto package, service)."""
    for path in source.rglob("*"):
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        out = target / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        for old, new in ((SOURCE, NAME), (SOURCE_SERVICE, SERVICE), (SOURCE_TITLE, TITLE)):
            text = text.replace(old, new)
        out.write_text(text, encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository with the fifth game added and the generators run."""
    root = tmp_path_factory.mktemp("fifth") / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "node_modules", "gen", "dist")
    for part in COPIED:
        (root / part).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / part).is_dir():
            shutil.copytree(ROOT / part, root / part, ignore=ignore)
        else:
            shutil.copy2(ROOT / part, root / part)
    _copy_folder(ROOT / "services" / SOURCE, root / "services" / NAME)
    _copy_folder(ROOT / "protos" / "roost" / SOURCE, root / "protos" / "roost" / NAME)
    with (root / "protos" / "roost" / "games.toml").open("a", encoding="utf-8") as registry:
        registry.write(ENTRY)
    # make service-protos, then make proto (docs/ENGINE_GUIDE.md).
    tools = (
        "gen_service_protos",
        "gen_deploy",
        "gen_web_registry",
        "gen_ts_services",
        "gen_protos",
    )
    for tool in (f"{name}.py" for name in tools):
        subprocess.run([sys.executable, f"tools/{tool}"], cwd=root, env=_env(root), check=True)
    return root


def _env(root: Path, **extra: str) -> dict[str, str]:
    """The environment of a process of the temporary repository (its code first on the path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAME_ADDR_")}
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "gen")])
    env.update(extra)
    return env


def _run(root: Path, *args: str, **extra: str) -> str:
    env = _env(root, **extra)
    done = subprocess.run(
        [sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def served(repo: Path, redis_server_url: str) -> Iterator[str]:
    """``python -m services.copygame`` running from the temporary repository; its address."""
    port = _free_port()
    env = _env(
        repo, PORT=str(port), HOST="127.0.0.1", REDIS_URL=redis_server_url, CONNECT_PORT="off"
    )
    process = subprocess.Popen([sys.executable, "-m", f"services.{NAME}"], cwd=repo, env=env)
    address = f"127.0.0.1:{port}"
    try:
        with grpc.insecure_channel(address) as channel:
            wait_until(lambda: _answers(channel), f"{NAME} answering on {address}")
        yield address
    finally:
        process.terminate()
        process.wait(timeout=30)


def _answers(channel: grpc.Channel) -> bool:
    try:
        grpc.channel_ready_future(channel).result(timeout=0.5)
        return True
    except grpc.FutureTimeoutError:
        return False


def test_the_new_game_is_served_newgame_and_apply(repo: Path, served: str) -> None:
    """NewGame, Legal and Apply of the copy answer over gRPC (its generated stubs)."""
    script = f"""
import grpc, json
from roost.{NAME}.v1 import service_pb2 as pb, service_pb2_grpc as rpc
from roost.common.v1 import common_pb2
stub = rpc.{SERVICE}Stub(grpc.insecure_channel("{served}"))
made = stub.NewGame(pb.NewGameRequest(common=common_pb2.CommonOptions(players=2, seed=7)))
seat = made.to_act[0]
token = made.credentials[seat].token
meta = (("x-seat-token", token),)
legal = stub.Legal(pb.LegalRequest(game_id=made.game_id), metadata=meta)
reply = stub.Apply(pb.ApplyRequest(game_id=made.game_id, expected_version=legal.version,
    request_id="fifth-1", action_id=legal.actions[0].ref.id), metadata=meta)
print(json.dumps({{"created": made.version, "applied": reply.version}}))
"""
    versions = json.loads(_run(repo, "-c", script))
    assert versions["applied"] == versions["created"] + 1


def test_the_cli_lists_it_as_serving(repo: Path, served: str) -> None:
    """``roost games --json`` reads the registry: the copy is there and answers its health check."""
    out = _run(repo, "-m", "clients.cli.main", "games", "--json", GAME_ADDR_COPYGAME=served)
    rows = json.loads(out)
    row = next(r for r in rows if r["name"] == NAME)
    assert (row["title"], row["address"], row["health"]) == (TITLE, served, "serving")


def test_the_bots_play_it_to_the_end(repo: Path, served: str) -> None:
    """``roost tournament`` seats bots in the copy and finishes a game."""
    out = _run(
        repo, "-m", "clients.cli.main", "tournament", "--game", NAME, "--players", "2",
        "--games", "1", "--concurrency", "1", "--bots", "random,greedy", "--target", served,
        "--json",
    )  # fmt: skip
    games = json.loads(out)["games"]
    assert len(games) == 1 and games[0]["winners"], games


def test_the_web_lobby_registry_lists_it(repo: Path) -> None:
    """The generated web/src/registry.ts (the lobby's game list) has the copy and its descriptor."""
    text = (repo / "web" / "src" / "registry.ts").read_text(encoding="utf-8")
    assert f'name: "{NAME}"' in text and f'title: "{TITLE}"' in text
    assert f'import {{ {SERVICE} }} from "./gen/roost/{NAME}/v1/service_pb.js";' in text


def test_the_typescript_client_connects_to_it(repo: Path) -> None:
    """clients/typescript/src/services.ts, generated from the registry, has the copy's client."""
    text = (repo / "clients" / "typescript" / "src" / "services.ts").read_text(encoding="utf-8")
    assert f"case {SERVICE}.typeName:\n      return createClient({SERVICE}, transport);" in text


def test_the_rendered_manifests_deploy_it(repo: Path) -> None:
    """tools/gen_deploy.py wrote the copy's Deployment and Service; the image exposes its port."""
    manifest = (repo / "deploy" / "k8s" / "base" / f"{NAME}.yaml").read_text(encoding="utf-8")
    assert "kind: Deployment" in manifest and "kind: Service" in manifest
    k8s = repo / "deploy" / "k8s"

    def read(relative: str) -> str:
        return (k8s / relative).read_text(encoding="utf-8")

    assert f"{NAME}.yaml" in read("base/kustomization.yaml")
    assert f'value: "{NAME}:50059"' in read("base/matchmaking.yaml")  # the matchmaker finds it
    assert f"path: /roost.{NAME}.v1.{SERVICE}/" in read("browser/ingress.yaml")
    for relative in ("overlays/prod/hpa.yaml", "overlays/prod/pdb.yaml"):
        assert f"name: {NAME}" in read(relative), relative
    assert "50059" in (repo / "deploy" / "Dockerfile").read_text(encoding="utf-8")

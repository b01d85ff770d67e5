"""The one registry of services (protos/roost/games.toml, generated into
``roost.games``) agrees with everything that names a game: the protos and
their stubs, the rules engines, the services' specs, the clients, the README
and the Kubernetes manifests."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from roost import games as identities

from clients import registry as client_registry
from services import registry as service_registry
from services.core.config import CONNECT_PORT_OFFSET

ROOT = Path(__file__).resolve().parents[2]
GAMES = identities.GAMES
ALL = (identities.MATCHMAKER, *GAMES)


def _tool(name: str) -> ModuleType:
    """A script of tools/ loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_module_is_up_to_date() -> None:
    """``roost.games`` is protos/roost/games.toml as it is now (run ``make proto``)."""
    assert Path(identities.__file__).read_text() == _tool("gen_protos").registry_module()


@pytest.mark.parametrize("identity", ALL, ids=lambda i: i.name)
def test_every_service_is_in_its_proto(identity: identities.ServiceIdentity) -> None:
    """The proto package and service of the registry are those of the stubs."""
    messages = importlib.import_module(f"{identity.package}.{identity.proto_file}_pb2")
    assert messages.DESCRIPTOR.package == identity.package
    service = messages.DESCRIPTOR.services_by_name[identity.service]
    assert service.full_name == identity.full_name
    grpc_module = importlib.import_module(f"{identity.package}.{identity.proto_file}_pb2_grpc")
    assert hasattr(grpc_module, f"{identity.service}Stub")


def test_every_game_proto_and_service_package_is_registered() -> None:
    """No game has protos or a service package without a registry entry."""
    protos = {p.parts[-3] for p in (ROOT / "protos" / "roost").glob("*/v1/service.proto")}
    assert protos == set(identities.names())
    packages = {p.parent.parent.name for p in (ROOT / "services").glob("*/rules/__init__.py")}
    assert packages == set(identities.names())


@pytest.mark.parametrize("identity", GAMES, ids=lambda i: i.name)
def test_the_engines_player_counts_are_the_registrys(identity: identities.GameIdentity) -> None:
    """An engine's name and player counts are those of the registry."""
    engine = importlib.import_module(f"services.{identity.name}.rules").ENGINE
    assert engine.name == identity.name
    assert (engine.min_players, engine.max_players) == (
        identity.min_players,
        identity.max_players,
    )


@pytest.mark.parametrize("identity", GAMES, ids=lambda i: i.name)
def test_each_service_spec_serves_its_registry_entry(identity: identities.GameIdentity) -> None:
    """A game service's spec names its registry entry and its registered stubs."""
    spec = importlib.import_module(f"services.{identity.name}.service").SPEC
    assert (spec.name, spec.service_name, spec.default_port) == (
        identity.name,
        identity.full_name,
        identity.default_port,
    )
    assert spec.messages.DESCRIPTOR.services_by_name[identity.service]
    assert spec.engine is importlib.import_module(f"services.{identity.name}.rules").ENGINE


def test_ports_and_names_are_distinct() -> None:
    """No two services share a name, a title, a gRPC port or a metrics port (+1000)."""
    names = [i.name for i in ALL]
    titles = [i.title for i in ALL]
    ports = [i.default_port for i in ALL] + [i.default_port + 1000 for i in ALL]
    assert len(set(names)) == len(names)
    assert len(set(titles)) == len(titles)
    assert len(set(ports)) == len(ports)
    for game in GAMES:
        assert 1 <= game.min_players <= game.max_players


def test_the_services_and_the_clients_read_the_same_registry() -> None:
    """services.registry and clients.registry are views of roost.games, in its order."""
    assert [
        (e.name, e.service_name, e.default_port, e.min_players, e.max_players)
        for e in service_registry.SERVICES
    ] == [
        (i.name, i.full_name, i.default_port, *_players(i))
        for i in ALL  # the matchmaker first, then the games
    ]
    assert [e.name for e in service_registry.GAMES] == identities.names()
    clients = (client_registry.MATCHMAKER, *client_registry.GAMES)
    assert [
        (c.name, c.title, c.full_name, c.default_port, c.min_players, c.max_players)
        for c in clients
    ] == [(i.name, i.title, i.full_name, i.default_port, *_players(i)) for i in ALL]
    for client in clients:
        assert client.available(), client.name


def _players(identity: identities.ServiceIdentity) -> tuple[int, int]:
    if isinstance(identity, identities.GameIdentity):
        return identity.min_players, identity.max_players
    return 0, 0


def test_the_readme_table_is_the_registry() -> None:
    """README.md's table of services lists every registered service, right (with
    its browser port, the gRPC port + 2000)."""
    rows = re.findall(r"^\| (.+?) \| `(roost\.[\w.]+)` \| (\d+) \| (\d+) \|$", _readme(), re.M)
    assert [(title, service, int(port), int(http)) for title, service, port, http in rows] == [
        (
            i.title if i is not identities.MATCHMAKER else i.name,
            i.full_name,
            i.default_port,
            i.default_port + CONNECT_PORT_OFFSET,
        )
        for i in ALL
    ]


def _readme() -> str:
    return (ROOT / "README.md").read_text()


#: What a client may import from ``services``: a game's pure rules package (the
#: forward model of search bots) and the pure engine contract it is built on.
CLIENT_IMPORTABLE = re.compile(r"services\.(core\.engine|[a-z]+\.rules)(\.[a-z_]+)*")


def _client_imports() -> list[tuple[str, str]]:
    """(file, module) for every absolute import of ``services`` in ``clients/``."""
    found = []
    for path in sorted((ROOT / "clients").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
                if node.module in ("services", "services.core"):
                    modules = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            found += [
                (str(path.relative_to(ROOT)), m) for m in modules if m.split(".")[0] == "services"
            ]
    return found


def test_clients_import_only_the_pure_rules_from_services() -> None:
    """The clients import generated code and themselves; from ``services`` only a
    game's rules package (``services.<game>.rules``) and the engine contract
    (``services.core.engine``), never the platform (store, servers) nor a game's
    service adapter (README, Layout)."""
    offenders = [
        f"{path}: {m}" for path, m in _client_imports() if not CLIENT_IMPORTABLE.fullmatch(m)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "module",
    ["services.core.store", "services.core", "services.undertheleaves.service", "services"],
)
def test_the_client_import_rule_refuses_the_platform(module: str) -> None:
    """The rule above is not vacuous: the platform and the service adapters fail it."""
    assert not CLIENT_IMPORTABLE.fullmatch(module)
    assert CLIENT_IMPORTABLE.fullmatch("services.wingspan.rules.engine")


def test_the_rules_packages_load_no_platform() -> None:
    """Importing every rules package (what a search bot imports) loads nothing of
    the platform: no gRPC, no Redis, no ``services.core`` module but the engine
    contract, no service adapter. Checked in a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from roost import games\n"
        "import importlib\n"
        "for g in games.GAMES:\n"
        "    importlib.import_module(f'services.{g.name}.rules')\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT
    ).stdout.split()
    packages = re.compile(r"services(\.core|\.[a-z]+)?")  # their __init__: docstrings only
    platform = [
        m
        for m in loaded
        if m.split(".")[0] in ("grpc", "redis", "google")
        or (
            (m.startswith("services") and not CLIENT_IMPORTABLE.fullmatch(m))
            and not packages.fullmatch(m)
        )
    ]
    assert platform == []

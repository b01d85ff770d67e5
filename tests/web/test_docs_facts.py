"""The docs say what the product does: facts in README.md, docs/ and web/README.md
checked against the sources they describe (unit tier: files only, no sockets).

- README's count of a game service's RPCs is the count in every game's service.proto;
- every port a doc names for a service is that service's gRPC, metrics (+1000) or browser
  (+2000) port from protos/roost/games.toml, and every endpoint example maps a service to
  its own browser port;
- the Node.js version the docs, the Makefile, the launcher and web/package.json name is one
  version;
- each docs/games/<game>.md options table lists exactly the fields of that game's Options
  message;
- every repository path a doc names in backquotes exists;
- the web app has a favicon that exists.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "web/README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NUMBERS = {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def registry() -> list[dict]:
    """The [[games]] and matchmaker tables of the registry."""
    data = tomllib.loads((ROOT / "protos/roost/games.toml").read_text())
    return [
        t
        for key in data
        for t in (data[key] if isinstance(data[key], list) else [data[key]])
        if isinstance(t, dict) and "default_port" in t
    ]


def game_names() -> list[str]:
    return sorted(p.parent.parent.name for p in (ROOT / "protos/roost").glob("*/v1/service.proto"))


def test_readme_rpc_count_is_the_services_rpc_count() -> None:
    """README: "the same N RPCs" is the number of rpc lines of every game's service."""
    counts = {
        g: len(
            re.findall(
                r"^\s*rpc \w+", (ROOT / f"protos/roost/{g}/v1/service.proto").read_text(), re.M
            )
        )
        for g in game_names()
    }
    assert len(set(counts.values())) == 1, counts
    said = re.search(r"the same (\w+) RPCs", (ROOT / "README.md").read_text())
    assert said, "README.md no longer says how many RPCs a game service has"
    assert NUMBERS.get(said.group(1), said.group(1)) == next(iter(counts.values())), (
        said.group(0),
        counts,
    )


def test_ports_in_docs_are_the_registry_ports() -> None:
    """docs/WEB.md and README name only real ports; an endpoint example its browser port."""
    ports = {t["name"]: t["default_port"] for t in registry()}
    known = {p + offset for p in ports.values() for offset in (0, 1000, 2000)} | {8080}
    for doc in (ROOT / "README.md", ROOT / "docs/WEB.md"):
        text = doc.read_text()
        for port in re.findall(r"(?:localhost|devbox|127\.0\.0\.1):(\d{4,5})", text):
            assert int(port) in known, f"{doc.name} names port {port}, which no service has"
        for name, port in re.findall(r"(\w+): \"http://localhost:(\d+)\"", text):
            assert name in ports, f"{doc.name}: endpoint for an unknown service {name}"
            assert int(port) == ports[name] + 2000, (
                f"{doc.name}: {name}'s browser port is {ports[name] + 2000}, not {port}"
            )


def test_one_node_version_everywhere() -> None:
    """One Node.js floor: web/package.json's engines, the Makefile, the launcher, README, WEB.md."""
    floor = json.loads((ROOT / "web/package.json").read_text())["engines"]["node"].lstrip(">=")
    make = (ROOT / "Makefile").read_text()
    major, minor = floor.split(".")[:2]
    assert f"a > {major} || (a === {major} && b >= {minor})" in make, (
        "Makefile's NODE_OK checks another version"
    )
    texts = {
        p: (ROOT / p).read_text()
        for p in ("Makefile", "README.md", "docs/WEB.md", "services/webapp.py")
    }
    for path, text in texts.items():
        named = set(re.findall(r"Node\.js (\d+(?:\.\d+)?)", text))
        assert named == {floor}, f"{path} names Node.js {sorted(named)}, package.json needs {floor}"


def options_fields(game: str) -> set[str]:
    text = (ROOT / f"protos/roost/{game}/v1/options.proto").read_text()
    body = re.search(r"message Options \{(.*?)\n\}", text, re.S)
    return (
        set(re.findall(r"^\s*(?:optional |repeated )?\w+ (\w+) = \d+;", body.group(1), re.M))
        if body
        else set()
    )


@pytest.mark.parametrize("game", game_names())
def test_game_doc_options_are_the_options_fields(game: str) -> None:
    """docs/games/<game>.md's "Options" table lists the Options message's fields, no more."""
    text = (ROOT / f"docs/games/{game}.md").read_text()
    section = re.search(r"^## Options.*?\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, f"docs/games/{game}.md has no Options section"
    listed = set(re.findall(r"^\| `(\w+)` \|", section.group(1), re.M))
    assert listed == options_fields(game), (
        f"docs/games/{game}.md lists {sorted(listed)}, Options has {sorted(options_fields(game))}"
    )


#: Build output a doc may name: it exists once the build has run (``make web``, ``make proto``).
GENERATED = ("web/dist/", "gen/")

PATH = re.compile(
    r"^[\w.\-/]+\.(py|md|ts|mjs|js|proto|toml|json|ya?ml|txt|lua|sh|css|html|png|binpb)$"
)


def bases(doc: Path) -> list[Path]:
    """What a path in `doc` may be relative to: the root, its folder, the packages docs describe."""
    found = [
        ROOT,
        doc.parent,
        ROOT / "web",
        ROOT / "clients/typescript",
        ROOT / "deploy/k8s",
        ROOT / "deploy/k8s/overlays/prod",
    ]
    if doc.parent.name == "games":
        found.append(ROOT / "services" / doc.stem.replace("-how-to-play", ""))
    return found + sorted(p for p in (ROOT / "services").iterdir() if p.is_dir())


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_files_named_in_docs_exist(doc: Path) -> None:
    """A path in backquotes names a file of this repository (placeholders and URL paths aside)."""
    missing = []
    for token in re.findall(r"`([^`\s]+)`", doc.read_text()):
        path = token.split(":")[0].split("#")[0]
        if (
            "/" not in path
            or path.startswith(("/", "google/"))
            or not PATH.match(path)
            or "..." in path
            or path.startswith(GENERATED)
        ):
            continue
        if not any((base / path).exists() for base in bases(doc)):
            missing.append(path)
    assert not missing, (
        f"{doc.relative_to(ROOT)} names files that do not exist: {sorted(set(missing))}"
    )


def test_web_app_has_a_favicon() -> None:
    """index.html links an icon among the app's sources (the build hashes it into assets/)."""
    html = (ROOT / "web/index.html").read_text()
    icon = re.search(r'<link rel="icon"[^>]*href="/?([^"]+)"', html)
    assert icon, "web/index.html links no favicon"
    assert (ROOT / "web" / icon.group(1)).is_file(), icon.group(1)

"""Each game's rules reference (docs/games/<game>.md) names code and tests that
exist: a `module.name` of the game's rules package must be defined there, and a
`test_...` it names must be a test function or test file of the suite. A rename
that leaves the doc behind fails here."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The rules references: one per game, named as its service folder (the players'
#: "how to play" pages beside them are checked in tests/web/test_docs_facts.py).
GAMES = sorted(
    p.stem for p in (ROOT / "docs" / "games").glob("*.md") if (ROOT / "services" / p.stem).is_dir()
)
_REFERENCE = re.compile(r"`([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\(\))?`")
_TEST = re.compile(r"\btest_\w+")


def _defined_tests() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.add(path.name)
        names.add(path.stem)
        names.update(re.findall(r"^\s*(?:async )?def (test_\w+)", path.read_text(), re.M))
        names.update(re.findall(r"^class (Test\w+)", path.read_text(), re.M))
    return names


DEFINED = _defined_tests()


@pytest.mark.parametrize("game", GAMES)
def test_the_functions_a_game_doc_names_exist(game: str) -> None:
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    rules = ROOT / "services" / game / "rules"
    modules = {p.stem for p in rules.glob("*.py")}
    missing = []
    checked = 0
    for module, name in set(_REFERENCE.findall(text)):
        if module not in modules or name in ("py", "json", "md"):
            continue  # another package's name, or a file name
        owner = importlib.import_module(f"services.{game}.rules.{module}")
        checked += 1
        if not hasattr(owner, name):
            missing.append(f"{module}.{name}")
    assert not missing, sorted(missing)
    assert checked, "the doc names the functions that implement its rules"


@pytest.mark.parametrize("game", GAMES)
def test_the_tests_a_game_doc_names_exist(game: str) -> None:
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    named = {
        name.removesuffix(".py")
        for name in _TEST.findall(text)
        if not name.endswith("_") and "_NN_" not in name
    }
    assert named <= DEFINED, sorted(named - DEFINED)


def _numbered(text: str) -> set[int]:
    """The numbers of a page's ambiguity entries: table rows ``| N |`` or list items ``N.``."""
    return {int(n) for n in re.findall(r"^(?:\| (\d+) \||(\d+)\. )", text, re.M) for n in n if n}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_doc_resolves_every_numbered_ambiguity(game: str) -> None:
    """Every numbered item of the game's AMBIGUITIES.md (kept with its data), and every
    ambiguity the suite tests by number (``test_amb_NN_...``), has its entry on the page."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    section = text.split("## Ambiguity resolutions", 1)
    listed = _numbered(section[1].split("\n## ", 1)[0]) if len(section) == 2 else set()
    wanted: set[int] = set()
    data = ROOT / "services" / game / "rules" / "data" / "AMBIGUITIES.md"
    if data.exists():
        wanted |= {int(n) for n in re.findall(r"^(\d+)\. \*\*", data.read_text(), re.M)}
    for path in (ROOT / "tests" / game).glob("test_*.py"):
        wanted |= {int(n) for n in re.findall(r"^def test_amb_(\d+)_", path.read_text(), re.M)}
    if game == "wingspan":
        return  # the Wingspan summary lists no numbered ambiguities
    assert wanted, "the game's ambiguities are known by number"
    assert wanted <= listed, sorted(wanted - listed)

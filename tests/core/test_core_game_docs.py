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
GAMES = sorted(p.stem for p in (ROOT / "docs" / "games").glob("*.md"))
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

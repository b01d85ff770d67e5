"""docs/games/skygarden.md stays true: every test and function it names exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "games" / "skygarden.md").read_text()
NAMES = re.findall(r"`([A-Za-z_][\w.]*)", DOC)


def test_named_tests_exist() -> None:
    """Each `test_...` the doc names is a test function (or a test file) in
    tests/skygarden (or, for the hidden-information checks, tests/reliability), and
    every ambiguity 1-24 has its `test_amb_NN_...` tests, named in the doc's table."""
    paths = [
        *(ROOT / "tests" / "skygarden").glob("test_*.py"),
        *(ROOT / "tests" / "reliability").glob("test_skygarden_*.py"),
    ]
    defined = set()
    for path in paths:
        defined.add(path.name)
        defined.update(re.findall(r"^\s*def (test_\w+)", path.read_text(), re.MULTILINE))
    named = {n for n in NAMES if n.startswith("test_") and not n.endswith("_NN_")}
    assert named, "the doc names its tests"
    assert named <= defined, sorted(named - defined)
    for number in range(1, 25):
        amb = [d for d in defined if d.startswith(f"test_amb_{number:02d}_")]
        assert amb, number
        assert set(amb) <= named, f"the ambiguity table names {amb}"


def test_named_functions_exist() -> None:
    """Each function the doc names as `module.name` (a module of the rules package:
    `flow.enter_standby`, `hidden.determinize`, `view.build_view`...) or
    `SkyGardenEngine.name` is defined there."""
    rules = "services.skygarden.rules"
    modules = {p.stem for p in (ROOT / "services" / "skygarden" / "rules").glob("*.py")}
    engine = importlib.import_module(f"{rules}.engine")
    checked = 0
    for name in NAMES:
        head, _, attr = name.partition(".")
        if head in modules and head != "__init__" and attr:
            owner = importlib.import_module(f"{rules}.{head}")
        elif head == "SkyGardenEngine" and attr:
            owner = engine.SkyGardenEngine
        else:
            continue
        assert hasattr(owner, attr), name
        checked += 1
    assert checked >= 20

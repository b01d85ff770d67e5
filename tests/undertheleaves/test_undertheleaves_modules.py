"""The engine's layout: small modules, declarative dispatch, no import cycle,
every rule function naming the rule it implements, and every cache with a
plain path that gives the same game."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from services.undertheleaves.rules import caches, dwellers, engine
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.catalogue import CARDS
from tests.engine_layout import import_cycle, oversized_modules

RULES = Path(engine.__file__).resolve().parent
PACKAGE = "services.undertheleaves.rules"
#: Modules holding rule functions (the contract, the state, views and tables are not rules).
RULE_MODULES = ("setup", "turns", "creatures", "dwellers", "scoring")
#: Section headings of the rulebook excerpt (under-the-leaves-rules-excerpt.txt), and setup.
SECTIONS = (
    "Setup",
    "Game Play",
    "Phase 1: Placing a garden tile",
    "Phase 2: Possible arrival of new beings",
    "Bees",
    "Hummingbirds",
    "Garden Dwellers",
    "End of Turn",
    "End of the Game",
)
#: Or a numbered ambiguity of the data's AMBIGUITIES.md.
_AMBIGUITY = re.compile(r"\bambiguit(y|ies) \d+")


def test_no_module_over_500_lines() -> None:
    assert oversized_modules(RULES) == {}


def test_no_import_cycle() -> None:
    assert import_cycle(RULES, PACKAGE) == []


def test_dispatch_tables_are_declared_and_complete() -> None:
    """Each phase has its turn step, each dweller card its rule function."""
    assert set(engine.STEPS) == {st.TAKE_TILE, st.PLACE_TILE, st.PLACE_DWELLER}
    assert set(dwellers.RULES) == set(CARDS)
    source = Path(dwellers.__file__).read_text(encoding="utf-8")
    assert "RULES[card] =" not in source and "RULES.update" not in source  # one literal


@pytest.mark.parametrize("name", RULE_MODULES)
def test_every_rule_function_names_its_rule(name: str) -> None:
    """A public function of a rule module (and every dweller card's function)
    names its rulebook section or ambiguity; a dweller card's function states
    its card's condition."""
    module = importlib.import_module(f"{PACKAGE}.{name}")
    card_rules = {fn.__name__ for fn in dwellers.RULES.values()} if name == "dwellers" else set()
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    unnamed = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        flat = " ".join((ast.get_docstring(node) or "").split())
        if node.name in card_rules or node.name.startswith("_"):
            named = bool(flat)
        else:
            named = bool(_AMBIGUITY.search(flat)) or any(s in flat for s in SECTIONS)
        if not named:
            unnamed.append(node.name)
    assert unnamed == []


def test_plain_switches_back_and_refuses_unknown_names() -> None:
    with caches.plain():
        assert not any(caches.KEPT.values())
    assert all(caches.KEPT.values())
    with pytest.raises(KeyError), caches.plain("no_such_cache"):
        pass

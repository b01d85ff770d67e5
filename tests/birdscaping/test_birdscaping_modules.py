"""The engine's layout: small modules, declarative dispatch, no import cycle,
and every rule function naming the rule it implements."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from services.birdscaping.rules import abilities, actions, dispatch, scoring, state
from services.birdscaping.rules.cards import SCORING_OPS, WHEN_ACTIVATED_OPS
from tests.engine_layout import import_cycle, oversized_modules

RULES = Path(abilities.__file__).resolve().parent
PACKAGE = "services.birdscaping.rules"
#: Modules holding rule functions (the contract, the View and the tables are not rules).
RULE_MODULES = (
    "abilities",
    "choose",
    "drafting",
    "flow",
    "payment",
    "scoring",
    "setup",
    "solo",
    "tableau",
)
#: Rulebook sections (its table of contents) a docstring may name.
SECTIONS = (
    "Player Tableaus",
    "Bird Abilities",
    "Discarding Cards and Replenishing the Bird Offer",
    "Important Terms",
    "Setup",
    "The Initial Draft",
    "How to Play",
    "Round End",
    "Game End",
    "Scoring",
    "Actions",
    "Activate a Feature Row",
    "Play a Card",
    "Paying Food Costs",
    "Paying Nesting Area Costs",
    "Feature Row Restrictions",
    "Draft Cards",
    "Untilt a Card",
    "Draw a Card",
    "Solo Mode",
)
_AMB = re.compile(r"\bAMB \d+\b")


def test_no_module_over_500_lines():
    assert oversized_modules(RULES) == {}


def test_no_import_cycle():
    assert import_cycle(RULES, PACKAGE) == []


def test_dispatch_tables_cover_every_step_and_kind():
    steps = {v for k, v in vars(state).items() if k.startswith("S_") and v != state.S_NONE}
    assert set(dispatch.LEGAL_AT_STEP) == steps
    assert set(dispatch.APPLY_BY_KIND) == set(actions.KINDS)
    assert set(abilities.WHEN_ACTIVATED) == WHEN_ACTIVATED_OPS
    assert set(scoring.SCORING_ABILITIES) == SCORING_OPS


@pytest.mark.parametrize("name", RULE_MODULES)
def test_every_rule_function_names_its_rule(name: str):
    module = importlib.import_module(f"{PACKAGE}.{name}")
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    unnamed = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            doc = ast.get_docstring(node) or ""
            flat = " ".join(doc.split())
            if not (_AMB.search(flat) or any(section in flat for section in SECTIONS)):
                unnamed.append(node.name)
    assert unnamed == []

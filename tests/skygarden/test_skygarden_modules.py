"""The engine's layout: small modules, declarative dispatch, no import cycle,
and every rule function naming the rule it implements."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from services.skygarden.rules import actions, dispatch, engine
from services.skygarden.rules.state import Pending, Step
from tests.engine_layout import import_cycle, import_graph, oversized_modules, own_imports

RULES = Path(engine.__file__).resolve().parent
PACKAGE = "services.skygarden.rules"
#: Modules holding rule functions (the contract, the View, the data, the prebuilt
#: actions and the hidden-information sampler are not rules).
RULE_MODULES = (
    "aviary",
    "blue",
    "breeding",
    "chip",
    "dispatch",
    "economy",
    "events",
    "flow",
    "free",
    "milestones",
    "purchases",
    "scoring",
    "setup",
    "space",
    "state",
)
#: Rulebook sections (its headings) a docstring may name.
SECTIONS = (
    "Setup",
    "Board Setup",
    "Player Setup",
    "Funds",
    "Round Flow",
    "Important Note About Turn Order",
    "On Your Turn",
    "Move to Standby",
    "If the chip is green",
    "Placement Rules",
    "Additional Purchases",
    "If the chip is blue",
    "If the chip is orange",
    "Breed",
    "Nest Tile",
    "How to Collect Eggs",
    "Purchase a Special Bird Token",
    "Free Actions",
    "Achieve Milestone Tiles",
    "Move to the Forest Board and Refill Lakes",
    "Place and Remove Bird Tokens on Nest Tiles",
    "Game End and Final Scoring",
    "Event Cards",
    "Standby Track",
    "Additional Area Tile",
    "Two-Player Rules",
    "Solo Rules",
    "Bonuses for Achieving Milestones",
    "Early Bonus Tiles",
    "Regular Bonus Tiles",
)
_AMB = re.compile(r"\bAMBIGUITIES \d+\b")


def test_no_module_over_500_lines() -> None:
    assert oversized_modules(RULES) == {}


def test_no_import_cycle() -> None:
    assert "view" in import_graph(RULES, PACKAGE)["engine"]  # the cycle this test guards against
    assert import_cycle(RULES, PACKAGE) == []


def test_only_the_package_init_imports_the_engine() -> None:
    modules = [p.stem for p in RULES.glob("*.py") if p.stem not in ("__init__", "engine")]
    assert [name for name in modules if "engine" in own_imports(RULES, PACKAGE, name)] == []


def test_dispatch_tables_cover_every_step_and_kind() -> None:
    assert set(dispatch.LEGAL_AT_STEP) == set(Step)
    assert set(dispatch.LEGAL_FOR_PENDING) == set(Pending)
    assert set(dispatch.APPLY_BY_KIND) == set(actions.KINDS)
    assert len(actions.KINDS) == len(set(actions.KINDS))


@pytest.mark.parametrize("name", RULE_MODULES)
def test_every_rule_function_names_its_rule(name: str) -> None:
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


def test_rule_modules_cover_the_package() -> None:
    """A new module is either a rule module (checked above) or one of the named others."""
    others = {
        "__init__",
        "actions",
        "caches",
        "data",
        "engine",
        "hidden",
        "progress",
        "storage",
        "view",
    }
    stems = {p.stem for p in RULES.glob("*.py")}
    assert stems == set(RULE_MODULES) | others


def test_records_store_under_their_short_keys() -> None:
    """Each record names every field, and writes exactly the stored keys its table
    lists (the stored JSON of games written before the records had names)."""
    from dataclasses import fields

    from services.skygarden.rules import ENGINE, state

    st = ENGINE.setup(2, {}, 7)
    samples = (
        (state.GameState, state.STATE_KEYS, st),
        (state.Player, state.PLAYER_KEYS, st.players[0]),
        (state.Area, state.AREA_KEYS, st.players[0].areas[0]),
        (state.Turn, state.TURN_KEYS, st.turn),
        (state.Forest, state.FOREST_KEYS, st.forest),
    )
    for record, keys, sample in samples:
        assert [f.name for f in fields(record)] == list(keys), record.__name__
        stored = sample.stored()
        assert sorted(stored) == sorted(keys.values()), record.__name__
        assert record.from_stored(stored) == sample, record.__name__
    assert st.lucy is not None
    assert state.Lucy.from_stored(st.lucy.stored()) == st.lucy


def test_the_kept_caches_are_named() -> None:
    """Each is checked against its plain path by tests/conformance."""
    from services.skygarden.rules import caches

    assert set(caches.KEPT) == {"part_views", "actions"}

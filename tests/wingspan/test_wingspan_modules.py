"""The engine's layout: small modules, declarative dispatch, no import cycle,
every rule function naming the rule it implements, and every function
docs/games/wingspan.md names still existing."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from services.wingspan.rules import dispatch, power_table, power_tasks, state, tasks
from services.wingspan.rules.cards import BROWN, COLOR, NB, PINK, TEMPLATES, WHITE
from tests.engine_layout import import_cycle, oversized_modules

RULES = Path(dispatch.__file__).resolve().parent
ROOT = RULES.parents[2]
PACKAGE = "services.wingspan.rules"
#: Modules holding rule functions (the contract, the state, the tables are not rules).
RULE_MODULES = (
    "supply",
    "payment",
    "flow",
    "decisions",
    "powers_food",
    "powers_cards",
    "powers_board",
    "powers_meta",
    "scoring",
)
#: Section headings of the rules summary (wingspan-rules-summary-ja.txt) a docstring may name.
SECTIONS = (
    "ゲームの概要",
    "勝利条件",
    "ゲームの準備",
    "共通の場",
    "各プレイヤーごとの準備",
    "ゲームの進行",
    "手札の鳥カードをプレイする",
    "森林アクション",
    "草原アクション",
    "湿地アクション",
    "ラウンドの終了",
    "ラウンド終了時の処理",
    "得点計算",
    "勝利点",
    "餌コスト",
    "巣のタイプ",
    "卵の上限",
    "翼長",
    "能力",
    "起動時",
    "プレイ時",
    "次の手番までに1回",
    "捕食",
    "ヴァリアント",
    "目標ボード",
)
#: Or a numbered rules choice of docs/games/wingspan.md, or a note on the card data.
_CHOICE = re.compile(r"\brules choice \d+\b|\bdata: ``\w+``")


def test_no_module_over_500_lines() -> None:
    assert oversized_modules(RULES) == {}


def test_no_import_cycle() -> None:
    assert import_cycle(RULES, PACKAGE) == []


def test_dispatch_tables_cover_every_task_code() -> None:
    procedural = {v for k, v in vars(state).items() if k.startswith("P_")}
    decisions = {v for k, v in vars(state).items() if k.startswith("D_") and k != "D_BASE"}
    assert set(dispatch.RUNNERS) == procedural
    assert set(dispatch.DECISIONS) == decisions
    assert set(state.DECISION_NAMES) == decisions
    assert set(power_tasks.RECORD_OF) == procedural | decisions
    assert all(dispatch.RUN[c] for c in procedural)
    assert all(dispatch.LEGAL[c] and dispatch.APPLY[c] for c in decisions)


def test_power_tables_cover_every_template_and_bird() -> None:
    tables = {**power_table.BROWN_POWERS, **power_table.WHITE_POWERS, **power_table.PINK_POWERS}
    assert set(tables) == set(TEMPLATES) - {"no_power"}
    for b in range(NB):
        if COLOR[b] == BROWN:
            assert power_table.ENTRY[b] and power_table.EFFECT[b], b
        elif COLOR[b] == WHITE:
            assert power_table.WHITE_POWER[b], b
        elif COLOR[b] == PINK:
            assert power_table.PINK_HANDLER[b] and power_table.PINK_TRIGGER[b] >= 0, b


@pytest.mark.parametrize("name", RULE_MODULES)
def test_every_rule_function_names_its_rule(name: str) -> None:
    module = importlib.import_module(f"{PACKAGE}.{name}")
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    unnamed = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            flat = " ".join((ast.get_docstring(node) or "").split())
            if not (_CHOICE.search(flat) or any(section in flat for section in SECTIONS)):
                unnamed.append(node.name)
    assert unnamed == []


def test_functions_named_by_the_doc_exist() -> None:
    """Each `module.function` docs/games/wingspan.md names is defined there."""
    doc = (ROOT / "docs" / "games" / "wingspan.md").read_text(encoding="utf-8")
    modules = {p.stem for p in RULES.glob("*.py")}
    checked = 0
    for head, attr in re.findall(r"`(\w+)\.(\w+)`", doc):
        if head in modules and attr != "py":
            owner = importlib.import_module(f"{PACKAGE}.{head}")
        elif head == "WingspanEngine":
            owner = importlib.import_module(f"{PACKAGE}.engine").WingspanEngine
        else:
            continue
        assert hasattr(owner, attr), f"{head}.{attr}"
        checked += 1
    assert checked >= 5


def test_tasks_are_stored_as_the_arrays_of_their_fields() -> None:
    """A task record is stored as ``[code, seat, *fields]`` and read back as
    the same record (stored games keep decoding)."""
    take = tasks.TakeDie(2, remaining=3, by_power=0)
    assert take.row() == (state.D_TAKE_DIE, 2, 3, 0, 31, -1, 0, -1)
    for record in (
        take,
        tasks.START_TURN[1],
        tasks.pink_trigger(0, 1, 2),
        power_tasks.Tuck(1, 7, 1),
    ):
        back = power_tasks.as_task(list(record.row()))
        assert type(back) is type(record) and back.row() == record.row()
    with pytest.raises(AttributeError):
        tasks.START_TURN[0].seat = 1  # shared between states: never changed

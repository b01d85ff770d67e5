"""docs/CLIENTS.md stays true to the API and to the client it shows.

- Its error table lists every value of ``roost.common.v1.ErrorReason`` (read from
  the generated module), each once, and nothing else.
- Its worked example is ``clients/typescript/src/example.ts`` as it is (the
  TypeScript tests compile and run that file).
"""

from __future__ import annotations

import re
from pathlib import Path

from roost.common.v1 import common_pb2

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "CLIENTS.md"
EXAMPLE = ROOT / "clients" / "typescript" / "src" / "example.ts"


def table_reasons(text: str) -> list[str]:
    """The ErrorReason names that start a row of a table, in order."""
    return re.findall(r"^\| `(ERROR_REASON_[A-Z_]+)` \|", text, re.M)


def test_error_table_lists_every_error_reason_once() -> None:
    rows = table_reasons(DOC.read_text())
    assert sorted(rows) == sorted(common_pb2.ErrorReason.keys())
    assert len(rows) == len(set(rows))


def test_error_table_rows_follow_the_enum_order() -> None:
    assert table_reasons(DOC.read_text()) == list(common_pb2.ErrorReason.keys())


def test_worked_example_is_the_client_file() -> None:
    text = DOC.read_text()
    found = re.search(
        r"<!-- example: clients/typescript/src/example.ts -->\n"
        r"```ts\n(.*?)```\n<!-- end example -->",
        text,
        re.S,
    )
    assert found, "the worked example block is missing from docs/CLIENTS.md"
    assert found.group(1) == EXAMPLE.read_text()

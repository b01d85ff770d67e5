"""The API guard behaves as docs/CLIENTS.md ("API compatibility") says.

``buf breaking`` with buf.yaml's rules against the last release's image
refuses what would break a running client (a removed or renamed field) and lets
through what only touches generated source or adds to the API (a new field, a
field gaining explicit presence). Each case edits a copy of protos/ and runs the
buf binary of the TypeScript client's npm packages.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tools.ts_client import ROOT, buf, install, node_available, released_image

pytestmark = pytest.mark.skipif(
    not node_available(), reason="node and npm are not installed: buf comes from npm"
)

COMMON = Path("protos/roost/common/v1/common.proto")
#: A field of the released API: ActionRef.label.
LABEL = "  string label = 2;\n  // The action kind"


@pytest.fixture(scope="module")
def baseline() -> Path:
    """The released image, with buf installed."""
    install()
    return released_image()


def breaking(tmp_path: Path, baseline: Path, edit: Callable[[str], str]) -> str:
    """buf breaking of a copy of the protos with common.proto edited; its output, '' if none."""
    shutil.copytree(ROOT / "protos", tmp_path / "protos", ignore=shutil.ignore_patterns("releases"))
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    proto = tmp_path / COMMON
    text = proto.read_text()
    edited = edit(text)
    assert edited != text, "the edit changed nothing"
    proto.write_text(edited)
    done = subprocess.run(
        [buf(), "breaking", "--against", str(baseline)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    return done.stdout + done.stderr if done.returncode else ""


def test_removing_a_field_is_refused(tmp_path: Path, baseline: Path) -> None:
    assert "deleted" in breaking(
        tmp_path, baseline, lambda t: t.replace(LABEL, "  // The action kind")
    )


def test_renaming_a_field_is_refused(tmp_path: Path, baseline: Path) -> None:
    out = breaking(tmp_path, baseline, lambda t: t.replace(LABEL, LABEL.replace("label", "text")))
    assert "changed name" in out


def test_adding_a_field_passes(tmp_path: Path, baseline: Path) -> None:
    added = LABEL.replace("string label = 2;", "string label = 2;\n  string hint = 9;")
    assert breaking(tmp_path, baseline, lambda t: t.replace(LABEL, added)) == ""


def test_explicit_presence_passes(tmp_path: Path, baseline: Path) -> None:
    assert breaking(tmp_path, baseline, lambda t: t.replace(LABEL, "  optional" + LABEL[1:])) == ""

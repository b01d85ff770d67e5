"""The shared layout checks find what they look for (tests/engine_layout.py)."""

from __future__ import annotations

from pathlib import Path

from tests.engine_layout import import_cycle, oversized_modules


def test_an_import_cycle_and_an_oversized_module_are_found(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("from pkg.rules.c import x\n")
    (tmp_path / "c.py").write_text("from .a import y\n" + "z = 1\n" * 501)
    assert import_cycle(tmp_path, "pkg.rules") == ["a", "b", "c", "a"]
    assert oversized_modules(tmp_path) == {"c.py": 502}
    (tmp_path / "c.py").write_text("z = 1\n")
    assert import_cycle(tmp_path, "pkg.rules") == []
    assert oversized_modules(tmp_path) == {}

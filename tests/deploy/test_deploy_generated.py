"""The deployment's per-game parts are generated from the registry
(tools/gen_deploy.py): what is committed is what the tool writes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_deploy", ROOT / "tools" / "gen_deploy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_deployment_files_are_up_to_date() -> None:
    """Run ``python tools/gen_deploy.py`` after editing games.toml or a template."""
    stale = [
        str(path.relative_to(ROOT))
        for path, content in _generator().expected().items()
        if not path.exists() or path.read_text(encoding="utf-8") != content
    ]
    assert stale == []

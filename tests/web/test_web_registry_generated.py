"""The web app's game list is the registry's: web/src/registry.ts is what
tools/gen_web_registry.py writes from protos/roost/games.toml."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_web_registry_is_generated_from_games_toml() -> None:
    """Run ``python tools/gen_web_registry.py`` after editing games.toml."""
    spec = importlib.util.spec_from_file_location(
        "gen_web_registry", ROOT / "tools" / "gen_web_registry.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "web" / "src" / "registry.ts").read_text(encoding="utf-8") == module.render()

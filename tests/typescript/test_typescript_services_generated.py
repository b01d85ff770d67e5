"""The TypeScript client serves every game of the registry: its table of
generated clients (clients/typescript/src/services.ts) is what
tools/gen_ts_services.py writes from protos/roost/games.toml."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_client_services_table_is_generated_from_games_toml() -> None:
    """Run ``python tools/gen_ts_services.py`` after editing the registry."""
    spec = importlib.util.spec_from_file_location(
        "gen_ts_services", ROOT / "tools" / "gen_ts_services.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    target = ROOT / "clients" / "typescript" / "src" / "services.ts"
    assert target.read_text(encoding="utf-8") == module.render()

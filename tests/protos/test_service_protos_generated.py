"""The games' service.proto files are the template's output, not hand edits."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "gen_service_protos", ROOT / "tools" / "gen_service_protos.py"
)
generator = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generator)


def test_every_service_proto_is_up_to_date() -> None:
    """Run `make service-protos` after editing tools/game_service.proto.tmpl."""
    for game in generator.GAMES:
        assert generator.target(game).read_text() == generator.render(game), game


def test_every_game_with_a_service_is_generated() -> None:
    """No game keeps a hand-written service.proto."""
    found = {p.parts[-3] for p in (ROOT / "protos" / "roost").glob("*/v1/service.proto")}
    assert found == set(generator.GAMES)

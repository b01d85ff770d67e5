"""Birdscaping views are values: applying a decision never changes a view handed out
earlier, and no view shares a container with the state (tests/view_values.py)."""

from __future__ import annotations

from services.birdscaping.service import SPEC
from tests.view_values import ViewValues


class TestBirdscapingViewValues(ViewValues):
    """Birdscaping's views are values, but its service builds each View whole: the reuse
    of unchanged parts measured slower here (bench/apply_breakdown.py)."""

    spec = SPEC
    service_reuses_view_parts = False

"""Birdscaping views are values: applying a decision never changes a view handed out
earlier, and no view shares a container with the state (tests/view_values.py)."""

from __future__ import annotations

from services.birdscaping.service import SPEC
from tests.view_values import ViewValues


class TestBirdscapingViewValues(ViewValues):
    """Birdscaping opts in to reusing unchanged view parts between Applies."""

    spec = SPEC

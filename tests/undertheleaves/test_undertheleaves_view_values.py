"""Under the Leaves views are values: applying a decision never changes a view
handed out earlier, and no view shares a container with the state
(tests/view_values.py). Its shared tile, market, card and garden view dicts are
built once and never changed, which these checks also cover."""

from __future__ import annotations

from services.undertheleaves.service import SPEC
from tests.view_values import ViewValues


class TestUnderTheLeavesViewValues(ViewValues):
    """Under the Leaves opts in to reusing unchanged view parts between Applies."""

    spec = SPEC
    # Garden.view_cache: the garden's piece counts and last view dict (shared with views).
    view_caches = ("view_cache",)

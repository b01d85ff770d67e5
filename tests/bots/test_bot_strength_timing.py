"""The bot-strength bench times the search with the settings the bot plays with."""

from __future__ import annotations

import pytest

from bench.bot_strength import decision_times, search_settings
from clients.bots.search.ismcts import Budget
from clients.bots.search.policy import SearchPolicy


@pytest.mark.parametrize("game", ["wingspan", "birdscaping"])
def test_the_timed_settings_are_the_bots_own(game: str) -> None:
    bot = SearchPolicy(game, Budget(playouts=8))
    timed = search_settings(game)
    assert timed == bot.settings
    assert timed.prior > 0 and timed.potential is not None


def test_decision_times_reports_a_mean_and_a_p95() -> None:
    times = decision_times("birdscaping", 2, playouts=2, positions=3)
    assert times["mean"] > 0
    assert times["p95"] > 0

"""``roost tournament --time-control`` (issue 27): the spec, and timeouts per bot."""

from __future__ import annotations

import pytest
from roost.common.v1 import common_pb2

from clients.tournament.clock import parse_time_control
from clients.tournament.runner import GameOutcome, Results, TournamentConfig


def test_time_control_specs() -> None:
    assert parse_time_control("") is None
    assert parse_time_control("0.5s").move_seconds == 0.5
    fischer = parse_time_control("60+2:bot")
    assert (fischer.bank_seconds, fischer.increment_seconds) == (60, 2)
    assert fischer.on_timeout == common_pb2.TIMEOUT_POLICY_HOUSE_BOT
    assert parse_time_control("1d").days_per_move == 1
    assert parse_time_control("5s:forfeit").on_timeout == common_pb2.TIMEOUT_POLICY_FORFEIT
    with pytest.raises(ValueError):
        parse_time_control("5 minutes")


def test_the_report_counts_timeouts_and_forfeits_per_bot() -> None:
    config = TournamentConfig("undertheleaves", 2, 2, bots=("random", "greedy"), time_control="1s")
    results = Results(config)
    for index, (timeouts, forfeits) in enumerate((({0: 2, 1: 0}, []), ({0: 0, 1: 1}, [1]))):
        results.outcomes.append(
            GameOutcome(
                game_id=f"g{index}",
                kinds={0: "random", 1: "greedy"},
                totals={0: 1, 1: 2},
                ranks={0: 1, 1: 2},
                winners=[0],
                seconds=1.0,
                timeouts=timeouts,
                forfeits=forfeits,
            )
        )
    table = results.bot_table()
    assert (table["random"]["timeouts"], table["random"]["forfeits"]) == (2, 0)
    assert (table["greedy"]["timeouts"], table["greedy"]["forfeits"]) == (1, 1)
    assert results.to_dict()["time_control"] == "1s"


def test_the_cli_says_how_a_game_ended_and_who_left() -> None:
    """`roost play`'s last line (render.outcome) names the ending and the leavers."""
    from clients.cli.render.scores import outcome

    board = common_pb2.ScoreBoard(
        seats=[common_pb2.SeatScore(seat=0, total=3, rank=1), common_pb2.SeatScore(seat=1)],
        final=True,
        winners=[0],
        ending=common_pb2.GAME_ENDING_TIMEOUT,
        left_seats=[1],
    )
    line = outcome(board, {0: "Ada", 1: "Bo"}, seat=1).plain
    assert "Winner: Ada" in line and "Ended on time." in line and "Left: Bo." in line
    aborted = common_pb2.ScoreBoard(final=True, ending=common_pb2.GAME_ENDING_ABORTED)
    assert "aborted" in outcome(aborted).plain

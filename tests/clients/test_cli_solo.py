"""Solo results in the terminal client: the end screen reads ScoreBoard.solo.

Birdscaping solo (rulebook, Solo Mode: "If you scored more points than the AI, you
win"; AMB 16: strictly more): a lost game never reads "you won!" and the AI's score
is shown; Sky Garden's score targets (130 and 150) and the one reached are shown
from the same typed field.
"""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console
from roost.common.v1 import common_pb2

from clients.cli import render
from services.birdscaping.rules import ENGINE as BIRDSCAPING
from services.core.engine import Rng
from tests.clients.conftest import Roost

#: Kinds a line that wins a solo Birdscaping game prefers (a random search finds one).
_EAGER = {
    "play_card": 5,
    "pay_discard": 4,
    "pay_spend": 4,
    "order_discard": 4,
    "draft_from_offer": 3,
    "draft_from_deck": 3,
    "draft_from_discard": 3,
}


def text_of(*renderables: object, width: int = 100) -> str:
    """What rich prints for ``renderables``, as plain text."""
    console = Console(record=True, width=width, color_system=None)
    for renderable in renderables:
        console.print(renderable)
    return console.export_text()


def board(total: int, final: bool = True, **solo: object) -> common_pb2.ScoreBoard:
    """A one-seat score board with a solo result."""
    result = common_pb2.SoloResult(**solo)
    return common_pb2.ScoreBoard(
        seats=[common_pb2.SeatScore(seat=0, total=total, rank=1)],
        final=final,
        winners=[0] if result.won else [],
        solo=result,
    )


def test_a_lost_solo_game_reads_lost_with_the_ai_score() -> None:
    """Solo Mode: 8 points against the AI's 21 is a loss; the end line says so and shows
    the AI's score, and the player is not marked as a winner."""
    lost = board(8, won=False, opponent_score=21)
    text = text_of(render.scoreboard(lost, {0: "ann"}), render.outcome(lost, {0: "ann"}, 0))
    assert "you won" not in text and "ann *" not in text
    assert "Game over: you lost — 8 points against the AI's 21." in text
    assert "Solo: lost — 8 points against the AI's 21" in text
    spectator = text_of(render.outcome(lost, {0: "ann"}, None))
    assert "Game over: ann lost —" in spectator


def test_the_end_screen_says_a_solo_result_once() -> None:
    """`roost play`'s end screen: the score table without its solo line, then the outcome
    line with the AI's score: the result and the AI's score appear once."""
    lost = board(8, won=False, opponent_score=21)
    text = text_of(
        render.scoreboard(lost, {0: "ann"}, solo=False), render.outcome(lost, {0: "ann"}, 0)
    )
    assert text.count("against the AI's 21") == 1
    assert text.count("lost") == 1


def test_a_won_solo_game_reads_won_and_a_tie_is_lost() -> None:
    """Solo Mode: strictly more points than the AI wins (a tie loses, AMB 16)."""
    won = board(25, won=True, opponent_score=21)
    assert "Game over: you won! 25 points against the AI's 21." in text_of(
        render.outcome(won, {}, 0)
    )
    tie = board(21, won=False, opponent_score=21)
    assert "you lost" in text_of(render.outcome(tie, {}, 0))


def test_solo_targets_and_the_target_reached_are_shown() -> None:
    """Sky Garden solo: the targets (130 and 150) and the highest reached are shown."""
    reached = board(141, won=True, targets=[130, 150], target_reached=130)
    text = text_of(render.scoreboard(reached), render.outcome(reached, {}, 0))
    assert "you won!" in text
    assert "Solo: won — 141 points, target 130 reached (targets: 130, 150)" in text
    missed = board(120, won=False, targets=[130, 150])
    text = text_of(render.outcome(missed, {}, 0))
    assert "you lost — 120 points, no target reached (targets: 130, 150)." in text


def test_mid_game_solo_standing_and_multiplayer_boards() -> None:
    """Mid-game a solo board says whether the player is winning so far; a board without a
    solo result names its winners as before."""
    ahead = board(12, final=False, won=True, opponent_score=9)
    assert "Solo: winning so far — 12 points against the AI's 9" in text_of(
        render.scoreboard(ahead)
    )
    duel = common_pb2.ScoreBoard(
        seats=[
            common_pb2.SeatScore(seat=0, total=5, rank=2),
            common_pb2.SeatScore(seat=1, total=9, rank=1),
        ],
        final=True,
        winners=[1],
    )
    text = text_of(render.scoreboard(duel, {1: "bo"}), render.outcome(duel, {1: "bo"}, 0))
    assert "Winner: bo" in text and "Solo" not in text and "bo *" in text


def _winning_line(seed: int) -> list[int]:
    """Choices (legal-list indices) that win the solo game of ``seed``, found by a random
    search on the engine (the service lists the same actions in the same order)."""
    for attempt in range(2000):
        s = BIRDSCAPING.setup(1, {}, seed)
        chooser = Rng(attempt)
        line = []
        while not BIRDSCAPING.is_over(s):
            actions = BIRDSCAPING.legal(s, 0)
            best = max(_EAGER.get(a.kind, 0) for a in actions)
            eager = [i for i, a in enumerate(actions) if _EAGER.get(a.kind, 0) == best]
            pick = chooser.below(10) < 8
            index = eager[chooser.below(len(eager))] if pick else chooser.below(len(actions))
            line.append(index)
            BIRDSCAPING.apply(s, 0, actions[index])
        solo = BIRDSCAPING.score(s).solo
        if solo is not None and solo.won:
            return line
    raise AssertionError("no winning line found")


def _first_choice_result(seed: int) -> tuple[int, int]:
    """(the player's points, the AI's) when the player always takes the first choice."""
    s = BIRDSCAPING.setup(1, {}, seed)
    while not BIRDSCAPING.is_over(s):
        BIRDSCAPING.apply(s, 0, BIRDSCAPING.legal(s, 0)[0])
    board = BIRDSCAPING.score(s)
    assert board.solo is not None and board.solo.opponent_score is not None
    return board.seats[0].total, board.solo.opponent_score


def _new_solo(roost: Roost, seed: int) -> str:
    created = roost("new", "birdscaping", "--players", "1", "--seed", str(seed), "--json")
    assert created.returncode == 0, created.stderr
    return json.loads(created.stdout)["game_id"]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.slow  # the roost CLI and a stack of services as processes
def test_play_a_lost_solo_birdscaping_game_to_the_end(roost: Roost) -> None:
    """`roost play` of a solo Birdscaping game lost to the AI: the end screen says lost,
    with the AI's score, never "you won!"; `roost watch` of it says the same."""
    mine, ai = _first_choice_result(7)
    assert mine <= ai
    game_id = _new_solo(roost, 7)
    result = roost("play", game_id, "--seat", "0", "--no-board", stdin="0\n" * 400)
    assert result.returncode == 0, result.stderr[-2000:]
    out = _plain(result.stdout)
    assert "you won" not in out
    assert f"Game over: you lost — {mine} points against the AI's {ai}." in out
    watched = _plain(roost("watch", game_id).stdout)
    assert "lost" in watched and f"against the AI's {ai}" in watched and "won!" not in watched


@pytest.mark.slow  # the roost CLI and a stack of services as processes
def test_play_a_won_solo_birdscaping_game_to_the_end(roost: Roost) -> None:
    """`roost play` of a solo Birdscaping game won against the AI says "you won!"."""
    line = _winning_line(21)
    game_id = _new_solo(roost, 21)
    stdin = "".join(f"{choice}\n" for choice in line)
    result = roost("play", game_id, "--seat", "0", "--no-board", stdin=stdin, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    out = _plain(result.stdout)
    assert "Game over: you won!" in out and "against the AI's" in out

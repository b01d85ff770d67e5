"""The fixed action spaces (clients/ai/actions.py, domains.py; docs/AI.md, "Actions").

Over random positions of every game and player count: every legal action has
one index inside the space, no two share one, the mask marks exactly them, and
each index finds its action again. The index of an action never depends on the
position (except the documented Among fields), so a policy's output means the
same decision everywhere.
"""

from __future__ import annotations

import random

import pytest

from clients.ai.actions import ActionCodeError, ActionSpace, Among, Counts, Same, Subset, Values
from clients.ai.domains import action_space
from clients.ai.match import Match
from services.core.engine import Action

CONFIGS = [
    ("undertheleaves", 2, 6),
    ("undertheleaves", 4, 2),
    ("birdscaping", 1, 6),
    ("birdscaping", 2, 6),
    ("wingspan", 2, 3),
    ("wingspan", 5, 1),
    ("skygarden", 1, 4),
    ("skygarden", 2, 3),
    ("skygarden", 4, 1),
]


@pytest.mark.parametrize(("game", "players", "games"), CONFIGS)
def test_every_legal_action_has_one_index_and_back(game: str, players: int, games: int) -> None:
    """Mask round trip over every position of a few random games (thousands in all)."""
    positions = 0
    for seed in range(games):
        match = Match(game, players, seed)
        rng = random.Random(seed)
        fixed: dict[tuple, int] = {}
        while not match.over:
            seat = match.current
            actions = match.legal(seat)
            indices = match.legal_indices(seat)
            assert len(set(indices)) == len(indices)
            assert all(0 <= i < match.space.n for i in indices)
            mask = match.mask(seat)
            assert int(mask.sum()) == len(actions)
            for action, index in zip(actions, indices, strict=True):
                assert match.action_of(index, seat) is action
                assert match.space.decode(index, actions) is action
                code = match.space.codes[action.kind]
                assert index in match.space.block(action.kind)
                if not code.contextual:
                    assert fixed.setdefault(action.key(), index) == index
            positions += 1
            match.step(indices[rng.randrange(len(indices))], seat)
    assert positions > 20


def test_a_space_is_fixed_by_game_and_player_count() -> None:
    """Same game and count: the same space; Wingspan's seat choice grows with the count."""
    assert action_space("wingspan", 3) is action_space("wingspan", 3)
    assert action_space("wingspan", 5).n == action_space("wingspan", 2).n + 3
    assert action_space("undertheleaves", 2).n == action_space("undertheleaves", 4).n


def test_parts_encode_as_documented() -> None:
    """Mixed radix over the parts; Subset and Among are bit masks; Counts a composition."""
    space = ActionSpace(
        "toy",
        [
            ("pass", []),
            ("move", [(("x",), Values((0, 1, 2))), (("flip",), Values((False, True)))]),
            ("keep", [(("items",), Subset(("a", "b", "c")))]),
            ("pick", [(("cards",), Among(3))]),
            ("pay", [(("p", "q"), Counts(("p", "q"), 2))]),
            ("same", [(("card",), Same()), (("x",), Values((0, 1)))]),
        ],
    )
    assert space.index(Action("pass")) == 0
    assert space.index(Action("move", (("x", 2), ("flip", True)))) == 1 + 2 * 2 + 1
    assert space.index(Action("keep", (("items", ("a", "c")),))) == 7 + 0b101
    legal = [Action("pick", (("cards", (9, 4)),)), Action("pick", (("cards", (4,)),))]
    assert space.indices(legal) == [15 + 0b11, 15 + 0b01]
    assert space.index(Action("pay", (("p", 1), ("q", 1)))) == 23 + 4
    assert space.describe(1 + 2 * 2 + 1) == "move(x=2, flip=True)"
    with pytest.raises(ActionCodeError):
        space.index(Action("move", (("x", 7), ("flip", True))))
    with pytest.raises(ActionCodeError):
        space.indices(
            [Action("same", (("card", "a"), ("x", 0))), Action("same", (("card", "b"), ("x", 0)))]
        )
    with pytest.raises(ActionCodeError):
        space.decode(0, legal)


@pytest.mark.parametrize("game", ["undertheleaves", "birdscaping", "wingspan", "skygarden"])
def test_docs_list_the_action_spaces(game: str) -> None:
    """docs/AI.md ("Actions") shows each game's two-player space as the code builds it."""
    from pathlib import Path

    from clients.ai.domains import space_table

    doc = (Path(__file__).resolve().parents[2] / "docs" / "AI.md").read_text()
    assert space_table(game, 2) in doc

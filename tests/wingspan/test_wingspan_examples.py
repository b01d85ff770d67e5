"""The worked examples (例) of the rules summary, in the order they appear."""

from __future__ import annotations

from wingspan_helpers import E, arg_is, fresh, hand, kinds, pick, put

from services.wingspan.rules import cards
from services.wingspan.rules.scoring import blue_points, goal_count, green_points


def test_example_1_keep_three_birds_two_foods():
    """各プレイヤーごとの準備 例: keeping 3 birds means keeping 2 food types."""
    s = E.setup(2, {}, 2)
    keep3 = next(a for a in E.legal(s, 0) if len(a.arg("birds")) == 3)
    E.apply(s, 0, keep3)
    assert {len(a.arg("foods")) for a in E.legal(s, 0)} == {2}


def test_example_2_forest_with_three_birds_uses_fourth_space():
    """② 例: with 3 forest birds the cube goes on the 4th space: 2 food, or 3
    by discarding a card."""
    s = fresh()
    forest = [b for b in range(170) if cards.HABS[b] == (0,) and cards.COLOR[b] == cards.WHITE]
    for b in forest[:3]:
        put(s, 0, b, "forest")
    hand(s, 0, forest[3])
    s.feeder = [3, 3, 3, 4, 4]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    declined = E.clone(s)
    pick(declined, "decline", 0)
    assert E.view(declined, None)["decision"]["remaining"] == 2  # two dice before the bonus
    pick(s, "discard_card", 0)
    assert E.view(s, None)["decision"]["remaining"] == 3


def test_example_3_dual_face_is_its_own_face_for_reroll():
    """② 例: an invertebrate-or-seed die and an invertebrate die cannot be rerolled."""
    s = fresh()
    s.feeder = [5, 0]
    pick(s, arg_is("take_action", habitat="HABITAT_FOREST"), 0)
    assert "reroll_feeder" not in kinds(s, 0)


def test_example_4_green_tie_two_firsts_share_six_and_three():
    """得点計算 例: two players tied first with places worth 6 and 3 get 4 each."""
    assert green_points([5, 5, 2], 2)[:2] == [4, 4]


def test_example_5_blue_eggs_in_forest():
    """ヴァリアント 例: eggs in forest: 2 eggs give 2 points, 5 or more give 5."""
    g = next(
        i
        for i in range(cards.NGOALS)
        if cards.GOAL_CAT[i] == cards.G_EGGS_HAB and cards.GOAL_PARAM[i] == 0
    )
    s = fresh()
    b = put(s, 0, "Hooded Warbler", "forest", eggs=2)
    assert blue_points([goal_count(s, 0, g)]) == [2]
    s.eggs[b] = 6
    assert blue_points([goal_count(s, 0, g)]) == [5]

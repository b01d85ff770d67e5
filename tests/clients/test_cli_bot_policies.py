"""The bots' choice rules, on real generated messages."""

from __future__ import annotations

import random

from roost.common.v1 import common_pb2
from roost.undertheleaves.v1 import service_pb2 as utl

from clients.bots.policies import GreedyPolicy, RandomPolicy, make


def action(index: int, kind: str = "place_tile", score_after: int = 0) -> utl.LegalAction:
    return utl.LegalAction(
        ref=common_pb2.ActionRef(id=index, label=f"a{index}", kind=kind), score_after=score_after
    )


def test_greedy_takes_the_best_preview_and_breaks_ties_at_random() -> None:
    policy = GreedyPolicy(random.Random(1), preview=True)
    actions = [action(0, score_after=3), action(1, score_after=9), action(2, score_after=9)]
    picks = {policy.choose(actions) for _ in range(50)}
    assert picks == {1, 2}


def test_greedy_without_preview_learns_which_kinds_score() -> None:
    policy = make("greedy", preview=False, rng=random.Random(2))
    assert policy.wants_feedback and not policy.wants_preview
    actions = [action(0, "pass"), action(1, "build")]
    tried = {policy.choose(actions)}
    policy.learn(actions[next(iter(tried))], 0)
    other = policy.choose(actions)
    assert other not in tried, "an unseen kind is tried first"
    policy.learn(actions[0], 0)
    policy.learn(actions[1], 5)
    assert all(policy.choose(actions) == 1 for _ in range(20))


def test_random_covers_every_action() -> None:
    policy = RandomPolicy(random.Random(3))
    actions = [action(i) for i in range(4)]
    assert {policy.choose(actions) for _ in range(200)} == {0, 1, 2, 3}

"""types.proto matches the engine: every view and every legal action converts.

The stubs come from gen/ (``make test`` runs ``make proto`` first).
"""

from __future__ import annotations

import importlib

import pytest
from google.protobuf import json_format

from services.core.engine import Rng
from services.wingspan.rules import ENGINE


@pytest.fixture(scope="module")
def types_pb2():
    """The generated types of this game (``make proto`` builds gen/ before the tests)."""
    return importlib.import_module("roost.wingspan.v1.types_pb2")


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"goal_side": "blue", "swift_start": True}),
        pytest.param(
            4, {"no_language_bonus_cards": True, "no_powerful_birds": True}, marks=pytest.mark.slow
        ),
        pytest.param(5, {}, marks=pytest.mark.slow),
    ],
)
def test_types_proto_every_view_and_legal_action_converts(types_pb2, players, options):
    state = ENGINE.setup(players, options, seed=70 + players)
    chooser = Rng(players)
    kinds = set()
    step = 0
    while True:
        if step % 7 == 0 or ENGINE.is_over(state):
            for seat in [None, *range(players)]:
                view = ENGINE.view(state, seat)
                message = json_format.ParseDict(view, types_pb2.View())
                back = json_format.MessageToDict(
                    message,
                    preserving_proto_field_name=True,
                    always_print_fields_with_no_presence=True,
                )
                assert back == view
        if ENGINE.is_over(state):
            break
        seats = ENGINE.to_act(state)
        seat = seats[chooser.below(len(seats))]
        actions = ENGINE.legal(state, seat)
        for action in actions:
            json_format.ParseDict({action.kind: dict(action.args)}, types_pb2.Action())
            kinds.add(action.kind)
        ENGINE.apply(state, seat, actions[chooser.below(len(actions))])
        step += 1
    assert {"play_bird", "take_action", "take_die", "keep_birds", "keep_bonus"} <= kinds


def test_every_action_kind_is_a_oneof_field(types_pb2):
    """Each action kind the engine can emit names a field of Action.kind."""
    fields = {f.name for f in types_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
    from services.wingspan.rules import acts

    emitted = {
        acts.DECLINE.kind,
        acts.REROLL.kind,
        acts.DRAW_DECK.kind,
        acts.PLAY[0][0].kind,
        acts.TAKE_ACTION[0].kind,
        acts.LAY[0].kind,
        acts.PAY_EGG[0].kind,
        acts.DRAW_TRAY[0].kind,
        acts.DISCARD_CARD[0].kind,
        acts.DISCARD_FOOD[0].kind,
        acts.CHOOSE_FOOD[0].kind,
        acts.TRADE[0][1].kind,
        acts.USE[0].kind,
        acts.MOVE[0][0].kind,
        acts.REPEAT[0].kind,
        acts.CHOOSE_PLAYER[0].kind,
        acts.DRAFT[0].kind,
        acts.KEEP_BONUS[0].kind,
        acts.TAKE_DIE[0][0][0].kind,
        acts.tuck(0, 1).kind,
        acts.pay_food((1, 0, 0, 0, 0)).kind,
        acts.keep_birds((1, 2)).kind,
        acts.keep_food((0,)).kind,
    }
    assert emitted == fields


def test_every_legal_action_round_trips_through_the_platform_codec(types_pb2):
    """The platform's ActionCodec builds each legal action and matches it back."""
    pytest.importorskip("roost.common.v1.common_pb2")
    from services.core.convert import ActionCodec

    codec = ActionCodec(types_pb2.Action)
    for players in (2, 4):
        state = ENGINE.setup(players, {"swift_start": True}, seed=5)
        chooser = Rng(9)
        while not ENGINE.is_over(state):
            seats = ENGINE.to_act(state)
            seat = seats[chooser.below(len(seats))]
            actions = ENGINE.legal(state, seat)
            for action in actions:
                message = codec.to_proto(action)
                matched = [a for a in actions if codec.matches(message, a)]
                assert matched == [action]
            ENGINE.apply(state, seat, actions[chooser.below(len(actions))])

"""The pure engine support: the seeded generator, score ranking, conversions."""

from __future__ import annotations

import importlib

import pytest

from services.core.convert import ActionCodec
from services.core.engine import Action, Rng, ScoreBoard, SeatScore
from services.core.view_wire import ViewWire
from services.registry import GAMES


def test_rng_is_deterministic_and_uniform_enough() -> None:
    """Same seed, same stream; below(n) stays in range and hits every value."""
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(10)] == [b.next_u64() for _ in range(10)]
    rng = Rng(7)
    seen = {rng.below(6) for _ in range(600)}
    assert seen == set(range(6))
    items = list(range(20))
    rng.shuffle(items)
    assert sorted(items) == list(range(20))
    with pytest.raises(ValueError):
        rng.below(0)


def test_scoreboard_ranks_with_tiebreaks_and_shares_ties() -> None:
    """Higher total wins; equal totals fall to the tiebreak; full ties share the rank."""
    board = ScoreBoard(
        [
            SeatScore(0, 10, {"a": 10}, (2,)),
            SeatScore(1, 10, {"a": 10}, (3,)),
            SeatScore(2, 10, {"a": 10}, (3,)),
            SeatScore(3, 4, {"a": 4}, (9,)),
        ],
        final=True,
    ).rank_seats()
    assert [s.rank for s in board.seats] == [3, 1, 1, 4]
    assert board.winners == [1, 2]


def _engines() -> list[tuple[str, object]]:
    found = []
    for entry in GAMES:
        try:
            found.append((entry.name, importlib.import_module(f"{entry.module}.rules").ENGINE))
        except ModuleNotFoundError:
            continue
    return found


def _service_spec(name: str):
    try:
        return importlib.import_module(f"services.{name}.service").SPEC
    except ModuleNotFoundError:
        return None


def test_legal_wire_tells_apart_actions_that_share_a_label() -> None:
    """Two different actions with one label (and fresh equal copies of them) each
    keep their own entry bytes, in either order, at any index."""
    spec = _service_spec("undertheleaves")
    codec = ActionCodec(spec.types.Action)
    one = Action("take_tile", (("slot", 0),), "Take a tile")
    two = Action("take_tile", (("slot", 2),), "Take a tile")
    for actions in ([one, two], [two, one], [Action(*one.key(), one.label), two, one]):
        response = spec.messages.LegalResponse()
        codec.fill_legal(response.actions, actions)
        for _ in range(2):
            assert spec.messages.LegalResponse.FromString(codec.legal_wire(2, actions)) == response
    assert codec.legal_wire(2, []) == b""


@pytest.mark.parametrize("count", [1, 2, 128, 129, 4096, 4097, 20_000])
def test_legal_wire_entries_parse_at_every_size(count: int) -> None:
    """Entries are written from cached heads and a table of ids, each field once: the
    list parses to the reference build, and re-serialized gives the serializer's
    bytes, whatever the ids' varint size (none for id 0, one byte below 128, two
    below 16,384, three above) and past the table of ready ids."""
    spec = _service_spec("undertheleaves")
    codec = ActionCodec(spec.types.Action)
    actions = [Action("take_tile", (("slot", i % 7),), f"Take {i}") for i in range(count)]
    response = spec.messages.LegalResponse()
    codec.fill_legal(response.actions, actions)
    for _ in range(2):
        wired = spec.messages.LegalResponse.FromString(codec.legal_wire(2, actions))
        assert wired == response
        assert wired.SerializeToString() == response.SerializeToString()
        assert [a.ref.id for a in wired.actions] == list(range(count))


@pytest.mark.parametrize(
    ("name", "engine"), _engines(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_view_wire_reusing_parts_equals_a_fresh_build(name: str, engine) -> None:
    """Views assembled from kept part bytes (one kept store per game, readers
    taking turns as in play) parse to exactly the message built afresh."""
    spec = _service_spec(name)
    if spec is None:
        pytest.skip(f"{name} has no service yet")
    wire = ViewWire(spec.types.View)
    for players in (engine.min_players, engine.max_players):
        kept: dict = {}
        state = engine.setup(players, {}, 3)
        chooser = Rng(3)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            actions = engine.legal(state, seat)
            state = engine.apply(state, seat, actions[chooser.below(len(actions))])
            for reader in (seat, None):
                view = engine.view(state, reader)
                built = spec.types.View.FromString(wire.encode(view, kept))
                assert built == spec.types.View(**view)


def _tile(n: int, birds: int = 0) -> dict:
    return {
        "tile": f"T{n}",
        "x": n,
        "y": 0,
        "rotation": 0,
        "flipped": False,
        "terrains": ["TERRAIN_PINK"] * 4,
        "mushrooms": [False] * 4,
        "hummingbirds": birds,
    }


def _garden(seat: int, tiles: list[dict], score: int) -> dict:
    return {"seat": seat, "tiles": tiles, "bee_sectors": [], "dwellers": [], "score": score}


def test_view_wire_nested_parts_reuse_and_rebuild_correctly() -> None:
    """Parts inside parts (a garden's tiles): a garden that grew keeps its old
    tiles' bytes, a tile that changed in the middle, a garden that shrank, a
    market slot now holding another tile and a list shared with the previous
    view all still parse to exactly the fresh build."""
    from roost.undertheleaves.v1 import types_pb2

    view_class = types_pb2.View
    wire = ViewWire(view_class)
    spaces = [{"terrain": "TERRAIN_PINK", "mushroom": True}] * 4
    t = [_tile(n) for n in range(6)]
    views = [
        {"gardens": [_garden(0, t[:2], 1), _garden(1, t[:1], 0)], "taken_spaces": spaces},
        {"gardens": [_garden(0, t[:3], 2), _garden(1, t[:1], 0)], "taken_spaces": spaces},
        {"gardens": [_garden(0, [t[0], _tile(1, 2), t[2]], 4), _garden(1, t[:2], 1)]},
        {"gardens": [_garden(0, t[:1], 4), _garden(1, [t[0], t[5], t[4]], 1)]},
        {"market": [{"slot": 0, "tile": "T1", "spaces": spaces}], "gardens": []},
        {"market": [{"slot": 0, "tile": "T2", "spaces": spaces[:2]}], "gardens": []},
    ]
    kept: dict = {}
    for number, view in enumerate(views):
        built = view_class.FromString(wire.encode(view, kept))
        assert built == view_class(**view), f"view {number}"


def test_an_action_copies_and_pickles_as_the_same_decision_and_carries_no_wire_bytes() -> None:
    """An action is a decision only: the codec keeps its wire entries in its own
    table, never on the action (an action has no field but the decision's and its
    hash); a copy, a deep copy or a pickled one is an equal decision, encoded the
    same by the codec."""
    import copy
    import dataclasses
    import pickle

    assert [f.name for f in dataclasses.fields(Action)] == [
        "kind",
        "args",
        "label",
        "secret",
        "public_label",
        "_hash",
    ]
    spec = _service_spec("undertheleaves")
    codec = ActionCodec(spec.types.Action)
    action = Action("take_tile", (("slot", 1),), "Take a tile")
    wire = codec.legal_wire(2, [action])
    assert hash(action)
    for other in (copy.copy(action), copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
        assert other == action and hash(other) == hash(action)
        assert codec.legal_wire(2, [other]) == wire == codec.legal_wire(2, [action])


def test_legal_wire_entries_hold_each_field_once() -> None:
    """An entry writes each of its fields once (no second ``ref`` for the id, which
    some parsers would let replace the first): read field by field, every entry has
    one ``action`` and one ``ref``, and that ``ref`` has one id, label and kind."""
    from google.protobuf.internal.decoder import _DecodeVarint

    def fields(data: bytes) -> list[tuple[int, bytes | int]]:
        out, at = [], 0
        while at < len(data):
            key, at = _DecodeVarint(data, at)
            if key & 7 == 0:
                value, at = _DecodeVarint(data, at)
            else:
                size, at = _DecodeVarint(data, at)
                value, at = data[at : at + size], at + size
            out.append((key >> 3, value))
        return out

    spec = _service_spec("undertheleaves")
    codec = ActionCodec(spec.types.Action)
    actions = [Action("take_tile", (("slot", i % 3),), f"Take {i}") for i in range(300)]
    entries = fields(codec.legal_wire(2, actions))
    assert [number for number, _ in entries] == [2] * len(actions)
    for index, (_, entry) in enumerate(entries):
        numbers = sorted(number for number, _ in fields(entry))
        assert numbers == [1, 2]
        ref = dict(fields(next(value for number, value in fields(entry) if number == 1)))
        assert ref[1] == index and ref[2] == f"Take {index}".encode()
        # the id is written for id 0 too: ActionRef.id has explicit presence
        assert sorted(number for number, _ in fields(dict(fields(entry))[1])) == [1, 2, 3]

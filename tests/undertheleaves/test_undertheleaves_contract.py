"""The engine contract: random full games, determinism, encoding, what a view may show."""

import json

import pytest

from services.core.engine import Rng
from services.core.engine.playout import random_playout
from services.undertheleaves.rules import ENGINE
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import Board
from services.undertheleaves.rules.catalogue import CARDS_BY_FAMILY


def check_garden(garden):
    board = Board(garden.tiles)
    assert len(garden.tiles) == 13
    birds = dict(garden.hummingbirds)
    assert all(1 <= n <= 3 for n in birds.values())
    assert set(birds) <= set(board.tiles)
    assert all(b.bees >= 1 for b in garden.bee_sectors)
    sectors = [frozenset(b.cells) for b in garden.bee_sectors]
    assert len(sectors) == len(board.pollinized)
    assert set(sectors) == {g.cells for g in board.pollinized}
    for dweller in garden.dwellers:
        assert dweller.anchor in board.terrain or len(dweller.cells) == 4
        assert set(dweller.cells) <= set(board.terrain)
        assert list(dweller.cells) == sorted(dweller.cells)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_contract_random_full_games_end_with_valid_final_scores(players, seed):
    leaf, puddle, mushroom = (
        CARDS_BY_FAMILY[f][(seed + players + i) % 4] for i, f in enumerate(CARDS_BY_FAMILY)
    )
    options = {
        "dwellers": [leaf, puddle, mushroom],
        "allow_flip": seed != 2,
        "thoughtful_one_per_sector_per_turn": seed != 3,
    }
    state, board, decisions = random_playout(ENGINE, players, seed, options)
    assert ENGINE.is_over(state)
    assert decisions >= 12 * players
    assert board.final
    assert [s.seat for s in board.seats] == list(range(players))
    assert min(s.rank for s in board.seats) == 1
    for seat_score, garden in zip(board.seats, state.gardens, strict=True):
        assert seat_score.total == sum(seat_score.categories.values())
        check_garden(garden)


def test_contract_every_card_combination_plays_to_the_end():
    for i, leaf in enumerate(CARDS_BY_FAMILY["leaf"]):
        for j, puddle in enumerate(CARDS_BY_FAMILY["puddle"]):
            for k, mushroom in enumerate(CARDS_BY_FAMILY["mushroom"]):
                seed = 16 * i + 4 * j + k
                options = {"dwellers": [leaf, puddle, mushroom]}
                state, _board, _n = random_playout(ENGINE, 2 + seed % 3, seed, options)
                assert ENGINE.is_over(state)


def replay(players, seed, options, choose_seed):
    """A random game; returns every encoded state along the way and the actions taken."""
    state = ENGINE.setup(players, options, seed)
    chooser = Rng(choose_seed)
    encoded, actions = [ENGINE.encode(state)], []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal(state, seat)
        action = legal[chooser.below(len(legal))]
        ENGINE.apply(state, seat, action)
        actions.append((seat, action))
        encoded.append(ENGINE.encode(state))
    return encoded, actions


def test_contract_decode_inverts_encode_at_every_step():
    encoded, _ = replay(
        4, 12, {"dwellers": ["leaf_thoughtful", "puddle_friendly", "mushroom_explorer"]}, 3
    )
    for data in encoded:
        assert ENGINE.encode(ENGINE.decode(data)) == data
        assert st.encode(st.parse(data)) == data  # without the memo of recent states
    json.loads(encoded[-1])  # plain JSON


def test_contract_views_hide_the_bag_order_and_the_generator():
    state = ENGINE.setup(2, {}, seed=31)
    chooser = Rng(8)
    for _ in range(10):
        views = [ENGINE.view(state, seat) for seat in (None, 0, 1)]
        visible = {state.market[i] for i in range(len(state.market))} | {
            t.tile for g in state.gardens for t in g.tiles
        }
        hidden = set(state.bag) - visible
        for view in views:
            text = json.dumps(view)
            assert not any(f'"{tile}"' in text for tile in hidden)
            assert str(state.rng) not in text
            assert view["bag_count"] == len(state.bag)
        # Everything is public: the seats' views differ only in who is viewing.
        assert [{**v, "viewer_seat": 0} for v in views][1:] == [{**views[0], "viewer_seat": 0}] * 2
        assert [v["viewer_seat"] for v in views] == [-1, 0, 1]
        seat = state.current
        legal = ENGINE.legal(state, seat)
        ENGINE.apply(state, seat, legal[chooser.below(len(legal))])


def test_contract_view_shows_turn_phase_pieces_and_scores():
    state = ENGINE.setup(3, {"dwellers": "first_game"}, seed=4)
    view = ENGINE.view(state, 2)
    assert view["current_seat"] == state.current == view["first_seat"]
    assert view["phase"] == "PHASE_TAKE_TILE"
    assert view["taken_tile"] == "" and view["taken_spaces"] == []
    assert view["pending_card"] == "" and view["pending_options"] == []
    assert (view["turns_played"], view["turns_total"]) == (0, 36)
    assert [c["name"] for c in view["dweller_cards"]] == ["Thoughtful", "Diver", "Host"]
    assert [m["slot"] for m in view["market"]] == [0, 1, 2]
    assert all(len(m["spaces"]) == 4 for m in view["market"])
    garden = view["gardens"][0]
    start = garden["tiles"][0]
    assert start["hummingbirds"] == 0
    assert len(start["terrains"]) == len(start["mushrooms"]) == 4
    assert garden["pieces"] == {"bees": 0, "hummingbirds": 0, "leaf": 0, "puddle": 0, "mushroom": 0}
    assert garden["score"] == 0

"""The engine's shortcuts give exactly what the plain computations give.

Boards grown tile by tile equal boards built at once; the lone-option shortcut
of ``resolve`` equals the general algorithm; decode parses afresh; cached
actions are shared but legal lists are not. (Each cache's plain path is also
checked whole, over random games, in test_undertheleaves_modules.py.)
"""

from undertheleaves_builder import ENGINE, play_legal, random_decisions

from services.core.engine import Rng
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import Board
from services.undertheleaves.rules.catalogue import CARDS, CARDS_BY_FAMILY
from services.undertheleaves.rules.dwellers import options_for, resolve
from services.undertheleaves.rules.state import Dweller, Options


def random_gardens(games=12):
    """Every garden of every state of some random games (with a few card sets)."""
    for seed in range(games):
        cards = [CARDS_BY_FAMILY[f][(seed + i) % 4] for i, f in enumerate(CARDS_BY_FAMILY)]
        state = ENGINE.setup(2 + seed % 3, {"dwellers": cards}, seed)
        chooser = Rng(seed)
        while not ENGINE.is_over(state):
            seat = state.current
            legal = ENGINE.legal(state, seat)
            ENGINE.apply(state, seat, legal[chooser.below(len(legal))])
            yield state, state.gardens[seat]


def summary(board):
    return (
        board.terrain,
        board.mushrooms,
        board.puddle_cells,
        {g.cells for g in board.sectors},
        {g.cells for g in board.pollinized},
        {g.cells for g in board.puddles},
        {c: frozenset(g.cells) for c, g in board.sector_of.items()},
        {c: frozenset(g.cells) for c, g in board.puddle_of.items()},
        sorted(board.mono_blocks),
        sorted(board.mixed_blocks),
        board.tiles,
        board.start_blocks,
    )


def test_a_board_grown_tile_by_tile_equals_one_built_at_once():
    seen = 0
    for _state, garden in random_gardens():
        grown = Board(garden.tiles[:1])
        assert grown.mono_blocks is not None  # blocks found now, then kept up to date
        for placed in garden.tiles[1:]:
            grown.add(placed)
        assert summary(grown) == summary(Board(garden.tiles))
        assert all(g.run4 == _straight_run(g.cells) for g in grown.sectors)
        seen += 1
    assert seen > 100


def _straight_run(cells):
    return any(all(c + d * i in cells for i in range(4)) for c in cells for d in (1, 64))


def reference_resolve(card, board, dwellers, turn, options):
    """``resolve`` without its lone-option shortcut: the general algorithm."""
    while True:
        offered = options_for(card, board, dwellers, turn, options)
        if not offered:
            return []
        after = {
            p: set(
                options_for(
                    card,
                    board,
                    [*dwellers, Dweller(card, p.anchor, tuple(sorted(p.cells)), turn)],
                    turn,
                    options,
                )
            )
            for p in offered
        }
        rest = set(offered)
        free = [
            p
            for p in offered
            if after[p] == rest - {p} and all(p in after[q] for q in offered if q != p)
        ]
        if not free:
            return offered
        dwellers.extend(Dweller(card, p.anchor, tuple(sorted(p.cells)), turn) for p in free)


def test_resolve_equals_the_general_algorithm_for_every_card():
    """Ambiguity 6 and the choices of docs/games/undertheleaves.md: placing a piece never
    adds an option of its card and removes its own, so a lone option is simply placed."""
    checked = 0
    for state, garden in random_gardens(9):
        board = garden.get_board()
        for card in CARDS:
            for options in (Options(), Options(thoughtful_one_per_sector_per_turn=False)):
                fast, slow = list(garden.dwellers), list(garden.dwellers)
                choice = resolve(card, board, fast, state.turn, options)
                assert choice == reference_resolve(card, board, slow, state.turn, options)
                assert fast == slow
                checked += bool(len(fast) > len(garden.dwellers) or choice)
    assert checked > 50


def test_decode_is_parse_and_hands_out_independent_states():
    state = ENGINE.setup(3, {}, seed=7)
    for _ in range(8):
        play_legal(state, state.current, pick=5)
    data = ENGINE.encode(state)
    assert st.parse(data) == ENGINE.decode(data) == state
    assert st.encode(st.parse(data)) == data
    first = ENGINE.decode(data)
    play_legal(first, first.current)
    first.gardens[0].hummingbirds = (((9, 9), 3),)
    second = ENGINE.decode(data)
    assert ENGINE.encode(second) == data != ENGINE.encode(first)
    assert second.gardens[0].tiles is not first.gardens[0].tiles


def test_legal_lists_are_fresh_and_their_actions_shared():
    state = ENGINE.setup(2, {}, seed=3)
    seat = state.current
    ENGINE.apply(state, seat, ENGINE.legal(state, seat)[1])
    first, second = ENGINE.legal(state, seat), ENGINE.legal(state, seat)
    assert first == second and first is not second
    assert all(a is b for a, b in zip(first, second, strict=True))
    first.clear()
    assert ENGINE.legal(state, seat) == second


def test_garden_views_are_rebuilt_exactly_when_the_garden_or_its_score_changed():
    """A view reuses a garden's last view dict (the same object) only while it still
    equals a fresh build; whenever it differs the garden's dict is a new object, and
    no handed-out dict is ever changed afterwards."""
    import copy

    from services.undertheleaves.rules.scoring import pieces, totals
    from services.undertheleaves.rules.view import build_garden_view

    reused = rebuilt = 0
    for seed in range(8):
        state = ENGINE.setup(2 + seed % 3, {}, seed)
        chooser = Rng(seed)
        handed_out: list[tuple[dict, dict]] = []
        previous: list[dict] | None = None
        while not ENGINE.is_over(state):
            view = ENGINE.view(state, None)
            counts = [pieces(garden) for garden in state.gardens]
            seat_totals = totals(counts)
            shown_gardens = view["gardens"]
            for owner, (garden, shown) in enumerate(zip(state.gardens, shown_gardens, strict=True)):
                assert shown == build_garden_view(owner, garden, counts[owner], seat_totals[owner])
                if previous is not None and previous[owner] is shown:
                    reused += 1
                else:
                    rebuilt += 1
                handed_out.append((shown, copy.deepcopy(shown)))
            previous = view["gardens"]
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal(state, seat)
            ENGINE.apply(state, seat, legal[chooser.below(len(legal))])
        assert all(dict_ == snapshot for dict_, snapshot in handed_out)
    assert reused > rebuilt  # most decisions change at most one garden


def test_state_encoding_with_cached_garden_fragments_equals_the_plain_encoding() -> None:
    """A garden is encoded once per version and its tiles once per tile count: after
    every decision of random games the stored bytes equal an encoding with every
    garden and tile written afresh."""
    from services.core.engine import jsonstate

    for state, _garden in random_gardens():
        cached = st.encode(state)
        for garden in state.gardens:
            garden.tiles_json = None
            garden.garden_json = None
        assert cached == st.encode(state)
        assert [g.tiles for g in st.parse(cached).gardens] == [g.tiles for g in state.gardens]
        assert jsonstate.loads(cached)["gardens"][0][0] == jsonstate.loads(
            jsonstate.dumps(state.gardens[0].tiles)
        )


def test_the_kept_frontier_equals_a_fresh_one_after_every_placement():
    """Placement (a tile shares a full side with a placed tile): the frontier a garden
    keeps up to date in place is, after every tile, exactly the sorted free sides of
    its tiles worked out afresh."""
    checked = 0
    for state in random_decisions(10):
        for garden in state.gardens:
            kept = garden.frontier()
            fresh = st.Garden(list(garden.tiles)).frontier()
            assert kept == fresh
            checked += 1
    assert checked > 500


def test_settling_bees_and_hummingbirds_keeps_what_did_not_change():
    """Bees and hummingbirds (ambiguities 3 and 4) settle into new objects only when a
    count changed: otherwise the very tuples come back (the garden's caches then
    see them unchanged at once)."""
    from services.undertheleaves.rules.creatures import settle_bees, settle_hummingbirds

    kept = changed = 0
    for state, garden in random_gardens():
        board = garden.get_board()
        sectors, birds = garden.bee_sectors, garden.hummingbirds
        again_sectors = settle_bees(garden.bee_sectors, board, state.options)
        again_birds = settle_hummingbirds(garden.hummingbirds, board)
        assert again_sectors == sectors and again_birds == birds  # settled already
        assert again_sectors is garden.bee_sectors and again_birds is garden.hummingbirds
        emptied = settle_hummingbirds((), board)
        if birds:
            assert emptied == birds and emptied is not birds
            changed += 1
        else:
            kept += 1
        assert garden.bee_sectors == sectors and garden.hummingbirds == birds
    assert kept and changed


def test_the_kept_pollinized_sectors_are_the_sectors_of_3_or_more_cells_in_order():
    """Bees (a sector of 3 or more cells is pollinized): the pollinized sectors a board
    keeps up to date tile by tile are exactly its sectors of 3 or more cells, in the
    order of its sectors, after every placement (and on a copy grown further)."""
    for _state, garden in random_gardens():
        board = garden.get_board()
        assert board.pollinized == tuple(g for g in board.sectors if len(g.cells) >= 3)
        copied = board.copy()
        assert copied.pollinized == board.pollinized

"""Setup (Board Setup, Player Setup) and the Next Round Preparation of the board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine import OptionError, Rng

from . import data as D
from .state import Forest, ForestChip, GameState, Lucy, Phase, Player, new_area, new_turn

#: This game has no options.
OPTIONS: dict[str, Any] = {}
MIN_PLAYERS, MAX_PLAYERS = 1, 4


def check_options(players: int, options: Mapping[str, Any]) -> None:
    """Setup: the game is for 1 to 4 players and has no options."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError("players", "must be an integer")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError("players", f"Sky Garden is for 1 to 4 players, not {players}")
    for key in options or {}:
        if key not in OPTIONS:
            raise OptionError(key, "unknown option (Sky Garden has no options)")


def setup(players: int, options: Mapping[str, Any], seed: int) -> GameState:
    """Board Setup and Player Setup: milestones, supplies, Event cards dealt, setup
    cards, the random starting order (AMBIGUITIES 6), Lucy in two-player games, then
    the first round's layout."""
    check_options(players, options)
    rng = Rng(seed)
    n = players
    # Milestones: draw 3A 3B 2C 1D at random, shuffle into the 3x3 grid.
    tiles: list[int] = []
    for letter, count in D.MS_DRAW.items():
        pool = [i for i, lt in enumerate(D.TILE_LETTER) if lt == letter]
        tiles.extend(rng.sample(pool, count))
    rng.shuffle(tiles)
    supply = [t - 1 for t in D.SUPPLY_TOKENS]  # one of each becomes a bonus bird
    st = GameState(
        player_count=n,
        phase=Phase.EVENT,
        round=1,
        rounds=D.ROUNDS[n],
        track=[0] * D.TRACK_LEN,
        blue_face_down=[0] * D.NBLUE,
        forest=Forest(D.TREES_TOTAL, D.NESTS_TOTAL, [0] * D.NB, []),
        supply=supply,
        special_left=list(D.SPECIAL_TOKENS),
        bonus_birds=[1] * D.NREG,
        egg_supply=D.EGG_TOKENS - n,  # each player's Egg marker is an egg token
        milestone_tiles=tiles,
        milestone_claims=[[] for _ in range(9)],
        early_bonus_left=[e is not None for e in D.LINE_EARLY],
        players=[],
        lucy=None,
        turn=new_turn(-1),
        rng=0,  # set once the layout is drawn
    )
    deck = list(range(len(D.EVENT_IDS)))
    rng.shuffle(deck)
    setups = list(range(len(D.SETUP_IDS)))
    rng.shuffle(setups)
    forest = st.forest
    for seat in range(n):
        areas = [new_area() for _ in range(D.NAREA + 1)]
        card = setups[seat]
        nest_a, tree_a, lake_a = D.SETUP_CARDS[card]
        areas[nest_a].nest = 1
        areas[tree_a].tree = 1
        areas[lake_a].lake = 1
        forest.nests -= 1
        forest.trees -= 1
        player = Player(
            funds=D.FUNDS_START,
            egg_marker=D.EGG_START,
            nest_box=[0] * D.BOX_SIZE,
            employee=D.EMP_START,
            areas=areas,
            additional_area="",
            event_card=-1,
            dealt_events=deck[seat * D.EVENT_DEAL : (seat + 1) * D.EVENT_DEAL],
            setup_card=card,
            claimed_slots=0,
            milestones_achieved=0,
            track_space=0,
            standby_slot=-1,
            finished_round=False,
            sections_done=0,
        )
        st.players.append(player)
    # Starting order on the Standby track: random, bottom (1st) plays first.
    order = list(range(n))
    rng.shuffle(order)
    for slot, seat in enumerate(order):
        st.players[seat].standby_slot = slot
    if n == 2:
        st.lucy = Lucy(0, D.LUCY_SLOT, False)
    layout_round(st, rng)
    st.rng = rng.state
    return st


def layout_round(st: GameState, rng: Rng) -> None:
    """Board Setup, steps 6-9: Forest chips with their birds, then the Main track
    (blue chips fixed in solo and two-player games, AMBIGUITIES 3; the round chip,
    AMBIGUITIES 4)."""
    n = st.player_count
    rnd = st.round
    bag = list(D.GREEN)
    forest = st.forest
    supply = st.supply
    forest.chips = []
    for _ in range(D.FOREST_DRAWS):
        code = bag.pop(rng.below(len(bag)))
        bird = -1
        if supply[code] > 0:
            supply[code] -= 1
            bird = code
        forest.chips.append(ForestChip(code, bird))
    bag.append(D.ORANGE_BASE + rnd)
    track = st.track
    blues = [D.BLUE_BASE + i for i in range(D.NBLUE)]
    if n <= 2:
        if n == 2 or rnd == 1:
            if n == 2:
                rng.shuffle(blues)
            for pos, code in zip(D.FIXED_BLUE, blues, strict=True):
                track[pos - 1] = code
        rng.shuffle(bag)
        free = [s for s in range(D.TRACK_LEN) if s + 1 not in D.FIXED_BLUE]
        if len(free) != len(bag):
            raise RuntimeError("chip count does not match the Main track")
        for s, code in zip(free, bag, strict=True):
            track[s] = code
    else:
        bag.extend(blues)
        rng.shuffle(bag)
        if len(bag) != D.TRACK_LEN:
            raise RuntimeError("chip count does not match the Main track")
        track[:] = bag


def next_round(st: GameState) -> None:
    """Round Flow, Next Round Preparation (AMBIGUITIES 20): Forest chip birds become
    loose Forest birds, a new layout, every token back off the track."""
    forest = st.forest
    for chip in forest.chips:
        if chip.bird >= 0:
            forest.birds[chip.bird] += 1
            chip.bird = -1
    st.round += 1
    rng = Rng(st.rng)
    layout_round(st, rng)
    st.rng = rng.state
    for p in st.players:
        p.track_space = 0
        p.finished_round = False
        p.sections_done = 0
    if st.lucy is not None:
        st.lucy.track_space = 0
        st.lucy.finished_round = False

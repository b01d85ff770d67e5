"""Under the Leaves: the engine behind ``roost.undertheleaves.v1``.

A turn is two decisions: ``take_tile`` (a market slot) then ``place_tile``
(position, rotation, flip) for the tile taken, after which bees, hummingbirds
and the dwellers of the three cards in play arrive by themselves, in the
rulebook's order: bees, hummingbirds, leaf, puddle, mushroom. When a
dweller card offers a real choice (which of two puddles gets the Friendly,
which of two overlapping squares gets the Thoughtful, ...) the same seat gets
``place_dweller`` decisions until none is left. Then the market is refilled;
when it cannot be, the game is over.

The rules and the numbered ambiguity resolutions this follows are listed in
docs/games/undertheleaves.md, each with the tests that pin it down.

Speed: actions are immutable, so every ``take_tile`` and ``place_tile`` action
is built once and reused from module-level tables; a garden keeps its board
(cells, sectors, puddles, blocks), grown one tile at a time, and its frontier
as caches beside the stored state.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from services.core.engine import Action, IllegalAction, OptionError, Rng, ScoreBoard, SeatScore
from services.undertheleaves.rules import hidden
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import XS, YS, Board, PlacedTile, block
from services.undertheleaves.rules.catalogue import (
    BAG_SIZE,
    CARDS,
    CARDS_BY_FAMILY,
    FACES,
    FAMILIES,
    FIRST_GAME_CARDS,
    GARDEN_TILES,
    MARKET_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFERED,
    ROTATIONS,
    START_TILES,
    DwellerCard,
)
from services.undertheleaves.rules.creatures import settle_bees, settle_hummingbirds
from services.undertheleaves.rules.dwellers import Placement, options_for, resolve
from services.undertheleaves.rules.state import Garden, Options, State

#: Pieces added to each family's majority holder(s) at the end (ambiguity 11).
MAJORITY_BONUS = 2

_BOOL_OPTIONS = (
    "allow_flip",
    "thoughtful_one_per_sector_per_turn",
    "existing_sector_bonus_once_per_colour_per_turn",
)
_TAKE_TILE_ARGS = {"slot": int}
_PLACE_TILE_ARGS = {"x": int, "y": int, "rotation": int, "flipped": bool}
_PLACE_DWELLER_ARGS = {"card": str, "x": int, "y": int}


def _parse_options(options: Mapping[str, Any]) -> tuple[Options, Any]:
    unknown = sorted(set(options) - {*_BOOL_OPTIONS, "dwellers"})
    if unknown:
        raise OptionError(unknown[0], "unknown option")
    for name in _BOOL_OPTIONS:
        if name in options and not isinstance(options[name], bool):
            raise OptionError(name, "must be true or false")
    flags = Options(**{name: options[name] for name in _BOOL_OPTIONS if name in options})
    return flags, options.get("dwellers", "random")


def _choose_cards(spec: Any, rng: Rng) -> tuple[str, str, str]:
    """One dweller card per family: at random, the first-game set, or the 3 given ids."""
    if spec == "random":
        return tuple(rng.choice(CARDS_BY_FAMILY[f]) for f in FAMILIES)  # type: ignore[return-value]
    if spec == "first_game":
        return FIRST_GAME_CARDS  # type: ignore[return-value]
    if isinstance(spec, str) or not isinstance(spec, list | tuple) or len(spec) != 3:
        raise OptionError("dwellers", '"random", "first_game" or a list of 3 card ids')
    for card in spec:
        if card not in CARDS:
            raise OptionError(
                "dwellers", f"unknown card {card!r}; known: {', '.join(sorted(CARDS))}"
            )
    by_family = {CARDS[card].family: card for card in spec}
    if len(by_family) != len(FAMILIES):
        raise OptionError(
            "dwellers", "needs exactly one card of each family (leaf, puddle, mushroom)"
        )
    return tuple(by_family[f] for f in FAMILIES)  # type: ignore[return-value]


def _args(action: Action, spec: Mapping[str, type]) -> dict[str, Any]:
    """The action's args checked against ``spec`` (names and exact types), or BAD_ARGS."""
    known = _CHECKED.get(id(action))
    if known is not None and known[0] is action:
        return known[1]  # built here: a take_tile or place_tile action (its kind was checked)
    args = dict(action.args)
    if len(args) != len(action.args) or args.keys() != spec.keys():
        raise IllegalAction("BAD_ARGS", f"{action.kind} takes {', '.join(spec)}")
    for name, kind in spec.items():
        if type(args[name]) is not kind:
            raise IllegalAction("BAD_ARGS", f"{name} must be {kind.__name__}")
    return args


#: id of an action built here -> (that action, its args as a dict): already checked.
_CHECKED: dict[int, tuple[Action, dict[str, Any]]] = {}
#: (slot, tile) -> the take_tile action.
_TAKE_ACTIONS: dict[tuple[int, str], Action] = {}
#: Offered orientations -> tile position -> its place_tile actions, in order.
_PLACE_ACTIONS: dict[tuple[tuple[int, bool], ...], dict[tuple[int, int], tuple[Action, ...]]] = {}


def _take_tile_action(slot: int, tile: str) -> Action:
    action = _TAKE_ACTIONS.get((slot, tile))
    if action is None:
        action = _TAKE_ACTIONS[(slot, tile)] = Action(
            "take_tile", (("slot", slot),), f"Take {tile} (slot {slot})"
        )
        _CHECKED[id(action)] = (action, dict(action.args))
    return action


def _place_tile_actions(
    orientations: tuple[tuple[int, bool], ...], x: int, y: int
) -> tuple[Action, ...]:
    """The place_tile actions at ``(x, y)``, one per offered orientation (built once)."""
    table = _PLACE_ACTIONS.get(orientations)
    if table is None:
        table = _PLACE_ACTIONS[orientations] = {}
    actions = table.get((x, y))
    if actions is None:
        actions = table[(x, y)] = tuple(
            Action(
                "place_tile",
                (("x", x), ("y", y), ("rotation", rotation), ("flipped", flipped)),
                f"Place at ({x}, {y}), rotated {rotation}°" + (", flipped" if flipped else ""),
            )
            for rotation, flipped in orientations
        )
        for action in actions:
            _CHECKED[id(action)] = (action, dict(action.args))
    return actions


def _place_dweller_action(card: str, placement: Placement) -> Action:
    x, y = XS[placement.anchor], YS[placement.anchor]
    where = f"({x}, {y})"
    if len(placement.cells) == 4 and placement.cells == block(placement.anchor):
        where = f"the square ({x}, {y})-({x + 1}, {y + 1})"
    return Action(
        "place_dweller",
        (("card", card), ("x", x), ("y", y)),
        f"{CARDS[card].name} on {where}",
    )


_FAMILY_OF: dict[str, str] = {card.id: card.family for card in CARDS.values()}
_FAMILY_NAMES: dict[str, str] = {
    card.id: f"FAMILY_{card.family.upper()}" for card in CARDS.values()
}


def pieces(garden: Garden) -> dict[str, int]:
    """The garden's pieces by kind: bees, hummingbirds and each dweller family."""
    bees = 0
    for record in garden.bee_sectors:
        bees += record.bees
    counts = {
        "bees": bees,
        "hummingbirds": sum(garden.hummingbirds.values()),
        "leaf": 0,
        "puddle": 0,
        "mushroom": 0,
    }
    family_of = _FAMILY_OF
    for d in garden.dwellers:
        counts[family_of[d.card]] += 1
    return counts


_PHASES = {
    st.TAKE_TILE: "PHASE_TAKE_TILE",
    st.PLACE_TILE: "PHASE_PLACE_TILE",
    st.PLACE_DWELLER: "PHASE_PLACE_DWELLER",
    st.OVER: "PHASE_OVER",
}
_TERRAIN_NAMES = {
    t: f"TERRAIN_{t.upper()}" for t in ("pink", "yellow", "orange", "purple", "green", "puddle")
}
#: Tile id -> (rotation, flipped) -> (terrain name, mushroom) of tl, tr, bl, br.
_FACE_VIEWS: dict[str, dict[tuple[int, bool], tuple[tuple[str, bool], ...]]] = {
    tile: {
        o: tuple((_TERRAIN_NAMES[s.terrain], s.mushroom) for s in face) for o, face in faces.items()
    }
    for tile, faces in FACES.items()
}
#: Tile id -> its printed spaces as View dicts (read-only, shared by every view).
_SPACE_VIEWS: dict[str, list[dict[str, Any]]] = {
    tile: [{"terrain": t, "mushroom": m} for t, m in faces[(0, False)]]
    for tile, faces in _FACE_VIEWS.items()
}


def _cells_view(cells: tuple[int, ...]) -> list[dict[str, int]]:
    """Cells given in reading order, as View cells."""
    return [{"x": XS[c], "y": YS[c]} for c in cells]


def _spaces_view(tile: str) -> list[dict[str, Any]]:
    """A tile's four spaces as printed (shared read-only dicts, built once per tile)."""
    return _SPACE_VIEWS[tile]


def _placement_view(placement: Placement) -> dict[str, Any]:
    a = placement.anchor
    return {"x": XS[a], "y": YS[a], "cells": _cells_view(tuple(sorted(placement.cells)))}


def _card_view(card: DwellerCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "family": f"FAMILY_{card.family.upper()}",
        "name": card.name,
        "first_game": card.first_game,
        "condition": card.condition,
        "placement": card.placement,
        "reuse": card.reuse,
    }


@lru_cache(maxsize=50_000)
def _tile_view(placed: PlacedTile, birds: int) -> dict[str, Any]:
    """A placed tile, its four cells and its hummingbirds.

    The cells are two flat lists, ``terrains`` and ``mushrooms``, in the tile's
    reading order: (2x, 2y), (2x+1, 2y), (2x, 2y-1), (2x+1, 2y-1) for the tile at
    (x, y) (``board.tile_cells``); no dict per cell, so the View holds no
    sub-message per cell. A placed tile never changes, so its dict is built once
    and shared by every later view (views are read-only values).
    """
    tile, tx, ty, rotation, flipped = placed
    (t0, m0), (t1, m1), (t2, m2), (t3, m3) = _FACE_VIEWS[tile][(rotation, flipped)]
    return {
        "tile": tile,
        "x": tx,
        "y": ty,
        "rotation": rotation,
        "flipped": flipped,
        "terrains": [t0, t1, t2, t3],
        "mushrooms": [m0, m1, m2, m3],
        "hummingbirds": birds,
    }


@cache  # at most 3 slots x 54 tiles
def _market_view(slot: int, tile: str) -> dict[str, Any]:
    """A market slot and the tile in it, with its spaces (built once, read-only)."""
    return {"slot": slot, "tile": tile, "spaces": _spaces_view(tile)}


#: Card id -> its View dict (cards never change).
_CARD_VIEWS: dict[str, dict[str, Any]] = {
    card_id: _card_view(card) for card_id, card in CARDS.items()
}


@lru_cache(maxsize=1024)
def _cards_view(cards: tuple[str, ...]) -> list[dict[str, Any]]:
    """The cards in play as View dicts (one shared read-only list per set of cards)."""
    return [_CARD_VIEWS[card] for card in cards]


def _garden_counts(garden: Garden) -> dict[str, int]:
    """The garden's pieces (:func:`pieces`), counted again only when the garden
    changed (:meth:`Garden.version`). The version, the counts and the garden's
    last view are kept in ``garden.view_cache``."""
    version = garden.version()
    cached = garden.view_cache
    if cached is None or cached[0] != version:
        cached = garden.view_cache = (version, pieces(garden), -1, None)
    return cached[1]


def _garden_view(seat: int, garden: Garden, score: int) -> dict[str, Any]:
    """A seat's garden as a View dict, rebuilt only when the garden or its score
    changed (the same dict object is returned otherwise: the service's wire
    cache sees it unchanged at once). Call :func:`_garden_counts` first."""
    version, counts, kept_score, view = garden.view_cache  # type: ignore[misc]
    if view is not None and kept_score == score and view["seat"] == seat:
        return view
    view = _build_garden_view(seat, garden, counts, score)
    garden.view_cache = (version, counts, score, view)
    return view


def _build_garden_view(
    seat: int, garden: Garden, counts: dict[str, int], score: int
) -> dict[str, Any]:
    tiles, bee_sectors, dwellers = _garden_parts(garden)
    return {
        "seat": seat,
        "tiles": tiles,
        "bee_sectors": bee_sectors,
        "dwellers": dwellers,
        "pieces": counts,
        "score": score,
    }


def _garden_parts(garden: Garden) -> tuple[list[Any], list[Any], list[Any]]:
    """The View lists of a garden's tiles, bee sectors and dwellers, kept in
    ``garden.view_parts`` with what each was built from. Tiles and dwellers are
    only ever appended: while the hummingbirds are the very same dict, a longer
    list is the kept one plus the new tiles' (or dwellers') views. A list is
    never changed once handed out: growing makes a new one."""
    tiles, birds = garden.tiles, garden.hummingbirds
    sectors, dwellers = garden.bee_sectors, garden.dwellers
    kept = garden.view_parts
    if kept is None:
        kept = (0, None, [], None, [], 0, [])
    tile_count, kept_birds, tile_views, kept_sectors, sector_views = kept[:5]
    dweller_count, dweller_views = kept[5:]
    if kept_birds is not birds or tile_count > len(tiles):
        tile_count, tile_views = 0, []
    if tile_count != len(tiles):
        get = birds.get
        tile_views = tile_views + [
            _tile_view(placed, get((placed[1], placed[2]), 0)) for placed in tiles[tile_count:]
        ]
    if kept_sectors is not sectors:
        sector_views = [_bee_sector_view(b) for b in sectors]
    if dweller_count > len(dwellers):
        dweller_count, dweller_views = 0, []
    if dweller_count != len(dwellers):
        dweller_views = dweller_views + [_dweller_view(d) for d in dwellers[dweller_count:]]
    garden.view_parts = (
        len(tiles),
        birds,
        tile_views,
        sectors,
        sector_views,
        len(dwellers),
        dweller_views,
    )
    return tile_views, sector_views, dweller_views


@lru_cache(maxsize=20_000)
def _bee_sector_view(record: st.BeeSector) -> dict[str, Any]:
    """A pollinized sector and its bees (records are immutable: built once, shared)."""
    return {
        "colour": _TERRAIN_NAMES[record.colour],
        "bees": record.bees,
        "cells": _cells_view(record.cells),
    }


@lru_cache(maxsize=20_000)
def _dweller_view(record: st.Dweller) -> dict[str, Any]:
    """A dweller piece (records are immutable: built once, shared)."""
    return {
        "card": record.card,
        "family": _FAMILY_NAMES[record.card],
        "x": XS[record.anchor],
        "y": YS[record.anchor],
        "cells": _cells_view(record.cells),
        "turn": record.turn,
    }


_MAJORITY_KEYS = tuple((family, f"{family}_majority") for family in FAMILIES)


def _categories(counts: list[dict[str, int]]) -> list[dict[str, int]]:
    """Each seat's score categories: its pieces, then the majority bonuses (ambiguity 11)."""
    top = {family: max([c[family] for c in counts]) for family in FAMILIES}
    result = []
    for c in counts:
        categories = c.copy()
        for family, key in _MAJORITY_KEYS:
            most = top[family]
            categories[key] = MAJORITY_BONUS if most and c[family] == most else 0
        result.append(categories)
    return result


def _totals(counts: list[dict[str, int]]) -> list[int]:
    """Each seat's total: its pieces plus its majority bonuses (as :func:`_categories`
    sums them, without building the categories)."""
    totals = [sum(c.values()) for c in counts]
    for family in FAMILIES:
        most = max([c[family] for c in counts])
        if most:
            for seat, c in enumerate(counts):
                if c[family] == most:
                    totals[seat] += MAJORITY_BONUS
    return totals


class UnderTheLeaves:
    """The Under the Leaves rules engine (implements ``services.core.engine.Engine``)."""

    name = "undertheleaves"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    # --- setup and turn order -------------------------------------------------

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError("players", f"must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        flags, dwellers = _parse_options(options)
        rng = Rng(seed)
        bag = [t.id for t in GARDEN_TILES]
        rng.shuffle(bag)
        del bag[BAG_SIZE[players] :]  # the rest leave the game unseen
        market = [bag.pop() for _ in range(MARKET_SIZE)]
        starts = [t.id for t in START_TILES]
        rng.shuffle(starts)
        cards = _choose_cards(dwellers, rng)
        first = rng.below(players)
        return State(
            players=players,
            options=flags,
            cards=cards,
            bag=bag,
            market=market,
            gardens=[Garden(tiles=[PlacedTile(starts[seat], 0, 0)]) for seat in range(players)],
            first_seat=first,
            current=first,
            turn=0,
            phase=st.TAKE_TILE,
            pending_card="",
            rng=rng.state,
        )

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == st.OVER else [state.current]

    def is_over(self, state: State) -> bool:
        return state.phase == st.OVER

    # --- decisions ------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Action]:
        if seat != state.current or state.phase == st.OVER:
            return []
        phase = state.phase
        if phase == st.TAKE_TILE:
            return [_take_tile_action(slot, tile) for slot, tile in enumerate(state.market)]
        if phase == st.PLACE_TILE:
            orientations = OFFERED[state.taken_tile][state.options.allow_flip]
            table = _PLACE_ACTIONS.get(orientations) or {}
            actions: list[Action] = []
            for x, y in state.gardens[seat].frontier()[0]:
                at = table.get((x, y))
                actions += at if at is not None else _place_tile_actions(orientations, x, y)
            return actions
        return [_place_dweller_action(state.pending_card, p) for p in self._dweller_options(state)]

    def apply(self, state: State, seat: int, action: Action) -> State:
        if state.phase == st.OVER:
            raise IllegalAction("GAME_OVER", "the game is over")
        if seat != state.current:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {state.current} is to act")
        if action.kind != state.phase:
            raise IllegalAction("UNEXPECTED_ACTION", f"expected {state.phase}, got {action.kind!r}")
        if action.kind == st.PLACE_TILE:
            self._place_tile(state, _args(action, _PLACE_TILE_ARGS))
        elif action.kind == st.TAKE_TILE:
            self._take_tile(state, _args(action, _TAKE_TILE_ARGS))
        else:
            self._place_dweller(state, _args(action, _PLACE_DWELLER_ARGS))
        return state

    def _take_tile(self, state: State, args: dict[str, Any]) -> None:
        slot = args["slot"]
        if not 0 <= slot < len(state.market):
            raise IllegalAction(
                "NO_SUCH_SLOT", f"the market has slots 0 to {len(state.market) - 1}"
            )
        state.taken_tile = state.market.pop(slot)
        state.phase = st.PLACE_TILE

    def _place_tile(self, state: State, args: dict[str, Any]) -> None:
        x, y, rotation, flipped = args["x"], args["y"], args["rotation"], args["flipped"]
        if rotation not in ROTATIONS:
            raise IllegalAction("BAD_ROTATION", "rotation must be 0, 90, 180 or 270")
        allow_flip = state.options.allow_flip
        if flipped and not allow_flip:
            raise IllegalAction("FLIP_NOT_ALLOWED", "this game does not allow flipped tiles")
        garden = state.gardens[state.current]
        _, taken = garden.frontier()
        if (x, y) in taken:
            raise IllegalAction("POSITION_OCCUPIED", f"a tile is already at ({x}, {y})")
        if not (
            (x + 1, y) in taken or (x - 1, y) in taken or (x, y + 1) in taken or (x, y - 1) in taken
        ):
            raise IllegalAction(
                "TILE_NOT_ADJACENT", "a tile must share a full side with a placed tile"
            )
        tile = state.taken_tile
        offered = OFFERED[tile][allow_flip]
        if (rotation, flipped) not in offered:
            face = FACES[tile][(rotation, flipped)]
            same = next((o for o in offered if FACES[tile][o] == face), (0, False))
            raise IllegalAction(
                "DUPLICATE_ORIENTATION",
                f"{tile} shows the same face rotated {same[0]}°"
                + (", flipped" if same[1] else "")
                + ", which is offered instead",
            )
        garden.place(PlacedTile(tile, x, y, rotation, flipped))
        board = garden.get_board()
        state.taken_tile = ""
        garden.bee_sectors = settle_bees(garden.bee_sectors, board, state.options)
        garden.hummingbirds = settle_hummingbirds(garden.hummingbirds, board)
        self._dwellers_arrive(state, board, first_card=0)

    def _place_dweller(self, state: State, args: dict[str, Any]) -> None:
        if args["card"] != state.pending_card:
            raise IllegalAction("WRONG_CARD", f"the pending choice is for {state.pending_card}")
        options = self._dweller_options(state)
        chosen = next(
            (p for p in options if XS[p.anchor] == args["x"] and YS[p.anchor] == args["y"]),
            None,
        )
        if chosen is None:
            raise IllegalAction(
                "NOT_A_DWELLER_OPTION", f"({args['x']}, {args['y']}) is not offered"
            )
        garden = state.gardens[state.current]
        garden.dwellers.append(
            st.Dweller(state.pending_card, chosen.anchor, tuple(sorted(chosen.cells)), state.turn)
        )
        self._dwellers_arrive(
            state, garden.get_board(), first_card=state.cards.index(state.pending_card)
        )

    def _dweller_options(self, state: State) -> list[Placement]:
        garden = state.gardens[state.current]
        return options_for(
            state.pending_card, garden.get_board(), garden.dwellers, state.turn, state.options
        )

    def _dwellers_arrive(self, state: State, board: Board, first_card: int) -> None:
        """Resolve the cards from ``first_card`` on; stop at the first real choice."""
        garden = state.gardens[state.current]
        for card in state.cards[first_card:]:
            if resolve(card, board, garden.dwellers, state.turn, state.options):
                state.phase, state.pending_card = st.PLACE_DWELLER, card
                return
        self._end_turn(state)

    def _end_turn(self, state: State) -> None:
        """Refill the market; when it cannot be refilled the game ends (ambiguity 2)."""
        state.turn += 1
        state.pending_card = ""
        if not state.bag:
            state.phase = st.OVER
            return
        state.market.append(state.bag.pop())
        state.current = (state.current + 1) % state.players
        state.phase = st.TAKE_TILE

    # --- scoring --------------------------------------------------------------

    def score(self, state: State) -> ScoreBoard:
        """Pieces per seat, with the majority bonus as if the game ended now.

        Total = bees + hummingbirds + dwellers + 2 per family where the seat has
        the most pieces of that family (ties all get it; a top of 0 gives
        nothing). Ties are broken by hummingbirds, then bees, then shared.
        """
        counts = [pieces(g) for g in state.gardens]
        seats = []
        for seat, (c, categories) in enumerate(zip(counts, _categories(counts), strict=True)):
            seats.append(
                SeatScore(
                    seat=seat,
                    total=sum(categories.values()),
                    categories=categories,
                    tiebreak=(c["hummingbirds"], c["bees"]),
                )
            )
        return ScoreBoard(seats=seats, final=self.is_over(state)).rank_seats()

    # --- what a seat sees -----------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything public: all gardens, the market, the bag's size (never its order).

        Keys and values follow ``View`` in protos/roost/undertheleaves/v1/types.proto.
        """
        choosing = state.phase == st.PLACE_DWELLER
        counts = [_garden_counts(g) for g in state.gardens]
        kept = state.totals_cache
        if kept is not None and all(map(operator.is_, kept[0], counts)):
            totals = kept[1]
        else:
            totals = _totals(counts)
            state.totals_cache = (counts, totals)
        options = state.options
        taken = state.taken_tile
        return {
            "viewer_seat": -1 if seat is None else seat,
            "players": state.players,
            "variants": {
                "allow_flip": options.allow_flip,
                "thoughtful_one_per_sector_per_turn": options.thoughtful_one_per_sector_per_turn,
                "existing_sector_bonus_once_per_colour_per_turn": (
                    options.existing_sector_bonus_once_per_colour_per_turn
                ),
            },
            "dweller_cards": _cards_view(tuple(state.cards)),
            "market": [_market_view(slot, tile) for slot, tile in enumerate(state.market)],
            "bag_count": len(state.bag),
            "first_seat": state.first_seat,
            "current_seat": -1 if state.phase == st.OVER else state.current,
            "turns_played": state.turn,
            "turns_total": BAG_SIZE[state.players] - MARKET_SIZE + 1,
            "phase": _PHASES[state.phase],
            "taken_tile": taken,
            "taken_spaces": _spaces_view(taken) if taken else [],
            "pending_card": state.pending_card,
            "pending_options": [_placement_view(p) for p in self._dweller_options(state)]
            if choosing
            else [],
            "gardens": [
                _garden_view(owner, garden, totals[owner])
                for owner, garden in enumerate(state.gardens)
            ],
        }

    # --- hidden information ---------------------------------------------------

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy with the bag (its order, and which tiles left the game unseen at
        setup) redrawn from the unseen tiles and a reseeded generator
        (``hidden.determinize``); nothing else is hidden from any seat."""
        return hidden.determinize(state, seat, rng)

    # --- storage --------------------------------------------------------------

    def encode(self, state: State) -> bytes:
        return st.encode(state)

    def decode(self, data: bytes) -> State:
        return st.decode(data)

    def clone(self, state: State) -> State:
        return st.clone(state)

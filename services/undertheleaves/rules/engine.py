"""Under the Leaves: the engine behind ``roost.undertheleaves.v1``.

A turn is one ``place_tile`` decision (market slot, position, rotation, flip),
after which bees, hummingbirds and the dwellers of the three cards in play
arrive by themselves, in the rulebook's order: bees, hummingbirds, leaf,
puddle, mushroom. When a dweller card offers a real choice (which of two
puddles gets the Friendly, which of two overlapping squares gets the
Thoughtful, ...) the same seat gets ``place_dweller`` decisions until none is
left. Then the market is refilled; when it cannot be, the game is over.

The rules and the numbered ambiguity resolutions this follows are listed in
docs/games/undertheleaves.md, each with the tests that pin it down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine import Action, IllegalAction, OptionError, Rng, ScoreBoard, SeatScore
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import (
    Board,
    Cell,
    PlacedTile,
    block,
    frontier,
    reading_order,
)
from services.undertheleaves.rules.catalogue import (
    BAG_SIZE,
    CARDS,
    CARDS_BY_FAMILY,
    FAMILIES,
    FIRST_GAME_CARDS,
    GARDEN_TILES,
    MARKET_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROTATIONS,
    START_TILES,
    TILES,
    DwellerCard,
    Space,
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
_PLACE_TILE_ARGS = {"slot": int, "x": int, "y": int, "rotation": int, "flipped": bool}
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
    """The action's args checked against ``spec`` (names and types), or BAD_ARGS."""
    args = action.arg_dict()
    if len(args) != len(action.args) or set(args) != set(spec):
        raise IllegalAction("BAD_ARGS", f"{action.kind} takes {', '.join(spec)}")
    for name, kind in spec.items():
        value = args[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise IllegalAction("BAD_ARGS", f"{name} must be {kind.__name__}")
    return args


def _place_tile_action(
    slot: int, tile: str, x: int, y: int, rotation: int, flipped: bool
) -> Action:
    label = f"Place {tile} (slot {slot}) at ({x}, {y}), rotated {rotation}°"
    return Action(
        "place_tile",
        (("slot", slot), ("x", x), ("y", y), ("rotation", rotation), ("flipped", flipped)),
        label + (", flipped" if flipped else ""),
    )


def _place_dweller_action(card: str, placement: Placement) -> Action:
    x, y = placement.anchor
    where = f"({x}, {y})"
    if placement.cells == block(placement.anchor):
        where = f"the square ({x}, {y})-({x + 1}, {y + 1})"
    return Action(
        "place_dweller",
        (("card", card), ("x", x), ("y", y)),
        f"{CARDS[card].name} on {where}",
    )


def pieces(garden: Garden) -> dict[str, int]:
    """The garden's pieces by kind: bees, hummingbirds and each dweller family."""
    counts = {
        "bees": sum(b.bees for b in garden.bee_sectors),
        "hummingbirds": sum(garden.hummingbirds.values()),
    }
    for family in FAMILIES:
        counts[family] = sum(1 for d in garden.dwellers if CARDS[d.card].family == family)
    return counts


_PHASES = {
    st.PLACE_TILE: "PHASE_PLACE_TILE",
    st.PLACE_DWELLER: "PHASE_PLACE_DWELLER",
    st.OVER: "PHASE_OVER",
}


def _terrain(name: str) -> str:
    return f"TERRAIN_{name.upper()}"


def _cells_view(cells: frozenset[Cell]) -> list[dict[str, int]]:
    return [{"x": x, "y": y} for x, y in reading_order(cells)]


def _space_view(space: Space) -> dict[str, Any]:
    return {"terrain": _terrain(space.terrain), "mushroom": space.mushroom}


def _placement_view(placement: Placement) -> dict[str, Any]:
    x, y = placement.anchor
    return {"x": x, "y": y, "cells": _cells_view(placement.cells)}


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


def _garden_view(seat: int, garden: Garden, score: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "tiles": [
            {
                "tile": t.tile,
                "x": t.x,
                "y": t.y,
                "rotation": t.rotation,
                "flipped": t.flipped,
                "cells": [{"x": x, "y": y, **_space_view(space)} for (x, y), space in t.spaces()],
                "hummingbirds": garden.hummingbirds.get(t.position, 0),
            }
            for t in garden.tiles
        ],
        "bee_sectors": [
            {"colour": _terrain(b.colour), "bees": b.bees, "cells": _cells_view(b.cells)}
            for b in garden.bee_sectors
        ],
        "dwellers": [
            {
                "card": d.card,
                "family": f"FAMILY_{CARDS[d.card].family.upper()}",
                "x": d.anchor[0],
                "y": d.anchor[1],
                "cells": _cells_view(d.cells),
                "turn": d.turn,
            }
            for d in garden.dwellers
        ],
        "pieces": pieces(garden),
        "score": score,
    }


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
            phase=st.PLACE_TILE,
            pending_card="",
            rng=rng.state,
        )

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == st.OVER else [state.current]

    def is_over(self, state: State) -> bool:
        return state.phase == st.OVER

    # --- decisions ------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == st.PLACE_DWELLER:
            return [
                _place_dweller_action(state.pending_card, p) for p in self._dweller_options(state)
            ]
        positions = frontier(t.position for t in state.gardens[seat].tiles)
        flips = (False, True) if state.options.allow_flip else (False,)
        return [
            _place_tile_action(slot, tile, x, y, rotation, flipped)
            for slot, tile in enumerate(state.market)
            for x, y in positions
            for rotation in ROTATIONS
            for flipped in flips
        ]

    def apply(self, state: State, seat: int, action: Action) -> State:
        if state.phase == st.OVER:
            raise IllegalAction("GAME_OVER", "the game is over")
        if seat != state.current:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {state.current} is to act")
        if action.kind != state.phase:
            raise IllegalAction("UNEXPECTED_ACTION", f"expected {state.phase}, got {action.kind!r}")
        if action.kind == st.PLACE_TILE:
            self._place_tile(state, _args(action, _PLACE_TILE_ARGS))
        else:
            self._place_dweller(state, _args(action, _PLACE_DWELLER_ARGS))
        return state

    def _place_tile(self, state: State, args: dict[str, Any]) -> None:
        garden = state.gardens[state.current]
        slot, x, y = args["slot"], args["x"], args["y"]
        if not 0 <= slot < len(state.market):
            raise IllegalAction(
                "NO_SUCH_SLOT", f"the market has slots 0 to {len(state.market) - 1}"
            )
        if args["rotation"] not in ROTATIONS:
            raise IllegalAction("BAD_ROTATION", "rotation must be 0, 90, 180 or 270")
        if args["flipped"] and not state.options.allow_flip:
            raise IllegalAction("FLIP_NOT_ALLOWED", "this game does not allow flipped tiles")
        taken = [t.position for t in garden.tiles]
        if (x, y) in taken:
            raise IllegalAction("POSITION_OCCUPIED", f"a tile is already at ({x}, {y})")
        if (x, y) not in frontier(taken):
            raise IllegalAction(
                "TILE_NOT_ADJACENT", "a tile must share a full side with a placed tile"
            )
        tile = state.market.pop(slot)
        garden.tiles.append(PlacedTile(tile, x, y, args["rotation"], args["flipped"]))
        board = Board(garden.tiles)
        garden.bee_sectors = settle_bees(garden.bee_sectors, board, state.options)
        garden.hummingbirds = settle_hummingbirds(garden.hummingbirds, board)
        self._dwellers_arrive(state, board, first_card=0)

    def _place_dweller(self, state: State, args: dict[str, Any]) -> None:
        if args["card"] != state.pending_card:
            raise IllegalAction("WRONG_CARD", f"the pending choice is for {state.pending_card}")
        chosen = next(
            (p for p in self._dweller_options(state) if p.anchor == (args["x"], args["y"])), None
        )
        if chosen is None:
            raise IllegalAction(
                "NOT_A_DWELLER_OPTION", f"({args['x']}, {args['y']}) is not offered"
            )
        garden = state.gardens[state.current]
        garden.dwellers.append(
            st.Dweller(state.pending_card, chosen.anchor, chosen.cells, state.turn)
        )
        self._dwellers_arrive(
            state, Board(garden.tiles), first_card=state.cards.index(state.pending_card)
        )

    def _dweller_options(self, state: State) -> list[Placement]:
        garden = state.gardens[state.current]
        return options_for(
            state.pending_card, Board(garden.tiles), garden.dwellers, state.turn, state.options
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
        state.phase = st.PLACE_TILE

    # --- scoring --------------------------------------------------------------

    def score(self, state: State) -> ScoreBoard:
        """Pieces per seat, with the majority bonus as if the game ended now.

        Total = bees + hummingbirds + dwellers + 2 per family where the seat has
        the most pieces of that family (ties all get it; a top of 0 gives
        nothing). Ties are broken by hummingbirds, then bees, then shared.
        """
        counts = [pieces(g) for g in state.gardens]
        top = {family: max(c[family] for c in counts) for family in FAMILIES}
        seats = []
        for seat, c in enumerate(counts):
            categories = dict(c)
            for family in FAMILIES:
                won = top[family] > 0 and c[family] == top[family]
                categories[f"{family}_majority"] = MAJORITY_BONUS if won else 0
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
        totals = [s.total for s in self.score(state).seats]
        return {
            "viewer": -1 if seat is None else seat,
            "players": state.players,
            "variants": {name: getattr(state.options, name) for name in _BOOL_OPTIONS},
            "dweller_cards": [_card_view(CARDS[card]) for card in state.cards],
            "market": [
                {
                    "slot": slot,
                    "tile": tile,
                    "spaces": [_space_view(space) for space in TILES[tile].face],
                }
                for slot, tile in enumerate(state.market)
            ],
            "bag_count": len(state.bag),
            "first_seat": state.first_seat,
            "current_seat": -1 if state.phase == st.OVER else state.current,
            "turns_played": state.turn,
            "turns_total": BAG_SIZE[state.players] - MARKET_SIZE + 1,
            "phase": _PHASES[state.phase],
            "pending_card": state.pending_card,
            "pending_options": [_placement_view(p) for p in self._dweller_options(state)]
            if choosing
            else [],
            "gardens": [
                _garden_view(owner, garden, totals[owner])
                for owner, garden in enumerate(state.gardens)
            ],
        }

    # --- storage --------------------------------------------------------------

    def encode(self, state: State) -> bytes:
        return st.encode(state)

    def decode(self, data: bytes) -> State:
        return st.decode(data)

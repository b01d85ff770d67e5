"""Under the Leaves: the engine behind ``roost.undertheleaves.v1``.

A turn is two decisions: ``take_tile`` (a market slot) then ``place_tile``
(position, rotation, flip) for the tile taken, after which bees, hummingbirds
and the dwellers of the three cards in play arrive by themselves, in the
rulebook's order: bees, hummingbirds, leaf, puddle, mushroom. When a
dweller card offers a real choice (which of two puddles gets the Friendly,
which of two overlapping squares gets the Thoughtful, ...) the same seat gets
``place_dweller`` decisions until none is left. Then the market is refilled;
when it cannot be, the game is over.

The engine is the contract's front: setup is in :mod:`setup`, the turn's
steps in :mod:`turns`, the actions in :mod:`actions`, scoring in
:mod:`scoring`, the view in :mod:`view`, the caches' switches in
:mod:`caches`. The rules and the numbered ambiguity resolutions this follows
are listed in docs/games/undertheleaves.md, each with the tests that pin it down.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from services.core.engine import Action, IllegalAction, Rng, ScoreBoard
from services.undertheleaves.rules import hidden, scoring, setup, turns
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules import view as views
from services.undertheleaves.rules.actions import (
    PLACE_DWELLER_ARGS,
    PLACE_TILE_ARGS,
    TAKE_TILE_ARGS,
    checked_args,
    place_dweller_action,
    place_tile_actions,
    take_tile_action,
)
from services.undertheleaves.rules.catalogue import MAX_PLAYERS, MIN_PLAYERS, OFFERED
from services.undertheleaves.rules.state import State

#: Phase (the action kind it expects) -> the turn step that applies it and the
#: arguments that action takes.
STEPS: Mapping[str, tuple[Callable[[State, dict[str, Any]], None], Mapping[str, type]]] = {
    st.TAKE_TILE: (turns.take_tile, TAKE_TILE_ARGS),
    st.PLACE_TILE: (turns.place_tile, PLACE_TILE_ARGS),
    st.PLACE_DWELLER: (turns.place_dweller, PLACE_DWELLER_ARGS),
}


class UnderTheLeaves:
    """The Under the Leaves rules engine (implements ``services.core.engine.Engine``)."""

    name = "undertheleaves"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        """Setup (:func:`setup.setup`)."""
        return setup.setup(players, options, seed)

    def to_act(self, state: State) -> list[int]:
        """One seat acts at a time: the current one, until the game is over."""
        return [] if state.phase == st.OVER else [state.current]

    def is_over(self, state: State) -> bool:
        return state.phase == st.OVER

    def legal(self, state: State, seat: int) -> list[Action]:
        """The current seat's options: a market slot, a position and orientation
        for the tile taken (beside a placed tile, each distinct face once), or a
        place for the pending dweller."""
        if seat != state.current or state.phase == st.OVER:
            return []
        phase = state.phase
        if phase == st.TAKE_TILE:
            return [take_tile_action(slot, tile) for slot, tile in enumerate(state.market)]
        if phase == st.PLACE_TILE:
            orientations = OFFERED[state.taken_tile][state.options.allow_flip]
            return place_tile_actions(orientations, state.gardens[seat].frontier()[0])
        return [place_dweller_action(state.pending_card, p) for p in turns.dweller_options(state)]

    def apply(self, state: State, seat: int, action: Action) -> State:
        """The turn step of the current phase (:data:`STEPS`), in place."""
        if state.phase == st.OVER:
            raise IllegalAction("GAME_OVER", "the game is over")
        if seat != state.current:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {state.current} is to act")
        if action.kind != state.phase:
            raise IllegalAction("UNEXPECTED_ACTION", f"expected {state.phase}, got {action.kind!r}")
        step, spec = STEPS[action.kind]
        step(state, checked_args(action, spec))
        return state

    def score(self, state: State) -> ScoreBoard:
        """Scoring as if the game ended now (:func:`scoring.score`)."""
        return scoring.score(state, final=self.is_over(state))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything public (:func:`view.view`)."""
        return views.view(state, seat)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy with the bag (its order, and which tiles left the game unseen at
        setup) redrawn from the unseen tiles and a reseeded generator
        (``hidden.determinize``); nothing else is hidden from any seat."""
        return hidden.determinize(state, seat, rng)

    def encode(self, state: State) -> bytes:
        return st.encode(state)

    def decode(self, data: bytes) -> State:
        return st.decode(data)

    def clone(self, state: State) -> State:
        return st.clone(state)

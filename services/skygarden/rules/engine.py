"""Sky Garden rules engine (1-4 players).

The state is a :class:`.state.GameState` record (built by :func:`.setup.setup`), mutated
in place and stored by :mod:`.storage`. A turn is a sequence of atomic decisions; the
turn's progress lives in ``state.turn`` (a :class:`.state.Turn` record):

* ``Step.MOVE``: move the Owner token (or enter Standby);
* ``Step.CHIP``: resolve the chip: take the bird (orange two-bird chips ask
  ``choose_chip_bird``), ``move_employee``, then place/release the bird and make
  additional purchases in any order; on a blue chip: ``advertise`` or ``buy_special``;
* ``Step.AFTER``: the chip is done: the space action (if the space has an
  active icon and it was not used) and ``end_turn``;
* ``Step.STANDBY`` (solo only): the Owner token entered Standby and the Standby
  breeds are done; free actions, then ``end_turn``.

Free actions (milestones, moving birds/trees to the Forest, refilling lakes,
nest moves) are listed at every one of these points. Bonus and adjustment
sub-decisions queue in ``turn.pending`` and block everything else until
resolved. Each method below hands over to the module of its rule; the dispatch tables
are in :mod:`.dispatch`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine import Action, IllegalAction, Rng, ScoreBoard

from . import hidden, storage
from .dispatch import APPLY_BY_KIND, legal_turn
from .events import legal_keep_event
from .scoring import score_board
from .setup import MAX_PLAYERS, MIN_PLAYERS, setup
from .state import GameState, Phase
from .view import build_view


class SkyGardenEngine:
    """Sky Garden rules (see the module docstring and docs/games/skygarden.md): the
    engine contract, each method handing over to the module of its rule."""

    name = "skygarden"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> GameState:
        """Board Setup and Player Setup (:func:`.setup.setup`)."""
        return setup(players, options, seed)

    def to_act(self, state: GameState) -> list[int]:
        """The seat whose turn it is; at setup step 15, every seat still choosing."""
        phase = state.phase
        if phase == Phase.PLAY:
            return [state.turn.seat]
        if phase == Phase.EVENT:
            return [i for i, p in enumerate(state.players) if p.event_card < 0]
        return []

    def is_over(self, state: GameState) -> bool:
        return state.phase == Phase.OVER

    def legal(self, state: GameState, seat: int) -> list[Action]:
        """The seat's decisions now (:func:`.dispatch.legal_turn`, or the Event card
        choice)."""
        phase = state.phase
        if phase == Phase.PLAY:
            if seat != state.turn.seat:
                return []
            return legal_turn(state, seat)
        if phase == Phase.EVENT:
            return legal_keep_event(state, seat)
        return []

    def apply(self, state: GameState, seat: int, action: Action) -> GameState:
        """Check the action is legal, then run its handler (:data:`.dispatch.APPLY_BY_KIND`)."""
        st = state
        if st.phase == Phase.OVER:
            raise IllegalAction("SKYGARDEN_OVER", "the game is over")
        if seat not in self.to_act(st):
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} is not asked to decide now")
        kind, args = action.kind, action.args
        for candidate in self.legal(st, seat):
            if candidate.kind == kind and candidate.args == args:
                break
        else:
            raise IllegalAction("NOT_LEGAL", f"{kind} {dict(args)} is not legal now")
        APPLY_BY_KIND[kind](st, seat, dict(args))
        return st

    def score(self, state: GameState) -> ScoreBoard:
        """Game End and Final Scoring (:func:`.scoring.score_board`)."""
        return score_board(state)

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def determinize(self, state: GameState, seat: int | None, rng: Rng) -> GameState:
        """A copy with what ``seat`` cannot see resampled (see :mod:`.hidden`)."""
        return hidden.determinize(state, seat, rng)

    def encode(self, state: GameState) -> bytes:
        """The stored form (:func:`.storage.encode`)."""
        return storage.encode(state)

    def decode(self, data: bytes) -> GameState:
        """A stored state back (:func:`.storage.decode`)."""
        return storage.decode(data)

    def clone(self, state: GameState) -> GameState:
        """An independent copy, through the stored form."""
        return storage.decode(storage.encode(state))

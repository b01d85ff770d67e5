"""The Birdscaping rules engine (2 players, or solo against the AI column).

Section names in docstrings refer to the rulebook (``birdscaping-rulebook.txt``
of the shared seeds); ``AMB n`` to the numbered resolutions in
``data/AMBIGUITIES.md``.

A turn is two actions; each action is a chain of atomic decisions kept in the
state as ``step`` (plus its data): choose an action, pay a card's cost one
source at a time, order the discards, spend Pond cards, take drafted cards,
resolve a When Activated ability, discard down to the hand limit.

This class is the engine contract only; the rules live in one module per
phase or mechanism, reached through the tables of ``dispatch.py``:

* ``setup.py``: a new game, the Initial Draft, the solo gift to the AI
* ``flow.py``: who acts, end of action and turn, the offer, rounds, game end
* ``choose.py``: choosing an action; Untilt, Draw, an action lost
* ``payment.py``: Play a Card, its costs and payment, ordering discards
* ``drafting.py``: the Draft Cards action
* ``abilities.py``: Activate a Feature Row and the When Activated abilities
* ``tableau.py``: what a tableau gives (nesting, curious birds, hand limit)
* ``solo.py``: the solo AI; ``scoring.py``: scores; ``view.py``: the View
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.birdscaping.rules import hidden
from services.birdscaping.rules.dispatch import APPLY_BY_KIND, LEGAL_AT_STEP
from services.birdscaping.rules.flow import to_act
from services.birdscaping.rules.scoring import score
from services.birdscaping.rules.setup import new_game
from services.birdscaping.rules.state import OVER, State
from services.birdscaping.rules.view import view
from services.core.engine import Action, IllegalAction, Rng, ScoreBoard, jsonstate


class BirdscapingEngine:
    """Birdscaping: 1 (solo vs the AI column) or 2 players."""

    name = "birdscaping"
    min_players = 1
    max_players = 2

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        """A new game (Setup / The Initial Draft; Solo Mode); see ``setup.new_game``.

        Options: ``difficulty`` ("easy" | "normal" | "hard", default "normal";
        solo only, a 2-player game accepts only "normal").
        """
        return new_game(players, options, seed)

    def to_act(self, s: State) -> list[int]:
        """Seats that must decide now."""
        return to_act(s)

    def is_over(self, s: State) -> bool:
        """True once the game has ended."""
        return s.phase == OVER

    def legal(self, s: State, seat: int) -> list[Action]:
        """Every legal decision of ``seat`` now (empty if it is not asked)."""
        if seat not in to_act(s):
            return []
        return LEGAL_AT_STEP[s.step](s, seat)

    def apply(self, s: State, seat: int, action: Action) -> State:
        """Validate against the legal list, then mutate ``s`` in place."""
        if s.phase == OVER:
            raise IllegalAction("GAME_OVER", "the game is over")
        if seat not in to_act(s):
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} is not asked to act")
        key = action.key()
        for candidate in LEGAL_AT_STEP[s.step](s, seat):
            if candidate.key() == key:
                break
        else:
            raise IllegalAction("NOT_LEGAL", f"{action.kind} {dict(action.args)} is not legal now")
        APPLY_BY_KIND[action.kind](s, seat, action)
        return s

    def score(self, s: State) -> ScoreBoard:
        """Card points plus Scoring abilities; ties: most cards, fewest tilted (AMB 14).

        Solo Mode (AMB 16): ``solo`` compares the player's points with the AI
        column's printed points; the player wins only with strictly more (a tie
        is a loss, and a lost game has no winner). Mid-game ``solo.won`` says
        whether the player is ahead now. See ``scoring.score``.
        """
        return score(s)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: spectator) may see; keys = proto View fields."""
        return view(s, seat)

    def determinize(self, s: State, seat: int | None, rng: Rng) -> State:
        """A copy of ``s`` with everything ``seat`` cannot see redrawn from what it
        cannot tell apart (``hidden.determinize``: the deck, other hands and draft
        packets, cards looked at by another seat, the generator)."""
        return hidden.determinize(s, seat, rng)

    def encode(self, s: State) -> bytes:
        """Deterministic JSON bytes of the full state."""
        return jsonstate.dumps(s.to_dict(), sort_keys=True)

    def decode(self, data: bytes) -> State:
        """Inverse of :meth:`encode`."""
        return State.from_dict(jsonstate.loads(data))

    def clone(self, s: State) -> State:
        """An independent copy (:meth:`State.copy`)."""
        return s.copy()


__all__ = ["BirdscapingEngine", "State"]

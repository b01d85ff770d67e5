"""The engine contract every game implements (the heart of Roost).

A rules engine is a pure object: no I/O, no gRPC, no Redis. The service layer
drives it only through the methods of :class:`Engine`. Decisions are atomic,
as in OpenSpiel: a compound turn is a sequence of small decisions, each one
listed by :meth:`Engine.legal`, so the legal list is always small and complete.

Conventions every engine follows
--------------------------------
* Seats are ``0 .. players-1``.
* ``legal(state, seat)`` is empty for a seat that is not asked to decide now.
  Several seats may be asked at once (simultaneous decisions).
* ``apply`` validates first and raises :class:`IllegalAction` before it
  touches anything: a rejected action never changes the state. It may then
  mutate the given state in place and return it (callers that need the old
  state keep an encoded copy).
* All randomness comes from the :class:`~services.core.engine.rng.Rng` kept
  inside the state. Same options, seed and actions give byte-identical
  ``encode`` output.
* ``view(state, seat)`` returns only what that seat may see; ``seat=None`` is
  a spectator. A view never holds another seat's hand, the order of a deck or
  bag, or the generator's state. Its keys match the fields of the game's
  protobuf ``View`` message, so the service can convert it mechanically.
* An :class:`Action` is a ``kind`` plus ``args``; the kind names a message in
  the game's protobuf ``Action`` oneof and the args name that message's
  fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from services.core.engine.rng import Rng

ArgValue = int | str | bool | tuple[int, ...] | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One atomic decision.

    ``kind`` is a snake_case name (``"place_tile"``), ``args`` the typed
    parameters as ``(name, value)`` pairs in a fixed order, ``label`` a short
    human text ("Place tile 17 at (1, 0), rotated 90°").

    ``secret`` marks a decision other seats must not learn (a card kept from a
    draft, a secretly chosen bonus card): the log and Watch show other seats
    and spectators only ``public_label`` (or "seat N decided"), never the args.
    """

    kind: str
    args: tuple[tuple[str, ArgValue], ...] = ()
    label: str = ""
    secret: bool = False
    public_label: str = ""
    #: Cache of ``hash(self)`` (0 until first asked): actions are dict keys in
    #: engines' tables and in the service's codec.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        cached = self._hash
        if not cached:
            cached = hash((self.kind, self.args, self.label, self.secret, self.public_label)) or 1
            object.__setattr__(self, "_hash", cached)
        return cached

    def __reduce__(self) -> tuple[type[Action], tuple[Any, ...]]:
        """Copies and pickles carry the decision only, never the caches."""
        return (Action, (self.kind, self.args, self.label, self.secret, self.public_label))

    def arg(self, name: str) -> ArgValue:
        """Return the value of argument ``name`` (KeyError if absent)."""
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)

    def arg_dict(self) -> dict[str, ArgValue]:
        """The args as a plain dict."""
        return dict(self.args)

    def key(self) -> tuple[str, tuple[tuple[str, ArgValue], ...]]:
        """Identity of the decision, ignoring labels: used to match a typed
        action sent by a client against the legal list."""
        return (self.kind, self.args)


class IllegalAction(Exception):
    """The action is not legal now.

    ``reason`` is a stable machine-readable UPPER_SNAKE code
    (``"NOT_YOUR_TURN"``, ``"GAME_OVER"``, ``"NOT_LEGAL"``, or a game-specific
    one such as ``"TILE_NOT_ADJACENT"``); the message is for humans.
    """

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.message = message or reason


class OptionError(ValueError):
    """Game options are invalid (wrong player count, unknown variant)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field_name = field_name
        self.message = message


@dataclass(slots=True)
class SeatScore:
    """One seat's score: the total and its breakdown by category.

    ``categories`` keeps insertion order (the order a score sheet lists them).
    ``tiebreak`` holds the values compared, in order, when totals are equal
    (higher is better). ``rank`` is 1 for the winner(s); tied seats share it.
    """

    seat: int
    total: int
    categories: dict[str, int] = field(default_factory=dict)
    tiebreak: tuple[int, ...] = ()
    rank: int = 0


@dataclass(frozen=True, slots=True)
class SoloResult:
    """How the one seat of a solo game fares against the game's AI or targets.

    ``won``: the player beat the AI or reached a target (mid-game: is ahead
    now). ``opponent_score`` is the AI's score in games with an AI (else
    None); ``targets`` the game's score targets, lowest first, and
    ``target_reached`` the highest one reached (0 when none).
    """

    won: bool
    opponent_score: int | None = None
    targets: tuple[int, ...] = ()
    target_reached: int = 0


@dataclass(slots=True)
class ScoreBoard:
    """Scores of every seat, valid mid-game (``final`` False) and at the end.

    ``extras`` carries game-specific facts worth reporting beside the score
    (e.g. Wingspan's round), as string pairs. ``solo`` is set in solo games:
    a lost solo game has no winners.
    """

    seats: list[SeatScore]
    final: bool
    extras: dict[str, str] = field(default_factory=dict)
    solo: SoloResult | None = None

    @property
    def winners(self) -> list[int]:
        """Seats ranked first; none when a solo game is lost."""
        if self.solo is not None and not self.solo.won:
            return []
        return [s.seat for s in self.seats if s.rank == 1]

    def rank_seats(self) -> ScoreBoard:
        """Set ``rank`` from total, then tiebreak; equal keys share a rank."""
        keyed = sorted(self.seats, key=lambda s: (s.total, s.tiebreak), reverse=True)
        previous: tuple[int, tuple[int, ...]] | None = None
        rank = 0
        for position, seat_score in enumerate(keyed, start=1):
            key = (seat_score.total, seat_score.tiebreak)
            if key != previous:
                rank = position
                previous = key
            seat_score.rank = rank
        return self


S = TypeVar("S")


@runtime_checkable
class Engine(Protocol[S]):
    """What the platform needs from a game. See the module docstring."""

    #: Service-facing game name, e.g. ``"undertheleaves"``.
    name: str
    #: Allowed player counts.
    min_players: int
    max_players: int

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> S:
        """A new game. Raises :class:`OptionError` for bad options."""
        ...

    def to_act(self, state: S) -> list[int]:
        """Seats that must decide now (empty once the game is over)."""
        ...

    def legal(self, state: S, seat: int) -> list[Action]:
        """Every legal decision of ``seat`` now, in a stable order."""
        ...

    def apply(self, state: S, seat: int, action: Action) -> S:
        """Apply one decision or raise :class:`IllegalAction` unchanged."""
        ...

    def is_over(self, state: S) -> bool:
        """True once the game has ended."""
        ...

    def score(self, state: S) -> ScoreBoard:
        """Current scores with their breakdown (final once over)."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (or a spectator, ``None``) may see."""
        ...

    def encode(self, state: S) -> bytes:
        """Deterministic bytes of the full state (secrets included)."""
        ...

    def decode(self, data: bytes) -> S:
        """Inverse of :meth:`encode`."""
        ...

    def clone(self, state: S) -> S:
        """An independent copy of ``state``: applying decisions to the copy never
        changes ``state``, and the copy plays on exactly as ``decode(encode(state))``
        would (same legal lists, views, scores and encoding). Used by score
        previews, which try every legal action on a copy."""
        ...

    def determinize(self, state: S, seat: int | None, rng: Rng) -> S:
        """A copy of ``state`` in which everything ``seat`` cannot see is
        resampled from what remains possible (``seat=None``: a spectator).

        Hidden orders (deck, bag, face-down piles), other seats' hands and
        secret choices not yet revealed are redrawn with ``rng``, and the copy's
        own generator is reseeded from ``rng``, so nothing of the true hidden
        order or of the true generator survives. The sample depends only on
        what the seat can see and on ``rng``: the pool of unseen items is put in
        a canonical order before it is shuffled, so two states that differ only
        in hidden information give the same sample for the same ``rng``. The
        seat's own legal actions are the same in the copy. ``state`` itself is
        never changed. Used by score previews and by search bots as their
        sampler of the hidden information.
        """
        ...

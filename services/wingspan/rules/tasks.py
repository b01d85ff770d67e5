"""The tasks of the flow stack, as named records.

Each task is a small record with slots: ``task.remaining`` rather than
``task[2]``. A state stores a task as the array ``[code, seat, *FIELDS]``
(:meth:`Task.row`; a record's ``FIELDS`` names its fields in the order its
``__init__`` takes them, the one place that order is written), so stored games
decode: ``power_tasks.as_task`` turns an array back into its record. This
module holds the tasks of the turn flow; ``power_tasks`` those that bird
powers push.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from .state import (
    D_BONUS,
    D_DISCARD_EOT,
    D_DRAW,
    D_LAY_EGG,
    D_PAY_EGG,
    D_PAY_FOOD,
    D_TAKE_DIE,
    D_TURN,
    P_DRAFT_END,
    P_END_TURN,
    P_EXTRA_EGG,
    P_PINK,
    P_PLACE,
    P_ROW,
    P_START_TURN,
    P_WHITE,
)

#: The food mask that allows every food.
ANY_FOOD = 31
#: "No bird" in a bird field.
NO_BIRD = -1
#: "Any nest" in a nest field.
ANY_NEST = -1


class Task:
    """A task: its ``code`` (``state.P_*`` / ``state.D_*``) and the ``seat`` it
    belongs to (the seat to act, for a decision). What a view shows of a
    pending decision: ``shown_bird``, ``shown_remaining``, ``shown_habitat``
    (-1 / 0 / -1 when the decision has none)."""

    __slots__ = ("code", "seat")
    CODE = -1
    #: The names of the fields after ``seat``, in stored order: the order the
    #: record's ``__init__`` takes them and :meth:`row` writes them. Each name
    #: is a slot of the record, documented there.
    FIELDS: tuple[str, ...] = ()
    #: Reads the stored array of a task: ``(code, seat, *FIELDS)``, made from
    #: ``FIELDS`` for every record class.
    ROW: Callable[[Task], tuple[int, ...]] = attrgetter("code", "seat")
    shown_bird = -1
    shown_remaining = 0
    shown_habitat = -1

    def __init__(self, seat: int) -> None:
        self.code = self.CODE
        self.seat = seat

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.ROW = attrgetter("code", "seat", *cls.FIELDS)

    def row(self) -> tuple[int, ...]:
        """The task as stored in the state's JSON: ``(code, seat, *fields)``."""
        return self.ROW(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.row()}"


class _Fixed(Task):
    """A task whose fields never change: one record per seat (or per value) is
    built at import and shared by every state (``START_TURN[seat]``), so the
    turn loop allocates nothing for it."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is shared and never changes")

    def __init__(self, seat: int, *values: int) -> None:
        object.__setattr__(self, "code", self.CODE)
        object.__setattr__(self, "seat", seat)
        for name, value in zip(self.FIELDS, values, strict=True):
            object.__setattr__(self, name, value)


# --------------------------------------------------------------- procedural
class StartTurn(_Fixed):
    """Start ``seat``'s turn."""

    __slots__ = ()
    CODE = P_START_TURN


class EndTurn(_Fixed):
    """End ``seat``'s turn (after its end-of-turn discards)."""

    __slots__ = ()
    CODE = P_END_TURN


class ActivateRow(Task):
    """The brown powers of ``habitat``, from column ``column`` leftwards."""

    __slots__ = {
        "column": "The next column to activate (right to left).",
        "habitat": "The row whose powers activate.",
    }
    FIELDS = ("habitat", "column")
    CODE = P_ROW

    def __init__(self, seat: int, habitat: int, column: int) -> None:
        self.code = P_ROW
        self.seat = seat
        self.habitat = habitat
        self.column = column


class PlaceBird(Task):
    """Bird ``bird`` (paid for) enters ``habitat``."""

    __slots__ = {
        "bird": "The bird being played (out of the hand, not yet on the board).",
        "habitat": "Where it goes.",
    }
    FIELDS = ("bird", "habitat")
    CODE = P_PLACE

    def __init__(self, seat: int, bird: int, habitat: int) -> None:
        self.code = P_PLACE
        self.seat = seat
        self.bird = bird
        self.habitat = habitat


class WhitePower(Task):
    """The white power of ``bird``, just played into ``habitat``."""

    __slots__ = {
        "bird": "The bird just played.",
        "habitat": "The habitat it was played in.",
    }
    FIELDS = ("bird", "habitat")
    CODE = P_WHITE

    def __init__(self, seat: int, bird: int, habitat: int) -> None:
        self.code = P_WHITE
        self.seat = seat
        self.bird = bird
        self.habitat = habitat


class PinkTrigger(_Fixed):
    """Ask the other seats' pink powers of ``trigger`` (``cards.TRIG_*``)."""

    __slots__ = {
        "param": "The trigger's parameter (the habitat of a bird played).",
        "trigger": "Which pink trigger (``cards.TRIG_*``).",
    }
    FIELDS = ("trigger", "param")
    CODE = P_PINK


class ExtraEgg(Task):
    """The optional second egg of an all-players-lay power."""

    __slots__ = {
        "nest": "The nest type of the power.",
    }
    FIELDS = ("nest",)
    CODE = P_EXTRA_EGG

    def __init__(self, seat: int, nest: int) -> None:
        self.code = P_EXTRA_EGG
        self.seat = seat
        self.nest = nest


class DraftEnd(Task):
    """The user of a draft power takes the card left over."""

    __slots__ = ()
    CODE = P_DRAFT_END

    def __init__(self, seat: int) -> None:
        self.code = P_DRAFT_END
        self.seat = seat


# ---------------------------------------------------------------- decisions
class ChooseTurn(_Fixed):
    """Play a bird or take a habitat action."""

    __slots__ = ()
    CODE = D_TURN


class BonusSpace(_Fixed):
    """The bonus space of a habitat action: pay for one more."""

    __slots__ = {
        "habitat": "The habitat of the action.",
    }
    FIELDS = ("habitat",)
    CODE = D_BONUS
    shown_habitat = property(attrgetter("habitat"))


class TakeDie(Task):
    """Take dice from the feeder, one at a time."""

    __slots__ = {
        "by_power": "1 for a power, 0 for the gain-food action (a rodent arms pinks).",
        "cache_bird": "The bird the food may be cached on, or -1.",
        "food_mask": "The foods that may be taken (bit per food).",
        "may_decline": "1 if the take may be declined.",
        "pink_bird": "The pink bird whose power this is, or -1.",
        "remaining": "Dice still to take.",
    }
    FIELDS = ("remaining", "by_power", "food_mask", "cache_bird", "may_decline", "pink_bird")
    CODE = D_TAKE_DIE
    shown_bird = property(attrgetter("pink_bird"))
    shown_remaining = property(attrgetter("remaining"))

    def __init__(
        self,
        seat: int,
        remaining: int,
        by_power: int,
        food_mask: int = ANY_FOOD,
        cache_bird: int = NO_BIRD,
        may_decline: int = 0,
        pink_bird: int = NO_BIRD,
    ) -> None:
        self.code = D_TAKE_DIE
        self.seat = seat
        self.remaining = remaining
        self.by_power = by_power
        self.food_mask = food_mask
        self.cache_bird = cache_bird
        self.may_decline = may_decline
        self.pink_bird = pink_bird


class LayEgg(Task):
    """Lay eggs one at a time."""

    __slots__ = {
        "excluded": "A bird that may not take the egg, or -1.",
        "may_decline": "1 if laying may be declined.",
        "nest": "The nest type required, or -1 for any.",
        "pink_bird": "The pink bird whose power this is, or -1.",
        "remaining": "Eggs still to lay.",
    }
    FIELDS = ("remaining", "nest", "excluded", "may_decline", "pink_bird")
    CODE = D_LAY_EGG
    shown_bird = property(attrgetter("pink_bird"))
    shown_remaining = property(attrgetter("remaining"))

    def __init__(
        self,
        seat: int,
        remaining: int,
        nest: int = ANY_NEST,
        excluded: int = NO_BIRD,
        may_decline: int = 0,
        pink_bird: int = NO_BIRD,
    ) -> None:
        self.code = D_LAY_EGG
        self.seat = seat
        self.remaining = remaining
        self.nest = nest
        self.excluded = excluded
        self.may_decline = may_decline
        self.pink_bird = pink_bird


class Draw(Task):
    """Draw cards, one at a time, from the tray or the deck."""

    __slots__ = {
        "remaining": "Cards still to draw.",
    }
    FIELDS = ("remaining",)
    CODE = D_DRAW
    shown_remaining = property(attrgetter("remaining"))

    def __init__(self, seat: int, remaining: int) -> None:
        self.code = D_DRAW
        self.seat = seat
        self.remaining = remaining


class PayFood(Task):
    """Pay the food cost of ``bird``."""

    __slots__ = {
        "bird": "The bird being played.",
    }
    FIELDS = ("bird",)
    CODE = D_PAY_FOOD
    shown_bird = property(attrgetter("bird"))

    def __init__(self, seat: int, bird: int) -> None:
        self.code = D_PAY_FOOD
        self.seat = seat
        self.bird = bird


class PayEgg(Task):
    """Pay the egg cost of a column, one egg at a time."""

    __slots__ = {
        "remaining": "Eggs still to pay.",
    }
    FIELDS = ("remaining",)
    CODE = D_PAY_EGG
    shown_remaining = property(attrgetter("remaining"))

    def __init__(self, seat: int, remaining: int) -> None:
        self.code = D_PAY_EGG
        self.seat = seat
        self.remaining = remaining


class SeatDecision(Task):
    """A decision with no field but its seat."""

    __slots__ = ()

    def __init__(self, seat: int) -> None:
        self.code = self.CODE
        self.seat = seat


class DiscardEndOfTurn(SeatDecision):
    """Discard a card at the end of the turn."""

    __slots__ = ()
    CODE = D_DISCARD_EOT


#: The shared turn tasks of each seat (the game has at most 5 seats).
START_TURN: tuple[StartTurn, ...] = tuple(StartTurn(p) for p in range(5))
END_TURN: tuple[EndTurn, ...] = tuple(EndTurn(p) for p in range(5))
CHOOSE_TURN: tuple[ChooseTurn, ...] = tuple(ChooseTurn(p) for p in range(5))
_PINK_TRIGGERS = tuple(
    tuple(tuple(PinkTrigger(p, trigger, param) for param in range(3)) for trigger in range(4))
    for p in range(5)
)
_BONUS_SPACES = tuple(tuple(BonusSpace(p, h) for h in range(3)) for p in range(5))


def pink_trigger(seat: int, trigger: int, param: int = 0) -> PinkTrigger:
    """The shared task asking the pink powers of ``trigger`` (``cards.TRIG_*``;
    ``param`` is the habitat of a bird played) after ``seat``'s move."""
    return _PINK_TRIGGERS[seat][trigger][param]


def bonus_space(seat: int, habitat: int) -> BonusSpace:
    """The shared task of ``seat``'s bonus space in ``habitat``."""
    return _BONUS_SPACES[seat][habitat]

"""The tasks of the flow stack, as named records.

Each task is a small slotted dataclass: ``task.remaining`` rather than
``task[2]``. A record is declared once, its fields in stored order under
:func:`record`; a state stores a task as the array ``[code, seat, *FIELDS]``
(:meth:`Task.row`), so stored games decode: ``power_tasks.as_task`` turns an
array back into its record. This module holds the tasks of the turn flow;
``power_tasks`` those that bird powers push.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from operator import attrgetter
from typing import TypeVar

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

T = TypeVar("T", bound="Task")

#: The food mask that allows every food.
ANY_FOOD = 31
#: "No bird" in a bird field.
NO_BIRD = -1
#: "Any nest" in a nest field.
ANY_NEST = -1


class Task:
    """A task: its ``code`` (``state.P_*`` / ``state.D_*``, the record class's)
    and the ``seat`` it belongs to (the seat to act, for a decision). What a
    view shows of a pending decision: ``shown_bird``, ``shown_remaining``,
    ``shown_habitat`` (-1 / 0 / -1 when the decision has none).

    Every record is declared once, as its fields in stored order under
    :func:`record` (or :func:`shared_record`); the decorator makes the slotted
    dataclass, its ``__init__`` (``seat`` first, then the fields), ``FIELDS``
    and the row reader from that one declaration."""

    __slots__ = ()
    CODE = -1
    #: The task's code (a class attribute: every record of a class has its code).
    code = -1
    #: The names of the fields after ``seat``, in stored order: the order the
    #: record's ``__init__`` takes them and :meth:`row` writes them.
    FIELDS: tuple[str, ...] = ()
    #: Reads the stored array of a task: ``(code, seat, *FIELDS)``.
    ROW: Callable[[Task], tuple[int, ...]] = attrgetter("code", "seat")
    shown_bird = -1
    shown_remaining = 0
    shown_habitat = -1

    def row(self) -> tuple[int, ...]:
        """The task as stored in the state's JSON: ``(code, seat, *fields)``."""
        return self.ROW(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.row()}"


def _declare(cls: type[T], code: int | None, frozen: bool) -> type[T]:
    """The record class of ``cls``'s declaration (see :class:`Task`)."""
    if not any(is_dataclass(base) for base in cls.__mro__[1:]):
        # The first record level: ``seat`` comes first, before the declared fields.
        cls.__annotations__ = {"seat": "int", **inspect.get_annotations(cls)}
    if code is not None:
        cls.CODE = cls.code = code  # type: ignore[attr-defined]
    made = dataclass(slots=True, eq=False, repr=False, frozen=frozen)(cls)
    made.FIELDS = tuple(f.name for f in fields(made))[1:]  # type: ignore[attr-defined]
    made.ROW = attrgetter("code", "seat", *made.FIELDS)  # type: ignore[attr-defined]
    return made


def record(code: int | None = None) -> Callable[[type[T]], type[T]]:
    """Declare a task record with ``code`` (none for a base of records): its
    annotated fields, in stored order, with their defaults."""
    return lambda cls: _declare(cls, code, frozen=False)


def shared_record(code: int) -> Callable[[type[T]], type[T]]:
    """Declare a record whose fields never change: one is built per seat (or
    value) at import and shared by every state (``START_TURN[seat]``), so the
    turn loop allocates nothing for it; setting a field raises."""
    return lambda cls: _declare(cls, code, frozen=True)


# --------------------------------------------------------------- procedural
@shared_record(P_START_TURN)
class StartTurn(Task):
    """Start ``seat``'s turn."""


@shared_record(P_END_TURN)
class EndTurn(Task):
    """End ``seat``'s turn (after its end-of-turn discards)."""


@record(P_ROW)
class ActivateRow(Task):
    """The brown powers of ``habitat``, from column ``column`` leftwards."""

    #: The row whose powers activate.
    habitat: int
    #: The next column to activate (right to left).
    column: int


@record(P_PLACE)
class PlaceBird(Task):
    """Bird ``bird`` (paid for) enters ``habitat``."""

    #: The bird being played (out of the hand, not yet on the board).
    bird: int
    #: Where it goes.
    habitat: int


@record(P_WHITE)
class WhitePower(Task):
    """The white power of ``bird``, just played into ``habitat``."""

    #: The bird just played.
    bird: int
    #: The habitat it was played in.
    habitat: int


@shared_record(P_PINK)
class PinkTrigger(Task):
    """Ask the other seats' pink powers of ``trigger`` (``cards.TRIG_*``)."""

    #: Which pink trigger (``cards.TRIG_*``).
    trigger: int
    #: The trigger's parameter (the habitat of a bird played).
    param: int


@record(P_EXTRA_EGG)
class ExtraEgg(Task):
    """The optional second egg of an all-players-lay power."""

    #: The nest type of the power.
    nest: int


@record(P_DRAFT_END)
class DraftEnd(Task):
    """The user of a draft power takes the card left over."""


# ---------------------------------------------------------------- decisions
@shared_record(D_TURN)
class ChooseTurn(Task):
    """Play a bird or take a habitat action."""


@shared_record(D_BONUS)
class BonusSpace(Task):
    """The bonus space of a habitat action: pay for one more."""

    #: The habitat of the action.
    habitat: int
    shown_habitat = property(attrgetter("habitat"))


@record(D_TAKE_DIE)
class TakeDie(Task):
    """Take dice from the feeder, one at a time."""

    #: Dice still to take.
    remaining: int
    #: 1 for a power, 0 for the gain-food action (a rodent arms pinks).
    by_power: int
    #: The foods that may be taken (bit per food).
    food_mask: int = ANY_FOOD
    #: The bird the food may be cached on, or -1.
    cache_bird: int = NO_BIRD
    #: 1 if the take may be declined.
    may_decline: int = 0
    #: The pink bird whose power this is, or -1.
    pink_bird: int = NO_BIRD
    shown_bird = property(attrgetter("pink_bird"))
    shown_remaining = property(attrgetter("remaining"))


@record(D_LAY_EGG)
class LayEgg(Task):
    """Lay eggs one at a time."""

    #: Eggs still to lay.
    remaining: int
    #: The nest type required, or -1 for any.
    nest: int = ANY_NEST
    #: A bird that may not take the egg, or -1.
    excluded: int = NO_BIRD
    #: 1 if laying may be declined.
    may_decline: int = 0
    #: The pink bird whose power this is, or -1.
    pink_bird: int = NO_BIRD
    shown_bird = property(attrgetter("pink_bird"))
    shown_remaining = property(attrgetter("remaining"))


@record(D_DRAW)
class Draw(Task):
    """Draw cards, one at a time, from the tray or the deck."""

    #: Cards still to draw.
    remaining: int
    shown_remaining = property(attrgetter("remaining"))


@record(D_PAY_FOOD)
class PayFood(Task):
    """Pay the food cost of ``bird``."""

    #: The bird being played.
    bird: int
    shown_bird = property(attrgetter("bird"))


@record(D_PAY_EGG)
class PayEgg(Task):
    """Pay the egg cost of a column, one egg at a time."""

    #: Eggs still to pay.
    remaining: int
    shown_remaining = property(attrgetter("remaining"))


@record()
class SeatDecision(Task):
    """A decision with no field but its seat."""


@record(D_DISCARD_EOT)
class DiscardEndOfTurn(SeatDecision):
    """Discard a card at the end of the turn."""


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

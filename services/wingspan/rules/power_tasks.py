"""The decisions bird powers push on the flow stack, as named records, and
:func:`as_task`, which reads any stored task back into its record."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from .state import (
    D_ACTIVATE,
    D_CHOOSE_FOOD,
    D_CHOOSE_PLAYER,
    D_DRAFT,
    D_EGG_COST,
    D_FEEDER_ALL,
    D_KEEP_BONUS,
    D_MOVE,
    D_PLAY_EXTRA,
    D_REPEAT,
    D_TRADE,
    D_TUCK,
    N_CODES,
)
from .tasks import (
    ActivateRow,
    BonusSpace,
    ChooseTurn,
    DiscardEndOfTurn,
    DraftEnd,
    Draw,
    EndTurn,
    ExtraEgg,
    LayEgg,
    PayEgg,
    PayFood,
    PinkTrigger,
    PlaceBird,
    SeatDecision,
    StartTurn,
    TakeDie,
    Task,
    WhitePower,
    record,
)


@record()
class BirdDecision(Task):
    """A decision about one bird's power (``bird``)."""

    #: The bird whose power asks.
    bird: int
    shown_bird = property(attrgetter("bird"))


@record(D_ACTIVATE)
class Activate(BirdDecision):
    """Use ``bird``'s power, or not."""


@record(D_TRADE)
class Trade(BirdDecision):
    """Trade one food for another."""


@record(D_EGG_COST)
class EggCost(BirdDecision):
    """Discard an egg for ``bird``'s reward."""


@record(D_MOVE)
class Move(BirdDecision):
    """Move ``bird`` to another habitat."""


@record(D_CHOOSE_PLAYER)
class ChoosePlayer(BirdDecision):
    """Choose the seat that takes a die first."""


@record(D_FEEDER_ALL)
class FeederAll(BirdDecision):
    """Take every die of ``bird``'s food, or reroll first."""


@record(D_CHOOSE_FOOD)
class ChooseFood(Task):
    """Gain food from the supply, one at a time."""

    #: Food still to gain.
    remaining: int
    #: The foods allowed (bit per food).
    food_mask: int
    shown_remaining = property(attrgetter("remaining"))


@record(D_TUCK)
class Tuck(Task):
    """Tuck a card from the hand behind ``bird``."""

    #: The bird the card goes behind.
    bird: int
    #: 1 for a pink power (the tuck is the whole power).
    by_pink: int
    shown_bird = property(attrgetter("bird"))


@record(D_REPEAT)
class Repeat(Task):
    """Repeat another brown power of ``bird``'s row."""

    #: The repeating bird.
    bird: int
    #: 1 if only a predator power may be repeated.
    predators_only: int
    shown_bird = property(attrgetter("bird"))


@record(D_PLAY_EXTRA)
class PlayExtra(Task):
    """Play a second bird into ``habitat``."""

    #: The bird whose power it is.
    bird: int
    #: Where the second bird may go.
    habitat: int
    shown_bird = property(attrgetter("bird"))
    shown_habitat = property(attrgetter("habitat"))


@record(D_DRAFT)
class Draft(SeatDecision):
    """Take a card of the draft."""


@record(D_KEEP_BONUS)
class KeepBonus(SeatDecision):
    """Keep one of the bonus cards offered."""


RECORDS: tuple[type[Task], ...] = (
    StartTurn,
    EndTurn,
    ActivateRow,
    PlaceBird,
    WhitePower,
    PinkTrigger,
    ExtraEgg,
    DraftEnd,
    ChooseTurn,
    BonusSpace,
    TakeDie,
    LayEgg,
    Draw,
    PayFood,
    PayEgg,
    Activate,
    Trade,
    ChooseFood,
    Tuck,
    EggCost,
    Move,
    Repeat,
    ChoosePlayer,
    Draft,
    KeepBonus,
    DiscardEndOfTurn,
    PlayExtra,
    FeederAll,
)
#: Task code -> its record class.
RECORD_OF: dict[int, type[Task]] = {r.CODE: r for r in RECORDS}
assert len(RECORD_OF) == len(RECORDS) and max(RECORD_OF) < N_CODES


def as_task(items: Sequence[int]) -> Task:
    """The record of a task array (as stored in the state's JSON)."""
    return RECORD_OF[items[0]](*items[1:])

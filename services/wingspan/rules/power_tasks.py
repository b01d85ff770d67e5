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
)


class BirdDecision(Task):
    """A decision about one bird's power (``bird``)."""

    __slots__ = {
        "bird": "The bird whose power asks.",
    }
    FIELDS = ("bird",)
    shown_bird = property(attrgetter("bird"))

    def __init__(self, seat: int, bird: int) -> None:
        self.code = self.CODE
        self.seat = seat
        self.bird = bird


class Activate(BirdDecision):
    """Use ``bird``'s power, or not."""

    __slots__ = ()
    CODE = D_ACTIVATE


class Trade(BirdDecision):
    """Trade one food for another."""

    __slots__ = ()
    CODE = D_TRADE


class EggCost(BirdDecision):
    """Discard an egg for ``bird``'s reward."""

    __slots__ = ()
    CODE = D_EGG_COST


class Move(BirdDecision):
    """Move ``bird`` to another habitat."""

    __slots__ = ()
    CODE = D_MOVE


class ChoosePlayer(BirdDecision):
    """Choose the seat that takes a die first."""

    __slots__ = ()
    CODE = D_CHOOSE_PLAYER


class FeederAll(BirdDecision):
    """Take every die of ``bird``'s food, or reroll first."""

    __slots__ = ()
    CODE = D_FEEDER_ALL


class ChooseFood(Task):
    """Gain food from the supply, one at a time."""

    __slots__ = {
        "food_mask": "The foods allowed (bit per food).",
        "remaining": "Food still to gain.",
    }
    FIELDS = ("remaining", "food_mask")
    CODE = D_CHOOSE_FOOD
    shown_remaining = property(attrgetter("remaining"))

    def __init__(self, seat: int, remaining: int, food_mask: int) -> None:
        self.code = D_CHOOSE_FOOD
        self.seat = seat
        self.remaining = remaining
        self.food_mask = food_mask


class Tuck(Task):
    """Tuck a card from the hand behind ``bird``."""

    __slots__ = {
        "bird": "The bird the card goes behind.",
        "by_pink": "1 for a pink power (the tuck is the whole power).",
    }
    FIELDS = ("bird", "by_pink")
    CODE = D_TUCK
    shown_bird = property(attrgetter("bird"))

    def __init__(self, seat: int, bird: int, by_pink: int) -> None:
        self.code = D_TUCK
        self.seat = seat
        self.bird = bird
        self.by_pink = by_pink


class Repeat(Task):
    """Repeat another brown power of ``bird``'s row."""

    __slots__ = {
        "bird": "The repeating bird.",
        "predators_only": "1 if only a predator power may be repeated.",
    }
    FIELDS = ("bird", "predators_only")
    CODE = D_REPEAT
    shown_bird = property(attrgetter("bird"))

    def __init__(self, seat: int, bird: int, predators_only: int) -> None:
        self.code = D_REPEAT
        self.seat = seat
        self.bird = bird
        self.predators_only = predators_only


class PlayExtra(Task):
    """Play a second bird into ``habitat``."""

    __slots__ = {
        "bird": "The bird whose power it is.",
        "habitat": "Where the second bird may go.",
    }
    FIELDS = ("bird", "habitat")
    CODE = D_PLAY_EXTRA
    shown_bird = property(attrgetter("bird"))
    shown_habitat = property(attrgetter("habitat"))

    def __init__(self, seat: int, bird: int, habitat: int) -> None:
        self.code = D_PLAY_EXTRA
        self.seat = seat
        self.bird = bird
        self.habitat = habitat


class Draft(SeatDecision):
    """Take a card of the draft."""

    __slots__ = ()
    CODE = D_DRAFT


class KeepBonus(SeatDecision):
    """Keep one of the bonus cards offered."""

    __slots__ = ()
    CODE = D_KEEP_BONUS


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

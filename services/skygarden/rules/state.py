"""The Sky Garden game state: phases, turn steps, pending kinds, and the records.

The state is a JSON-like dict, mutated in place, whose turn is a :class:`Turn`
record; it is stored as JSON under short keys (:func:`to_stored`, :func:`from_stored`;
the :class:`typing.TypedDict` records below name what each stored key holds). Built
by :func:`.setup.setup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict

from . import data as D


class Phase(StrEnum):
    """``state["phase"]``: Setup step 15 (Event choice), the rounds, the end."""

    EVENT = "event"  # every seat keeps one of its two dealt Event cards, in secret
    PLAY = "play"  # the rounds, one turn at a time
    OVER = "over"  # final scoring is done


class Step(StrEnum):
    """``state["turn"].step``: where the current turn is (On Your Turn)."""

    MOVE = "move"  # move the Owner token, or enter Standby
    CHIP = "chip"  # resolve the chip landed on
    AFTER = "after"  # the chip is done: the space action, then end the turn
    STANDBY = "standby"  # solo: the Standby breeds are done; free actions, then end


class Pending(StrEnum):
    """Kind of a sub-decision queued in ``turn["pending"]`` as ``[kind, amount]``."""

    ADJUST = "adjust"  # an area shrank: remove birds from area ``amount`` until it fits
    SPECIAL = "special"  # buy a special bird at a discount of ``amount`` (optional)
    BONUS_BIRD = "bonus_bird"  # take one bird of the bonus-bird row
    ELEMENTS = "elements"  # place ``amount`` trees, lakes or nests
    EGG = "egg"  # take one egg token of a type not yet in the Nest Box


#: Milestone slots are a 9-bit set in ``player["claimed"]``; all claimed.
ALL_SLOTS = (1 << 9) - 1
#: Aviary element (data files' name) -> its field in an :class:`Area`.
ELEMENT_FIELD = {"tree": "tree", "lake": "lake", "nest": "nest"}


@dataclass(slots=True)
class Area:
    """One aviary area of a player (Placement Rules). Stored as a dict under the
    short keys of :data:`AREA_KEYS` (:meth:`stored`, :meth:`from_stored`)."""

    #: bird tokens of each type (index: bird, see data.BIRDS)
    birds: list[int] = field(default_factory=lambda: [0] * D.NB)
    nest: int = 0  # 1: a Nest tile is here
    #: the birds sitting on the nest, in the order they were put on
    nest_birds: list[int] = field(default_factory=list)
    tree: int = 0  # 1: a tree is here
    lake: int = 0  # 1: the lake is uncovered

    def stored(self) -> dict[str, Any]:
        """The stored form (the JSON object of an area)."""
        return {
            "b": self.birds,
            "n": self.nest,
            "nb": self.nest_birds,
            "t": self.tree,
            "l": self.lake,
        }

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> Area:
        """The record of a stored area."""
        return cls(d["b"], d["n"], d["nb"], d["t"], d["l"])


#: Area field -> its stored key.
AREA_KEYS = {"birds": "b", "nest": "n", "nest_birds": "nb", "tree": "t", "lake": "l"}


@dataclass(slots=True)
class Turn:
    """The turn in progress (``state["turn"]``, On Your Turn). Stored as a dict under
    the short keys of :data:`TURN_KEYS` (:meth:`stored`, :meth:`from_stored`)."""

    seat: int  # the seat playing (-1: nobody)
    step: str = Step.MOVE  # a Step
    landed_space: int = 0  # the Main track space landed on (0: none yet)
    chip: int = -1  # the chip code on that space (-1: none yet)
    chip_bird: int = -1  # the chip bird taken, not yet placed or released (-1: none)
    bird_choice: list[int] = field(default_factory=list)  # an orange chip's two birds
    employee_moved: bool = False
    forest_birds_bought: int = 0
    space_action_used: bool = False
    #: per area, 1: a bird was put on its nest this turn (none may come off it)
    nest_locked: list[int] = field(default_factory=lambda: [0] * (D.NAREA + 1))
    #: sub-decisions ``[Pending, amount]``, the first asked first
    pending: list[list[Any]] = field(default_factory=list)

    def stored(self) -> dict[str, Any]:
        """The stored form (the JSON object under ``"turn"``)."""
        return {
            "seat": self.seat,
            "step": self.step,
            "land": self.landed_space,
            "chip": self.chip,
            "pbird": self.chip_bird,
            "choice": self.bird_choice,
            "emp": self.employee_moved,
            "fb": self.forest_birds_bought,
            "space": self.space_action_used,
            "nlock": self.nest_locked,
            "pending": self.pending,
        }

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> Turn:
        """The record of a stored turn."""
        return cls(
            d["seat"],
            d["step"],
            d["land"],
            d["chip"],
            d["pbird"],
            d["choice"],
            d["emp"],
            d["fb"],
            d["space"],
            d["nlock"],
            d["pending"],
        )


#: Turn field -> its stored key.
TURN_KEYS = {
    "seat": "seat",
    "step": "step",
    "landed_space": "land",
    "chip": "chip",
    "chip_bird": "pbird",
    "bird_choice": "choice",
    "employee_moved": "emp",
    "forest_birds_bought": "fb",
    "space_action_used": "space",
    "nest_locked": "nlock",
    "pending": "pending",
}


class Player(TypedDict):
    """One seat's board and tokens."""

    funds: int
    egg: int  # Egg marker position (index into data.EGG_POINTS)
    box: list[int]  # Nest Box: 1 per egg type collected
    emp: int  # Employee position on the employee track
    areas: list[Area]  # 6 areas, then the Additional Area
    ax: str  # Additional Area side bought ("": none)
    event: int  # the kept Event card (-1: not chosen yet)
    dealt: list[int]  # the two Event cards dealt at setup
    setup: int  # the starting setup card
    claimed: int  # milestone slots claimed (bit set)
    nclaimed: int  # milestones achieved
    pos: int  # Owner token's Main track space (0: not on the track)
    slot: int  # Standby track space (-1: not on Standby)
    done: bool  # out of this round's Action phase
    sec: int  # two players: Main track sections stopped in this round (bit set)


def new_area() -> Area:
    """An empty aviary area (Player Setup)."""
    return Area()


def new_turn(seat: int) -> Turn:
    """A fresh turn for ``seat`` at its first step (On Your Turn)."""
    return Turn(seat)


def narea(p: dict[str, Any]) -> int:
    """Additional Area Tile: a player has 6 areas, or 7 once it bought the tile."""
    return D.NAREA + 1 if p["ax"] else D.NAREA

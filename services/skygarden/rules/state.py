"""The Sky Garden game state: phases, turn steps, pending kinds, and the records.

The state is a :class:`GameState` record holding the board's shared parts (track,
Forest, supplies, milestones) and the records below: each :class:`Player` with its
:class:`Area` list, Lucy (:class:`Lucy`) and the :class:`Turn`. It is mutated in
place, built by :func:`.setup.setup`, and stored as JSON under short keys, each record
writing and reading its own (:mod:`.storage`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any, NamedTuple

from . import data as D


class Phase(StrEnum):
    """``GameState.phase``: Setup step 15 (Event choice), the rounds, the end."""

    EVENT = "event"  # every seat keeps one of its two dealt Event cards, in secret
    PLAY = "play"  # the rounds, one turn at a time
    OVER = "over"  # final scoring is done


class Step(StrEnum):
    """``Turn.step``: where the current turn is (On Your Turn)."""

    MOVE = "move"  # move the Owner token, or enter Standby
    CHIP = "chip"  # resolve the chip landed on
    AFTER = "after"  # the chip is done: the space action, then end the turn
    STANDBY = "standby"  # solo: the Standby breeds are done; free actions, then end


class Pending(StrEnum):
    """Kind of a sub-decision queued in ``Turn.pending`` (a :class:`PendingDecision`)."""

    ADJUST = "adjust"  # an area shrank: remove birds from area ``amount`` until it fits
    SPECIAL = "special"  # buy a special bird at a discount of ``amount`` (optional)
    BONUS_BIRD = "bonus_bird"  # take one bird of the bonus-bird row
    ELEMENTS = "elements"  # place ``amount`` trees, lakes or nests
    EGG = "egg"  # take one egg token of a type not yet in the Nest Box


class PendingDecision(NamedTuple):
    """A sub-decision queued in ``Turn.pending`` (Bonuses for Achieving Milestones, or
    the adjustment after an area shrinks). Stored as the array ``[kind, amount]``."""

    kind: str  # a Pending
    amount: int  # the area (ADJUST), the discount (SPECIAL), elements left (ELEMENTS), 1


#: Milestone slots are a 9-bit set in ``Player.claimed_slots``; all claimed.
ALL_SLOTS = (1 << 9) - 1
#: Aviary element (data files' name) -> reads its count (0 or 1) in an :class:`Area`.
ELEMENT_COUNT = {e: attrgetter(e) for e in ("tree", "lake", "nest")}


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
    #: sub-decisions, the first asked first
    pending: list[PendingDecision] = field(default_factory=list)

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
            [PendingDecision(kind, amount) for kind, amount in d["pending"]],
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


#: Player field -> its stored key.
PLAYER_KEYS = {
    "funds": "funds",
    "egg_marker": "egg",
    "nest_box": "box",
    "employee": "emp",
    "areas": "areas",
    "additional_area": "ax",
    "event_card": "event",
    "dealt_events": "dealt",
    "setup_card": "setup",
    "claimed_slots": "claimed",
    "milestones_achieved": "nclaimed",
    "track_space": "pos",
    "standby_slot": "slot",
    "finished_round": "done",
    "sections_done": "sec",
}


@dataclass(slots=True)
class Player:
    """One seat's board and tokens (Player Setup). Stored as a dict under the short
    keys of :data:`PLAYER_KEYS` (:meth:`stored`, :meth:`from_stored`)."""

    funds: int
    egg_marker: int  # Egg marker position (index into data.EGG_POINTS)
    nest_box: list[int]  # 1 per egg type collected (index: bird, then the golden egg)
    employee: int  # the Employee's space on the employee track
    areas: list[Area]  # 6 areas, then the Additional Area
    additional_area: str  # the Additional Area tile's side bought ("": none)
    event_card: int  # the kept Event card (-1: not chosen yet)
    dealt_events: list[int]  # the two Event cards dealt at setup
    setup_card: int  # the starting setup card
    claimed_slots: int  # milestone slots claimed (bit set)
    milestones_achieved: int
    track_space: int  # the Owner token's Main track space (0: not on the track)
    standby_slot: int  # Standby track space (-1: not on Standby)
    finished_round: bool  # out of this round's Action phase
    sections_done: int  # two players: Main track sections stopped in (bit set)

    def stored(self) -> dict[str, Any]:
        """The stored form (the JSON object of a player)."""
        return {
            "funds": self.funds,
            "egg": self.egg_marker,
            "box": self.nest_box,
            "emp": self.employee,
            "areas": [a.stored() for a in self.areas],
            "ax": self.additional_area,
            "event": self.event_card,
            "dealt": self.dealt_events,
            "setup": self.setup_card,
            "claimed": self.claimed_slots,
            "nclaimed": self.milestones_achieved,
            "pos": self.track_space,
            "slot": self.standby_slot,
            "done": self.finished_round,
            "sec": self.sections_done,
        }

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> Player:
        """The record of a stored player."""
        from_area = Area.from_stored
        return cls(
            d["funds"],
            d["egg"],
            d["box"],
            d["emp"],
            [from_area(a) for a in d["areas"]],
            d["ax"],
            d["event"],
            d["dealt"],
            d["setup"],
            d["claimed"],
            d["nclaimed"],
            d["pos"],
            d["slot"],
            d["done"],
            d["sec"],
        )


@dataclass(slots=True)
class ForestChip:
    """Board Setup, step 6: a green chip on the Forest board, the bird type it shows
    and the bird token on it. Stored as ``[chip_bird, bird]``."""

    chip_bird: int  # the Regular bird type the chip shows
    bird: int = -1  # the bird token on it, -1 once taken (or none was left)

    def stored(self) -> list[int]:
        """The stored form (an item of the Forest's ``"chips"``)."""
        return [self.chip_bird, self.bird]

    @classmethod
    def from_stored(cls, row: list[int]) -> ForestChip:
        """The record of a stored chip."""
        return cls(row[0], row[1])


@dataclass(slots=True)
class Forest:
    """The Forest board (Board Setup, steps 2 and 6): its trees and nests, the
    loose bird tokens per type and this round's chips. Stored as
    ``{"trees", "nests", "birds", "chips"}``."""

    trees: int  # tree tiles left
    nests: int  # nest tiles left
    birds: list[int]  # loose bird tokens, per bird type
    chips: list[ForestChip]  # this round's green chips, in draw order

    def stored(self) -> dict[str, Any]:
        """The stored form (the JSON object under ``"forest"``)."""
        return {
            "trees": self.trees,
            "nests": self.nests,
            "birds": self.birds,
            "chips": [c.stored() for c in self.chips],
        }

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> Forest:
        """The record of a stored Forest board."""
        return cls(d["trees"], d["nests"], d["birds"], [ForestChip(c, b) for c, b in d["chips"]])


#: Forest field -> its stored key.
FOREST_KEYS = {"trees": "trees", "nests": "nests", "birds": "birds", "chips": "chips"}


@dataclass(slots=True)
class Lucy:
    """Two-Player Rules: Lucy, the neutral token on the tracks. Stored as
    ``{"pos", "slot", "done"}``."""

    track_space: int = 0  # Main track space (0: not on the track)
    standby_slot: int = -1  # Standby track space (-1: not on Standby)
    finished_round: bool = False  # out of this round's Action phase

    def stored(self) -> dict[str, Any]:
        """The stored form (the JSON object under ``"lucy"``)."""
        return {"pos": self.track_space, "slot": self.standby_slot, "done": self.finished_round}

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> Lucy:
        """The record of a stored Lucy."""
        return cls(d["pos"], d["slot"], d["done"])


#: A token on the tracks: a player's Owner token or Lucy.
Token = Player | Lucy


#: GameState field -> its stored key.
STATE_KEYS = {
    "player_count": "n",
    "phase": "phase",
    "round": "round",
    "rounds": "rounds",
    "track": "track",
    "blue_face_down": "blue_down",
    "forest": "forest",
    "supply": "supply",
    "special_left": "special",
    "bonus_birds": "bonus",
    "egg_supply": "eggs",
    "milestone_tiles": "tiles",
    "milestone_claims": "claims",
    "early_bonus_left": "early",
    "players": "players",
    "lucy": "lucy",
    "turn": "turn",
    "rng": "rng",
}


@dataclass(slots=True)
class GameState:
    """The whole game (Board Setup): the shared boards and supplies, the players, Lucy
    and the turn. Stored as a dict under the short keys of :data:`STATE_KEYS`
    (:meth:`stored`, :meth:`from_stored`)."""

    player_count: int
    phase: str  # a Phase
    round: int  # the current round, 1-based
    rounds: int  # rounds in this game (by player count)
    track: list[int]  # the chip code on each Main track space (space 1 first)
    blue_face_down: list[int]  # solo: per blue chip, 1 once used (Solo Rules)
    forest: Forest
    supply: list[int]  # bird tokens left in the supply, per type
    special_left: list[int]  # tokens left on each special-bird card
    bonus_birds: list[int]  # per Regular type, 1: its bonus bird is still in the row
    egg_supply: int  # egg tokens left
    milestone_tiles: list[int]  # the tile in each of the 9 birdcage slots
    milestone_claims: list[list[int]]  # per slot, the seats that claimed it, in order
    early_bonus_left: list[bool]  # per birdcage line, its Early Bonus tile is still there
    players: list[Player]
    lucy: Lucy | None  # two players only
    turn: Turn
    rng: int  # the generator's state (next rounds' layouts)

    def stored(self) -> dict[str, Any]:
        """The stored form (the JSON object of the whole state)."""
        lucy = self.lucy
        return {
            "n": self.player_count,
            "phase": self.phase,
            "round": self.round,
            "rounds": self.rounds,
            "track": self.track,
            "blue_down": self.blue_face_down,
            "forest": self.forest.stored(),
            "supply": self.supply,
            "special": self.special_left,
            "bonus": self.bonus_birds,
            "eggs": self.egg_supply,
            "tiles": self.milestone_tiles,
            "claims": self.milestone_claims,
            "early": self.early_bonus_left,
            "players": [p.stored() for p in self.players],
            "lucy": lucy.stored() if lucy is not None else None,
            "turn": self.turn.stored(),
            "rng": self.rng,
        }

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> GameState:
        """The record of a stored state."""
        lucy = d["lucy"]
        return cls(
            d["n"],
            d["phase"],
            d["round"],
            d["rounds"],
            d["track"],
            d["blue_down"],
            Forest.from_stored(d["forest"]),
            d["supply"],
            d["special"],
            d["bonus"],
            d["eggs"],
            d["tiles"],
            d["claims"],
            d["early"],
            [Player.from_stored(p) for p in d["players"]],
            Lucy.from_stored(lucy) if lucy is not None else None,
            Turn.from_stored(d["turn"]),
            d["rng"],
        )


def new_area() -> Area:
    """An empty aviary area (Player Setup)."""
    return Area()


def new_turn(seat: int) -> Turn:
    """A fresh turn for ``seat`` at its first step (On Your Turn)."""
    return Turn(seat)


def narea(p: Player) -> int:
    """Additional Area Tile: a player has 6 areas, or 7 once it bought the tile."""
    return D.NAREA + 1 if p.additional_area else D.NAREA

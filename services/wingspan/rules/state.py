"""The game state, its phases and the task codes of the flow stack."""

from __future__ import annotations

from enum import IntEnum

# ------------------------------------------------------------------- constants


class Phase(IntEnum):
    """The phase of a game (stored as its number)."""

    SETUP = 0
    PLAY = 1
    OVER = 2


SETUP, PLAY_PHASE, OVER = Phase.SETUP, Phase.PLAY, Phase.OVER
ROUND_CUBES = (8, 7, 6, 5)
EGG_COST = (0, 1, 1, 2, 2)
# Amount of the row action by the column the cube lands in (0..5).
AMOUNT = ((1, 1, 2, 2, 3, 3), (2, 2, 3, 3, 4, 4), (1, 1, 2, 2, 3, 3))
BONUS_COL = (False, True, False, True, False, True)

# Procedural tasks.
P_START_TURN = 0
P_END_TURN = 1
P_ROW = 2
P_PLACE = 3
P_WHITE = 4
P_PINK = 5
P_EXTRA_EGG = 6
P_DRAFT_END = 7
# Decisions.
D_BASE = 16
D_TURN = 16
D_BONUS = 17
D_TAKE_DIE = 18
D_LAY_EGG = 19
D_DRAW = 20
D_PAY_FOOD = 21
D_PAY_EGG = 22
D_ACTIVATE = 23
D_TRADE = 24
D_CHOOSE_FOOD = 25
D_TUCK = 26
D_EGG_COST = 27
D_MOVE = 28
D_REPEAT = 29
D_CHOOSE_PLAYER = 30
D_DRAFT = 31
D_KEEP_BONUS = 32
D_DISCARD_EOT = 33
D_PLAY_EXTRA = 34
D_FEEDER_ALL = 35
N_CODES = 36

DECISION_NAMES = {
    D_TURN: "DECISION_KIND_TURN",
    D_BONUS: "DECISION_KIND_BONUS_EXCHANGE",
    D_TAKE_DIE: "DECISION_KIND_TAKE_DIE",
    D_LAY_EGG: "DECISION_KIND_LAY_EGG",
    D_DRAW: "DECISION_KIND_DRAW_CARD",
    D_PAY_FOOD: "DECISION_KIND_PAY_FOOD",
    D_PAY_EGG: "DECISION_KIND_PAY_EGG",
    D_ACTIVATE: "DECISION_KIND_ACTIVATE_POWER",
    D_TRADE: "DECISION_KIND_TRADE_FOOD",
    D_CHOOSE_FOOD: "DECISION_KIND_CHOOSE_FOOD",
    D_TUCK: "DECISION_KIND_TUCK_CARD",
    D_EGG_COST: "DECISION_KIND_DISCARD_EGG",
    D_MOVE: "DECISION_KIND_MOVE_BIRD",
    D_REPEAT: "DECISION_KIND_REPEAT_POWER",
    D_CHOOSE_PLAYER: "DECISION_KIND_CHOOSE_PLAYER",
    D_DRAFT: "DECISION_KIND_DRAFT_CARD",
    D_KEEP_BONUS: "DECISION_KIND_KEEP_BONUS",
    D_DISCARD_EOT: "DECISION_KIND_DISCARD_CARD",
    D_PLAY_EXTRA: "DECISION_KIND_PLAY_EXTRA_BIRD",
    # "Gain all [food] in the birdfeeder": take them, or reroll first.
    D_FEEDER_ALL: "DECISION_KIND_TAKE_DIE",
}


class State:
    """The whole game state: every field below but ``legal_cache`` is stored.

    Cards, birds, foods and habitats are the indices of ``cards`` (bird ``b``
    is ``cards.NAME[b]``); per-seat fields are lists indexed by seat; per-bird
    fields are lists indexed by bird. The stored JSON keeps the short keys of
    :data:`STORED_KEY` (games saved in Redis by any version read back the same).
    """

    __slots__ = {
        "bird_deck": "Face-down bird cards, drawn from the end.",
        "bird_discard": "Discarded bird cards.",
        "bonus_cards": "Each seat's kept bonus cards.",
        "bonus_deck": "Face-down bonus cards, drawn from the end.",
        "bonus_discard": "Discarded bonus cards.",
        "bonus_offer": "The bonus cards offered to the seat deciding (a power's draw).",
        "cached_food": "Food cached on each bird.",
        "cubes_left": "Each seat's action cubes left this round.",
        "decisions": "Decisions applied so far (keys the legal-list cache).",
        "draft": "The cards of a draft power not yet taken.",
        "eggs": "Eggs on each bird.",
        "eggs_by_seat": "Eggs on each seat's birds, in total (pays egg costs).",
        "eot_discards": "Cards the seat in turn must still discard at the end of its turn.",
        "feeder": "Die faces in the birdfeeder (``cards.FACE_*``).",
        "first_player": "The seat that starts the current round.",
        "food": "Each seat's food supply, by food.",
        "goal_counts": "Per round: each seat's count for the round goal, once scored.",
        "goal_points": "Per round: each seat's goal points, once scored.",
        "goals": "The round goals, one per round.",
        "hands": "Each seat's hand of bird cards.",
        "last_egg_bird": "The bird that took the last egg laid (an extra egg goes elsewhere).",
        "legal_cache": "The legal list of the current decision (not stored).",
        "options": "The game options.",
        "phase": "The phase (:class:`Phase`).",
        "pink_birds": "Each seat's birds with a pink power.",
        "pink_used": "1 for a bird whose pink power was used since its owner's last turn.",
        "players": "The number of seats.",
        "rng": "The seeded generator (stored as its state).",
        "rodent_taken": "1 once a rodent was gained by the gain-food action this turn.",
        "round": "The round, 0 to 3 (4 once the game is over).",
        "rows": "Each seat's three habitat rows of birds, left to right.",
        "setup_birds": "Each seat's five dealt birds during setup.",
        "setup_bonus": "Each seat's two dealt bonus cards during setup (kept one first).",
        "setup_food": "The foods each seat keeps at setup.",
        "setup_kept": "The dealt birds each seat keeps at setup.",
        "setup_stage": "Each seat's setup decisions made (3 = done).",
        "stack": "The flow stack of tasks (``tasks``/``power_tasks`` records); top last.",
        "tray": "The face-up bird cards.",
        "tucked": "Cards tucked behind each bird.",
        "turn": "The seat whose turn it is.",
    }

    def __init__(self) -> None:
        self.legal_cache = None


#: Field of :class:`State` -> its key in the stored JSON.
STORED_KEY: dict[str, str] = {
    "bird_deck": "deck",
    "bird_discard": "discard",
    "bonus_cards": "bonus",
    "bonus_deck": "bdeck",
    "bonus_discard": "bdiscard",
    "bonus_offer": "boffer",
    "cached_food": "cache",
    "cubes_left": "cubes",
    "decisions": "dec",
    "draft": "draft",
    "eggs": "eggs",
    "eggs_by_seat": "neggs",
    "eot_discards": "eot",
    "feeder": "feeder",
    "first_player": "first",
    "food": "food",
    "goal_counts": "gcount",
    "goal_points": "gscore",
    "goals": "goals",
    "hands": "hands",
    "last_egg_bird": "last_egg",
    "options": "opts",
    "phase": "phase",
    "pink_birds": "pinks",
    "pink_used": "pused",
    "players": "n",
    "rodent_taken": "rodent",
    "round": "round",
    "rows": "rows",
    "setup_birds": "sdeal",
    "setup_bonus": "sbonus",
    "setup_food": "sfood",
    "setup_kept": "skeep",
    "setup_stage": "sstage",
    "stack": "stack",
    "tray": "tray",
    "tucked": "tucked",
    "turn": "turn",
}
#: The stored fields (all but the generator, stored apart, and the legal cache).
FIELDS = tuple(STORED_KEY)
assert set(FIELDS) == set(State.__slots__) - {"legal_cache", "rng"}

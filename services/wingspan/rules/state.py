"""The game state, its phases and the task codes of the flow stack."""

from __future__ import annotations

# ------------------------------------------------------------------- constants
SETUP, PLAY_PHASE, OVER = range(3)
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
    """The whole game state. Everything but ``lc`` is encoded."""

    __slots__ = (
        "bdeck",
        "bdiscard",
        "boffer",
        "bonus",
        "cache",
        "cubes",
        "dec",
        "deck",
        "discard",
        "draft",
        "eggs",
        "eot",
        "feeder",
        "first",
        "food",
        "gcount",
        "goals",
        "gscore",
        "hands",
        "last_egg",
        "lc",
        "n",
        "neggs",
        "opts",
        "phase",
        "pinks",
        "pused",
        "rng",
        "rodent",
        "round",
        "rows",
        "sbonus",
        "sdeal",
        "sfood",
        "skeep",
        "sstage",
        "stack",
        "tray",
        "tucked",
        "turn",
    )

    FIELDS = tuple(f for f in __slots__ if f not in ("lc", "rng"))

    def __init__(self) -> None:
        self.lc = None

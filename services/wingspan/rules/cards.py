"""Card data as flat tuples indexed by small integers (loaded once at import).

Birds are numbered 0..179 in the order of ``data/birds.json``: the 170 base
birds first, then the 10 Swift-Start promo birds. Every per-bird fact is a
tuple indexed by that number, so the hot path never touches a dict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

_DATA = Path(__file__).resolve().parent / "data"

# ---------------------------------------------------------------- enumerations
FOOD_NAMES = ("invertebrate", "seed", "fish", "fruit", "rodent")
FOOD_ENUM = tuple("FOOD_" + f.upper() for f in FOOD_NAMES)
FOOD_IDX = {name: i for i, name in enumerate(FOOD_ENUM)}
INV, SEED, FISH, FRUIT, RODENT = range(5)
ALL_FOOD_MASK = 31

# Die faces: 0..4 are the five foods, 5 is the invertebrate-or-seed face.
DUAL = 5
FACE_NAMES = (*FOOD_NAMES, "invertebrate_or_seed")
FACE_ENUM = tuple("DIE_FACE_" + f.upper() for f in FACE_NAMES)
FACE_IDX = {name: i for i, name in enumerate(FACE_ENUM)}

HAB_NAMES = ("forest", "grassland", "wetland")
HAB_ENUM = tuple("HABITAT_" + h.upper() for h in HAB_NAMES)
HAB_IDX = {name: i for i, name in enumerate(HAB_ENUM)}
FOREST, GRASSLAND, WETLAND = range(3)

NEST_NAMES = ("bowl", "cavity", "ground", "platform", "wild", "none")
NEST_ENUM = tuple("NEST_" + n.upper() for n in NEST_NAMES)
WILD_NEST = 4

COLOR_NONE, BROWN, WHITE, PINK = range(4)
COLOR_ENUM = ("POWER_COLOR_NONE", "POWER_COLOR_BROWN", "POWER_COLOR_WHITE", "POWER_COLOR_PINK")
_COLOR = {"none": COLOR_NONE, "brown": BROWN, "white": WHITE, "pink": PINK}

MODE_AND, MODE_OR, MODE_NONE = range(3)

# ------------------------------------------------------------------- templates
TEMPLATES = (
    "no_power",
    "gain_food_supply",
    "all_players_gain_food_supply",
    "gain_food_feeder",
    "gain_all_of_type_feeder",
    "each_player_gain_die_choose_start",
    "cache_food_supply",
    "trade_food_supply",
    "lay_egg",
    "lay_egg_each_nest_type",
    "all_players_lay_egg_nest_type",
    "draw_cards",
    "draw_cards_discard_end_of_turn",
    "all_players_draw_card",
    "draft_players_plus_one",
    "draw_bonus_keep_one",
    "discard_egg_for_reward",
    "discard_food_tuck_from_deck",
    "tuck_from_hand_then",
    "predator_roll_dice_cache",
    "predator_look_tuck",
    "fewest_birds_in_habitat_reward",
    "move_if_rightmost",
    "play_additional_bird",
    "repeat_brown_power",
    "repeat_predator_power",
    "pink_on_lay_eggs_lay_egg",
    "pink_on_play_bird_in_habitat",
    "pink_on_gain_food_rodent_cache",
    "pink_on_predator_success_gain_die",
    "gain_die_feeder_any",
    "draw_all_tray",
)
TPL = {name: i for i, name in enumerate(TEMPLATES)}

# Pink triggers.
TRIG_LAY, TRIG_PLAY, TRIG_FOOD, TRIG_PRED = range(4)

# Rewards of tuck_from_hand_then / discard_egg_for_reward / fewest_birds.
RW_DRAW, RW_FOOD, RW_EGG_THIS, RW_EGG_ANY, RW_WILD, RW_DIE = range(6)
_RW = {
    "draw_card": RW_DRAW,
    "draw_cards": RW_DRAW,
    "gain_food": RW_FOOD,
    "lay_egg_this": RW_EGG_THIS,
    "lay_egg_any": RW_EGG_ANY,
    "wild_food": RW_WILD,
    "feeder_die": RW_DIE,
}


def _mask(foods: list[str]) -> int:
    m = 0
    for f in foods:
        m |= 1 << FOOD_NAMES.index(f)
    return m


class PowerParams(NamedTuple):
    """The parameters of a bird's power, read from its ``power_params``.

    Which fields a template uses is listed in :func:`_params`; the others keep
    their defaults. Flags are 1 or 0.
    """

    #: Pink powers: the trigger (``TRIG_*``).
    trigger: int = -1
    #: The food gained, cached, paid or taken (``FOOD_NAMES`` index).
    food: int = -1
    #: How many: food, cards, dice, eggs discarded, cards tucked.
    count: int = 0
    #: The foods that may be taken (bit per food).
    food_mask: int = 0
    #: 1 if food taken from the feeder may be cached on the bird.
    may_cache: int = 0
    #: lay_egg: 1 if the egg goes on this bird (else on any bird).
    on_this_bird: int = 0
    #: The nest type (``NEST_NAMES`` index).
    nest: int = -1
    #: draw_bonus_keep_one: bonus cards drawn and kept.
    draw: int = 0
    keep: int = 0
    #: discard_egg_for_reward: 1 if the egg must come from another bird.
    others_only: int = 0
    #: The reward (``RW_*``).
    reward: int = -1
    #: predator_look_tuck: the drawn bird is tucked if its wingspan is below this (cm).
    wingspan_below: int = 0
    #: The habitat (``HAB_NAMES`` index; -1 for "this bird's").
    habitat: int = -1
    #: pink lay: 1 if the pink bird itself may not take the egg.
    exclude_this: int = 0


def _params(template: str, p: dict) -> PowerParams:
    """The parameters of a power, by template (the handlers in ``powers_*`` read them)."""
    food = FOOD_NAMES.index(p["food"]) if "food" in p else -1
    if template in ("gain_food_supply", "cache_food_supply"):
        return PowerParams(food=food, count=p["count"])
    if template in ("all_players_gain_food_supply", "gain_all_of_type_feeder"):
        return PowerParams(food=food)
    if template == "gain_food_feeder":
        return PowerParams(food_mask=_mask(p["foods"]), may_cache=1 if p["may_cache"] else 0)
    if template == "lay_egg":
        return PowerParams(on_this_bird=1 if p["target"] == "this" else 0)
    if template in ("lay_egg_each_nest_type", "all_players_lay_egg_nest_type"):
        return PowerParams(nest=NEST_NAMES.index(p["nest"]))
    if template in ("draw_cards", "draw_cards_discard_end_of_turn", "all_players_draw_card"):
        return PowerParams(count=p["count"])
    if template == "draw_bonus_keep_one":
        return PowerParams(draw=p["draw"], keep=p["keep"])
    if template == "discard_egg_for_reward":
        return PowerParams(
            others_only=1 if p["from_other_birds_only"] else 0,
            reward=_RW[p["reward"]],
            count=p["count"],
        )
    if template == "discard_food_tuck_from_deck":
        return PowerParams(food=food, count=p["tuck_count"])
    if template == "tuck_from_hand_then":
        return PowerParams(reward=_RW[p["reward"]], food_mask=_mask(p.get("foods", [])))
    if template == "predator_look_tuck":
        return PowerParams(wingspan_below=p["wingspan_lt_cm"])
    if template == "predator_roll_dice_cache":
        return PowerParams(food=food)
    if template == "fewest_birds_in_habitat_reward":
        return PowerParams(habitat=HAB_NAMES.index(p["habitat"]), reward=_RW[p["reward"]])
    if template == "play_additional_bird":
        same = p["habitat"] == "same_as_this"
        return PowerParams(habitat=-1 if same else HAB_NAMES.index(p["habitat"]))
    if template == "pink_on_lay_eggs_lay_egg":
        return PowerParams(
            trigger=TRIG_LAY,
            nest=NEST_NAMES.index(p["nest"]),
            exclude_this=1 if p["exclude_this_bird"] else 0,
        )
    if template == "pink_on_play_bird_in_habitat":
        reward = RW_FOOD if p["reward"] == "gain_food" else RW_DRAW
        habitat = HAB_NAMES.index(p["habitat"])
        return PowerParams(trigger=TRIG_PLAY, habitat=habitat, reward=reward, food=food)
    if template == "pink_on_gain_food_rodent_cache":
        return PowerParams(trigger=TRIG_FOOD, food=food)
    if template == "pink_on_predator_success_gain_die":
        return PowerParams(trigger=TRIG_PRED)
    if template in ("gain_die_feeder_any", "draw_all_tray"):
        return PowerParams(count=p["count"])
    return PowerParams()


# ------------------------------------------------------------------------ birds
_birds = json.loads((_DATA / "birds.json").read_text())["birds"]
NB = len(_birds)
N_BASE = sum(1 for b in _birds if b["set"] == "core")
BIRD_IDS = tuple(b["id"] for b in _birds)
NAME = tuple(b["common_name"] for b in _birds)
BIRD_BY_NAME = {name: i for i, name in enumerate(NAME)}
SET = tuple(b["set"] for b in _birds)
HABS = tuple(tuple(HAB_NAMES.index(h) for h in b["habitats"]) for b in _birds)
COST = tuple(tuple(b["food_cost"][f] for f in FOOD_NAMES) for b in _birds)
WILD = tuple(b["food_cost"]["wild"] for b in _birds)
MODE = tuple(
    {"and": MODE_AND, "or": MODE_OR, "none": MODE_NONE}[b["food_cost_mode"]] for b in _birds
)
COST_TOTAL = tuple(b["food_cost_total"] for b in _birds)
VP = tuple(b["victory_points"] for b in _birds)
NEST = tuple(NEST_NAMES.index(b["nest_type"]) for b in _birds)
LIMIT = tuple(b["egg_limit"] for b in _birds)
WINGSPAN = tuple(b["wingspan_cm"] for b in _birds)
COLOR = tuple(_COLOR[b["power_color"]] for b in _birds)
TEMPLATE = tuple(TPL[b["power_template"]] for b in _birds)
PARAMS = tuple(_params(b["power_template"], b["power_params"]) for b in _birds)
PREDATOR = tuple(bool(b["predator"]) for b in _birds)
FLOCKING = tuple(bool(b["flocking"]) for b in _birds)
SUMMARY = tuple(b["power_summary"] for b in _birds)
ELIG_NAMES = tuple(frozenset(b["bonus_card_eligibility"]) for b in _birds)

# NEST_OK[n][b]: bird b counts as nest type n (its own type or a wild nest).
NEST_OK = tuple(tuple(NEST[b] == n or NEST[b] == WILD_NEST for b in range(NB)) for n in range(4))

POWERFUL = tuple(
    BIRD_BY_NAME[n] for n in ("Chihuahuan Raven", "Common Raven", "Franklin's Gull", "Killdeer")
)

# ------------------------------------------------------------------ bonus cards
_bonus = json.loads((_DATA / "bonus_cards.json").read_text())["bonus_cards"]
NBONUS = len(_bonus)
BONUS_IDS = tuple(c["id"] for c in _bonus)
BONUS_NAME = tuple(c["name"] for c in _bonus)
BONUS_CONDITION = tuple(c["summary"] for c in _bonus)
BONUS_STATIC = tuple(c["evaluation"] == "static" for c in _bonus)
# Scoring: (points_per_bird, tiers) with tiers a tuple of (min, points).
BONUS_PER_BIRD = tuple(c["scoring"].get("points_per_bird", 0) for c in _bonus)
BONUS_TIERS = tuple(
    tuple((t["min"], t["points"]) for t in c["scoring"].get("tiers", ())) for c in _bonus
)
# BONUS_ELIG[k][b]: bird b counts for static bonus card k.
BONUS_ELIG = tuple(tuple(BONUS_NAME[k] in ELIG_NAMES[b] for b in range(NB)) for k in range(NBONUS))
LANGUAGE_BONUS = tuple(
    BONUS_NAME.index(n) for n in ("Anatomist", "Cartographer", "Historian", "Photographer")
)
BONUS_BY_NAME = {name: i for i, name in enumerate(BONUS_NAME)}
RUNTIME_BREEDING = BONUS_BY_NAME["Breeding Manager"]
RUNTIME_ECOLOGIST = BONUS_BY_NAME["Ecologist"]
RUNTIME_OOLOGIST = BONUS_BY_NAME["Oologist"]
RUNTIME_VISIONARY = BONUS_BY_NAME["Visionary Leader"]

# ------------------------------------------------------------------------ goals
_goals = json.loads((_DATA / "goals.json").read_text())
NGOALS = len(_goals["goals"])
GOAL_IDS = tuple(g["id"] for g in _goals["goals"])
GOAL_TILE = tuple(g["tile"] for g in _goals["goals"])
GOAL_SIDE = tuple(g["tile_side"] for g in _goals["goals"])
G_BIRDS_HAB, G_EGGS_HAB, G_NEST_WITH_EGG, G_EGGS_NEST, G_TOTAL_BIRDS, G_EGG_SETS = range(6)
_GCAT = {
    "birds_in_habitat": G_BIRDS_HAB,
    "eggs_in_habitat": G_EGGS_HAB,
    "nest_birds_with_egg": G_NEST_WITH_EGG,
    "eggs_in_nest_type": G_EGGS_NEST,
    "total_birds": G_TOTAL_BIRDS,
    "egg_sets": G_EGG_SETS,
}
GOAL_CAT = tuple(_GCAT[g["category"]] for g in _goals["goals"])
GOAL_PARAM = tuple(
    HAB_NAMES.index(g["params"]["habitat"])
    if "habitat" in g["params"]
    else NEST_NAMES.index(g["params"]["nest"])
    if "nest" in g["params"]
    else -1
    for g in _goals["goals"]
)
GOAL_COUNTS = tuple(g["counts"] for g in _goals["goals"])
GREEN_POINTS = tuple(tuple(r) for r in _goals["green_points_by_round"])
BLUE_MAX = _goals["blue_max_per_round"]
# TILE_GOALS[t] = (side A goal index, side B goal index), t = 0..7.
TILE_GOALS = tuple(
    tuple(
        i
        for side in ("A", "B")
        for i in range(NGOALS)
        if GOAL_TILE[i] == tile and GOAL_SIDE[i] == side
    )
    for tile in range(1, 9)
)


def goal_name(g: int) -> str:
    """A short English name of goal ``g`` (our own wording)."""
    cat, p = GOAL_CAT[g], GOAL_PARAM[g]
    if cat == G_BIRDS_HAB:
        return f"Birds in {HAB_NAMES[p]}"
    if cat == G_EGGS_HAB:
        return f"Eggs in {HAB_NAMES[p]}"
    if cat == G_NEST_WITH_EGG:
        return f"{NEST_NAMES[p].capitalize()}-nest birds with an egg"
    if cat == G_EGGS_NEST:
        return f"Eggs on {NEST_NAMES[p]}-nest birds"
    if cat == G_TOTAL_BIRDS:
        return "Birds played"
    return "Sets of one egg in each habitat"


GOAL_NAME = tuple(goal_name(g) for g in range(NGOALS))

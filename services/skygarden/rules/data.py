"""Sky Garden data tables, loaded once at import from ``data/*.json``.

Every number the rules use comes from these files (most are assumed, see
``data/README.md``), so a printed value can be corrected without touching code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).resolve().parent / "data"


def _load(name: str) -> Any:
    with open(_DIR / name, encoding="utf-8") as handle:
        return json.load(handle)


RULES = _load("rules_params.json")
_BIRDS = _load("birds.json")
_SPECIAL = _load("special_birds.json")
_AVIARY = _load("aviary.json")
_CHIPS = _load("chips.json")
_TRACK = _load("main_track.json")
_EVENTS = _load("event_cards.json")
_MILESTONES = _load("milestones.json")
_CAGE = _load("birdcage_bonuses.json")
_SETUP = _load("starting_setup_cards.json")
_ADS = _load("advertisements.json")

# ---------------------------------------------------------------- birds
REG: tuple[str, ...] = tuple(b["id"] for b in _BIRDS["regular"])
SPC: tuple[str, ...] = tuple(c["id"] for c in _SPECIAL["cards"])
BIRDS: tuple[str, ...] = REG + SPC
NREG = len(REG)
NB = len(BIRDS)
BIDX = {name: i for i, name in enumerate(BIRDS)}
BIRD_NAME: tuple[str, ...] = tuple(b["name"] for b in _BIRDS["regular"]) + tuple(
    c["name"] for c in _SPECIAL["cards"]
)
SIZE: tuple[int, ...] = tuple(b["size"] for b in _BIRDS["regular"]) + tuple(
    c["size"] for c in _SPECIAL["cards"]
)
SUPPLY_TOKENS: tuple[int, ...] = tuple(b["tokens"] for b in _BIRDS["regular"])
SPECIAL_TOKENS: tuple[int, ...] = tuple(c["tokens"] for c in _SPECIAL["cards"])
SPECIAL_COST: tuple[int, ...] = tuple(c["cost"] for c in _SPECIAL["cards"])


def _vp_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    plain, tree, lake = [], [], []
    for entry in list(_BIRDS["regular"]) + list(_SPECIAL["cards"]):
        base = entry.get("vp", 0)
        cond = entry.get("vp_if", {})
        both = cond.get("tree_or_lake", base)
        plain.append(base)
        tree.append(cond.get("tree", both))
        lake.append(cond.get("lake", both))
    return tuple(plain), tuple(tree), tuple(lake)


#: VP of one token with no tree/lake, with a tree, with a lake in its area.
VP_PLAIN, VP_TREE, VP_LAKE = _vp_tables()
_SET = _BIRDS["set_scoring"]
SET_BIRDS: tuple[int, ...] = tuple(BIDX[b] for b in _SET["birds"])
SET_VP_PLAIN: int = _SET["vp"]
SET_VP_TREE: int = _SET["vp_if"].get("tree", SET_VP_PLAIN)
SET_VP_LAKE: int = _SET["vp_if"].get("lake", SET_VP_PLAIN)

#: Special birds that may share a Nest tile with one Regular bird (Java Sparrow).
NEST_PARTNERS: frozenset[int] = frozenset(
    BIDX[c["id"]] for c in _SPECIAL["cards"] if c["ability"]["type"] == "breeding_partner"
)
#: Funds per token added to every Advertisement (Paradise Riflebird), after the cap.
AD_BOOST: dict[int, int] = {
    BIDX[c["id"]]: c["ability"]["engine"]["funds_per_token"]
    for c in _SPECIAL["cards"]
    if c["ability"]["type"] == "advertisement_boost"
}

_OTHER = _BIRDS["other_components"]
TREES_TOTAL: int = _OTHER["tree_token"]["count"]
NESTS_TOTAL: int = _OTHER["nest_tile"]["count"]
EGG_TOKENS: int = _OTHER["egg_tokens"]

# ---------------------------------------------------------------- aviary
AREA_IDS: tuple[str, ...] = (
    *(a["id"] for a in _AVIARY["areas"]),
    _AVIARY["additional_area"]["id"],
)
NAREA = len(_AVIARY["areas"])  # printed areas; index NAREA is the Additional Area
AX = NAREA
EVENT_AREAS: tuple[int, ...] = tuple(i for i, a in enumerate(_AVIARY["areas"]) if a["event_area"])
_PATH = _AVIARY["employee_path"]
EMP_IDS: tuple[str, ...] = tuple(_PATH["clockwise_order"])
EMP_LEN = len(EMP_IDS)
_AREA_INDEX = {a: i for i, a in enumerate(AREA_IDS)}
_SPACE_BY_ID = {s["id"]: s for s in _PATH["spaces"]}
EMP_ADJ: tuple[tuple[int, ...], ...] = tuple(
    tuple(_AREA_INDEX[a] for a in _SPACE_BY_ID[sid]["adjacent_areas"]) for sid in EMP_IDS
)
EMP_START: int = next(i for i, sid in enumerate(EMP_IDS) if _SPACE_BY_ID[sid].get("start"))
ARROW: tuple[int, int] = (
    EMP_IDS.index(_PATH["event_arrow"]["between"][0]),
    EMP_IDS.index(_PATH["event_arrow"]["between"][1]),
)

# ---------------------------------------------------------------- rules params
ROUNDS: dict[int, int] = {int(k): v for k, v in RULES["rounds_by_player_count"]["value"].items()}
FUNDS_START: int = RULES["funds"]["start"]
FUNDS_MAX: int = RULES["funds"]["max"]
EGG_START: int = RULES["egg_marker_start_space"]["value"]
_EMP = RULES["employee"]
EMP_MIN: int = _EMP["base_move_min"]
EMP_MAX: int = _EMP["base_move_max"]
EMP_EXTRA: tuple[int, ...] = tuple(_EMP["extra_space_costs"])
EMP_MAX_TOTAL: int = min(_EMP["max_total_move"], EMP_MAX + len(EMP_EXTRA))
AREA_BASE: int = RULES["area"]["base_size"]
AREA_BONUS: int = RULES["area"]["tree_or_lake_bonus"]
NEST_CAP: int = RULES["nest"]["capacity"]
_BUY = RULES["additional_purchases"]
COST_NEST: int = _BUY["nest_tile"]
COST_TREE: int = _BUY["tree_token"]
COST_LAKE: int = _BUY["remove_cover_reveal_lake"]
COST_FBIRD: int = _BUY["forest_bird"]
FBIRD_LIMIT: int = _BUY["forest_bird_limit_per_turn"]
COST_AX: int = _BUY["additional_area_tile"]
AX_SIDES: tuple[str, ...] = tuple(RULES["additional_area_tile"]["sides"])
AX_VP: int = RULES["additional_area_tile"]["end_vp"]
STANDBY_VP: tuple[int, ...] = tuple(RULES["standby_vp"]["value"])
EGG_POINTS: tuple[int, ...] = tuple(RULES["egg_points_by_space"]["value"])
EGG_MAX = len(EGG_POINTS) - 1
MILESTONE_VP: tuple[int, ...] = tuple(RULES["milestone_vp_by_achieved"]["value"])
MS_DRAW: dict[str, int] = dict(RULES["milestone_setup"]["draw"])
_SOLO = RULES["solo"]
SOLO_TARGETS: tuple[int, ...] = tuple(_SOLO["target_vp"])
SOLO_BREEDS: dict[int, int] = {int(k): v for k, v in _SOLO["breeds_on_standby_by_round"].items()}
GOLDEN = NREG  # index of the Golden Egg icon in the Nest Box (after the 6 bird icons)
BOX_ICONS: tuple[int, ...] = tuple(BIDX[b] for b in RULES["nest_box"]["bird_icons"])
BOX_SIZE = NREG + (1 if RULES["nest_box"]["golden_egg_icon"] else 0)

# ---------------------------------------------------------------- main track
TRACK_LEN: int = _TRACK["length"]["value"]
#: ICONS[space] = tuple of (icon, min_players) for spaces 1..TRACK_LEN (index 0 unused).
ICONS: tuple[tuple[tuple[str, int], ...], ...] = (
    (),
    *(
        tuple((i["icon"], i["min_players"]) for i in s["icons"])
        for s in sorted(_TRACK["spaces"], key=lambda s: s["space"])
    ),
)
FIXED_BLUE: tuple[int, ...] = tuple(_TRACK["fixed_blue_positions"]["value"])
SECTIONS: tuple[tuple[int, ...], ...] = tuple(tuple(s) for s in _TRACK["sections_2p"]["value"])
SECTION_OF: tuple[int, ...] = tuple(
    next((k for k, sec in enumerate(SECTIONS) if space in sec), -1)
    for space in range(TRACK_LEN + 1)
)
STANDBY_SLOTS: int = _TRACK["standby_track"]["spaces"]
STANDBY_LABELS: tuple[str, ...] = tuple(_TRACK["standby_track"]["labels"])
LUCY_SLOT: int = STANDBY_LABELS.index(_TRACK["lucy_2p"]["start_standby_space"])

# ---------------------------------------------------------------- chips
#: The green chips, as the bird index each one shows.
GREEN: tuple[int, ...] = tuple(
    BIDX[bird] for bird, n in _CHIPS["green"]["by_bird"].items() for _ in range(n)
)
NBLUE: int = _CHIPS["blue"]["total"]
ORANGE: dict[int, tuple[int, ...]] = {
    f["round"]: tuple(BIDX[b] for b in f["birds"]) for f in _CHIPS["orange"]["faces"]
}
FOREST_DRAWS: int = _CHIPS["per_round_setup"]["forest_draws"]
# chip codes on the track: bird index (green), BLUE_BASE + id (blue), ORANGE_BASE + round (orange)
BLUE_BASE = 100
ORANGE_BASE = 200

# ---------------------------------------------------------------- event cards
EVENT_IDS: tuple[str, ...] = tuple(c["id"] for c in _EVENTS["cards"])
EVENT_BIRDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(BIDX[b] for b in c["birds"]) for c in _EVENTS["cards"]
)
EVENT_INCOME: tuple[tuple[int, ...], ...] = tuple(tuple(c["income"]) for c in _EVENTS["cards"])
EVENT_VP: tuple[tuple[int, ...], ...] = tuple(tuple(c["vp"]) for c in _EVENTS["cards"])
EVENT_DEAL = 2
EVENT_INDEX = {e: i for i, e in enumerate(EVENT_IDS)}

# ---------------------------------------------------------------- milestones
TILE_IDS: tuple[str, ...] = tuple(t["id"] for t in _MILESTONES["tiles"])
TILE_LETTER: tuple[str, ...] = tuple(t["letter"] for t in _MILESTONES["tiles"])
TILE_KIND: tuple[str, ...] = tuple(t["kind"] for t in _MILESTONES["tiles"])


def _tile_params(t: dict[str, Any]) -> Any:
    kind = t["kind"]
    if kind in ("total_birds", "area_contains"):
        return tuple((BIDX[b], n) for b, n in t["birds"].items())
    if kind == "total_elements":
        return tuple((e, n) for e, n in t["elements"].items())
    if kind == "area_bird_plus_special":
        return BIDX[t["bird"]]
    return t["n"]


TILE_PARAMS: tuple[Any, ...] = tuple(_tile_params(t) for t in _MILESTONES["tiles"])


def _tile_text(i: int) -> str:
    kind, p = TILE_KIND[i], TILE_PARAMS[i]
    if kind == "total_birds":
        return "in all areas: " + ", ".join(f"{n} {BIRD_NAME[b]}" for b, n in p)
    if kind == "area_contains":
        return "in one area: " + ", ".join(f"{n} {BIRD_NAME[b]}" for b, n in p)
    if kind == "total_elements":
        return "in all areas: " + ", ".join(f"{n} {e}" for e, n in p)
    if kind == "funds_at_least":
        return f"{p} funds or more"
    if kind == "egg_marker_at_least":
        return f"Egg marker on space {p} or further"
    if kind == "total_special_birds":
        return f"{p} Special Bird tokens or more"
    return f"in one area: a {BIRD_NAME[p]} and a Special Bird"


TILE_TEXT: tuple[str, ...] = tuple(_tile_text(i) for i in range(len(TILE_IDS)))


def _line_slots(name: str) -> tuple[int, ...]:
    k = int(name[1:]) - 1
    if name[0] == "r":
        return (3 * k, 3 * k + 1, 3 * k + 2)
    return (k, k + 3, k + 6)


LINE_NAMES: tuple[str, ...] = tuple(ln["line"] for ln in _CAGE["lines"])
LINE_SLOTS: tuple[tuple[int, ...], ...] = tuple(_line_slots(n) for n in LINE_NAMES)
LINE_EARLY: tuple[dict[str, Any] | None, ...] = tuple(ln["early"] for ln in _CAGE["lines"])
LINE_REGULAR: tuple[dict[str, Any], ...] = tuple(ln["regular"] for ln in _CAGE["lines"])
#: Lines through each birdcage slot.
SLOT_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(li for li, slots in enumerate(LINE_SLOTS) if s in slots) for s in range(9)
)


def bonus_text(bonus: dict[str, Any] | None) -> str:
    """Short human description of a birdcage bonus."""
    if bonus is None:
        return ""
    kind = bonus["type"]
    if kind == "funds":
        return f"gain {bonus['amount']} funds"
    if kind == "special_bird_purchase":
        return f"buy a Special Bird at -{bonus['discount']}"
    if kind == "bonus_bird":
        return "take a bonus bird"
    if kind == "elements":
        return f"{bonus['amount']} tree/lake/nest anywhere"
    if kind == "golden_egg":
        return "golden egg"
    if kind == "egg_token_of_choice":
        return "an egg token of your choice"
    return f"Egg marker +{bonus['amount']}"


# ---------------------------------------------------------------- starting setup cards
SETUP_IDS: tuple[str, ...] = tuple(c["id"] for c in _SETUP["cards"])
SETUP_CARDS: tuple[tuple[int, int, int], ...] = tuple(
    (_AREA_INDEX[c["nest"]], _AREA_INDEX[c["tree"]], _AREA_INDEX[c["lake"]])
    for c in _SETUP["cards"]
)

# ---------------------------------------------------------------- advertisements
AD_IDS: tuple[str, ...] = tuple(a["id"] for a in _ADS["ads"])
AD_NAME: tuple[str, ...] = tuple(a["engine"]["name"] for a in _ADS["ads"])
AD_KIND: tuple[str, ...] = tuple(a["engine"]["kind"] for a in _ADS["ads"])
AD_BIRDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(BIDX[b] for b in a["engine"]["birds"]) for a in _ADS["ads"]
)
AD_ELEMENTS: tuple[tuple[str, ...], ...] = tuple(
    tuple(a["engine"]["elements"]) for a in _ADS["ads"]
)
AD_PER: tuple[int, ...] = tuple(a["engine"]["per"] for a in _ADS["ads"])
AD_CAP: tuple[int, ...] = tuple(a["cap"] for a in _ADS["ads"])

ELEMENTS: tuple[str, ...] = ("tree", "lake", "nest")

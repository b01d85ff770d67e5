"""The Wingspan catalogue: every bird, bonus card and round goal as printed.

Built once per process from the rules package's data files
(``services/wingspan/rules/data``, provenance in its README) and served by
GetCatalogue. A bird's ``bird`` is its engine index (its position in
``birds.json``), the number every view and action uses; bonus cards carry both
the engine index and the source's id, goals the source's id, as the view does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roost.wingspan.v1 import catalogue_pb2, types_pb2

from services.wingspan.rules import cards

_DATA = Path(cards.__file__).resolve().parent / "data"

#: Bonus cards whose scoring ladder is assumed: the sources disagree and the
#: shared data's choice is kept (data/README.md, "What is assumed").
ASSUMED_LADDERS = frozenset({"Backyard Birder", "Photographer", "Anatomist"})

_MODE = {
    "and": catalogue_pb2.FOOD_COST_MODE_ALL,
    "or": catalogue_pb2.FOOD_COST_MODE_ANY,
    "none": catalogue_pb2.FOOD_COST_MODE_NONE,
}


def _load(name: str) -> dict[str, Any]:
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


def _bird(index: int, raw: dict[str, Any], source: str) -> catalogue_pb2.CatalogueBird:
    cost = raw["food_cost"]
    return catalogue_pb2.CatalogueBird(
        bird=index,
        card_id=raw["id"],
        name=raw["common_name"],
        set=raw["set"],
        habitats=[types_pb2.Habitat.Value("HABITAT_" + h.upper()) for h in raw["habitats"]],
        food_cost=types_pb2.FoodCounts(**{f: cost[f] for f in cards.FOOD_NAMES}),
        wild_food=cost["wild"],
        food_cost_mode=_MODE[raw["food_cost_mode"]],
        food_cost_total=raw["food_cost_total"],
        points=raw["victory_points"],
        nest=types_pb2.Nest.Value("NEST_" + raw["nest_type"].upper()),
        egg_limit=raw["egg_limit"],
        wingspan_cm=raw["wingspan_cm"],
        power_color=types_pb2.PowerColor.Value("POWER_COLOR_" + raw["power_color"].upper()),
        power=raw["power_summary"],
        predator=bool(raw["predator"]),
        flocking=bool(raw["flocking"]),
        bonus_card_power=bool(raw["bonus_card_power"]),
        bonus_cards=sorted(raw["bonus_card_eligibility"]),
        assumed=False,
        source=source,
    )


def _bonus(index: int, raw: dict[str, Any], source: str) -> catalogue_pb2.CatalogueBonusCard:
    scoring = raw["scoring"]
    assumed = raw["name"] in ASSUMED_LADDERS
    return catalogue_pb2.CatalogueBonusCard(
        bonus=index,
        bonus_id=raw["id"],
        name=raw["name"],
        condition=raw["summary"],
        rule=raw["rule"],
        runtime=raw["evaluation"] == "runtime",
        points_per_bird=scoring.get("points_per_bird", 0),
        tiers=[
            catalogue_pb2.BonusTier(min=t["min"], max=t["max"] or 0, points=t["points"])
            for t in scoring.get("tiers", ())
        ],
        assumed=assumed,
        source=source + ("; assumed: the scoring ladder (the sources disagree)" if assumed else ""),
    )


def build() -> catalogue_pb2.Catalogue:
    """The whole catalogue, from the data files."""
    birds = _load("birds.json")
    bonus = _load("bonus_cards.json")
    goals = _load("goals.json")
    goal_index = {goal_id: g for g, goal_id in enumerate(cards.GOAL_IDS)}
    return catalogue_pb2.Catalogue(
        birds=[_bird(i, b, birds["provenance"]) for i, b in enumerate(birds["birds"])],
        bonus_cards=[_bonus(i, c, bonus["provenance"]) for i, c in enumerate(bonus["bonus_cards"])],
        goals=[
            catalogue_pb2.CatalogueGoal(
                goal_id=g["id"],
                tile=g["tile"],
                tile_side=g["tile_side"],
                name=cards.GOAL_NAME[goal_index[g["id"]]],
                counts=g["counts"],
                category=g["category"],
                assumed=False,
                source=goals["provenance"],
            )
            for g in goals["goals"]
        ],
        green_points=[
            catalogue_pb2.GreenPoints(round=r + 1, points_by_rank=points)
            for r, points in enumerate(goals["green_points_by_round"])
        ],
        blue_max_per_round=goals["blue_max_per_round"],
    )

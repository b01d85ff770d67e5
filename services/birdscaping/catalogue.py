"""The Birdscaping catalogue: the 18 cards with their printed facts and ability text.

Built once per process from ``services/birdscaping/rules/data/cards.json``
(every card is assumed: no public card list exists; see the data's README) and
served by GetCatalogue. An entry's ``card`` is the card key every view and
action uses.
"""

from __future__ import annotations

from typing import Any

from roost.birdscaping.v1 import catalogue_pb2, types_pb2

from services.birdscaping.rules import cards


def _card(index: int, raw: dict[str, Any]) -> catalogue_pb2.CatalogueCard:
    ability = raw["ability"]
    source = raw["source"]
    return catalogue_pb2.CatalogueCard(
        card=raw["id"],
        name=raw["name"],
        points=raw["points"],
        food_cost=[catalogue_pb2.FoodIcon(alternatives=icon) for icon in raw["food_cost"]],
        food_cost_text=cards.cost_text(index),
        rows_allowed=[types_pb2.Row.Value("ROW_" + row.upper()) for row in raw["rows_allowed"]],
        nesting=raw["improvements"]["nesting"],
        food=raw["improvements"]["food"],
        curious=raw["improvements"]["curious"],
        ability_type=catalogue_pb2.AbilityType.Value("ABILITY_TYPE_" + ability["type"].upper()),
        announce=bool(ability["announce"]),
        ability_text=ability["text"],
        assumed="assumed" in source.lower(),
        source=source,
    )


def build() -> catalogue_pb2.Catalogue:
    """The whole catalogue, from the data file."""
    return catalogue_pb2.Catalogue(
        cards=[_card(i, raw) for i, raw in enumerate(cards.RAW_CARDS["cards"])]
    )

"""The Under the Leaves catalogue: every tile's four printed spaces and the 12
dweller cards with their texts.

Built once per process from ``services/undertheleaves/rules/data`` (tiles and
cards sourced from the Board Game Arena port, texts paraphrased; see the data's
README) and served by GetCatalogue. Entries carry the tile and card ids every
view and action uses.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from roost.undertheleaves.v1 import catalogue_pb2, types_pb2

from services.undertheleaves.rules import catalogue as rules

_QUADRANTS = ("tl", "tr", "bl", "br")


def _load(name: str) -> dict[str, Any]:
    return json.loads((resources.files(rules.__package__) / "data" / name).read_text("utf-8"))


def _tile(raw: dict[str, Any], source: str) -> catalogue_pb2.CatalogueTile:
    spaces = [raw["quadrants"][q] for q in _QUADRANTS]
    return catalogue_pb2.CatalogueTile(
        tile=raw["id"],
        start=raw["kind"] == "start",
        spaces=[
            types_pb2.Space(
                terrain=types_pb2.Terrain.Value("TERRAIN_" + s["type"].upper()),
                mushroom=bool(s["mushroom"]),
            )
            for s in spaces
        ],
        assumed="assumed" in source.lower(),
        source=source,
    )


def _dweller(raw: dict[str, Any], source: str) -> catalogue_pb2.CatalogueDweller:
    return catalogue_pb2.CatalogueDweller(
        card=raw["id"],
        family=types_pb2.Family.Value("FAMILY_" + raw["family"].upper()),
        name=raw["name"],
        first_game=bool(raw["first_game"]),
        condition=raw["condition"],
        placement=raw["placement"],
        reuse=raw["reuse"],
        interpretation=raw.get("interpretation", ""),
        assumed="assumed" in source.lower(),
        source=source,
    )


def build() -> catalogue_pb2.Catalogue:
    """The whole catalogue, from the data files."""
    tiles = _load("tiles.json")
    dwellers = _load("dweller_cards.json")
    tile_source = tiles["_meta"]["status"]
    card_source = dwellers["_meta"]["status"]
    return catalogue_pb2.Catalogue(
        tiles=[_tile(t, tile_source) for t in (*tiles["start_tiles"], *tiles["garden_tiles"])],
        dwellers=[_dweller(c, card_source) for c in dwellers["cards"]],
    )

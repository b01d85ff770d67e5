"""The Sky Garden catalogue: birds, Event cards, Milestone tiles, starting setup
cards, advertisements and birdcage line bonuses as printed.

Built once per process from ``services/skygarden/rules/data`` (its README: most
values are assumed, each file tags its own) and served by GetCatalogue. Entries
carry the ids every view and action uses (bird ids, card and tile ids).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roost.skygarden.v1 import catalogue_pb2

from services.skygarden.rules import data as D

_DIR = Path(D.__file__).resolve().parent / "data"


def _load(name: str) -> dict[str, Any]:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


def _provenance(data: dict[str, Any]) -> dict[str, Any]:
    """A data file's provenance as a catalogue entry's ``assumed`` and ``source`` fields."""
    source = data["_meta"]["source"]
    return {"assumed": source == "assumed", "source": source}


def _vp_text(raw: dict[str, Any]) -> str:
    """A bird's scoring in words, for birds whose data gives only numbers."""
    text = f"{raw.get('vp', 0)} VP"
    for where, vp in raw.get("vp_if", {}).items():
        text += f"; {vp} VP if its area has a {where.replace('_or_', ' or ')}"
    return text


def _birds() -> list[catalogue_pb2.CatalogueBird]:
    regular, special = _load("birds.json"), _load("special_birds.json")
    entries = []
    for raw in regular["regular"]:
        b = D.BIDX[raw["id"]]
        entries.append(
            catalogue_pb2.CatalogueBird(
                bird=raw["id"],
                name=raw["name"],
                tokens=raw["tokens"],
                size=raw["size"],
                vp=D.VP_PLAIN[b],
                vp_with_tree=D.VP_TREE[b],
                vp_with_lake=D.VP_LAKE[b],
                text=raw.get("scoring") or _vp_text(raw),
                **_provenance(regular),
            )
        )
    for raw in special["cards"]:
        b = D.BIDX[raw["id"]]
        entries.append(
            catalogue_pb2.CatalogueBird(
                bird=raw["id"],
                name=raw["name"],
                special=True,
                tokens=raw["tokens"],
                size=raw["size"],
                vp=D.VP_PLAIN[b],
                vp_with_tree=D.VP_TREE[b],
                vp_with_lake=D.VP_LAKE[b],
                text=raw["ability"]["text"],
                cost=raw["cost"],
                ability=raw["ability"]["type"],
                **_provenance(special),
            )
        )
    return entries


def build() -> catalogue_pb2.Catalogue:
    """The whole catalogue, from the data files."""
    events = _load("event_cards.json")
    milestones = _load("milestones.json")
    setup = _load("starting_setup_cards.json")
    ads = _load("advertisements.json")
    cage = _load("birdcage_bonuses.json")
    cage_source = f"pairs sourced, placement {cage['_meta']['assignment_source']}"
    return catalogue_pb2.Catalogue(
        birds=_birds(),
        event_cards=[
            catalogue_pb2.CatalogueEventCard(
                card=c["id"],
                birds=c["birds"],
                set_size=c["set_size"],
                income=c["income"],
                vp=c["vp"],
                **_provenance(events),
            )
            for c in events["cards"]
        ],
        milestones=[
            catalogue_pb2.CatalogueMilestone(
                tile=t["id"],
                letter=t["letter"],
                kind=t["kind"],
                condition=D.TILE_TEXT[i],
                **_provenance(milestones),
            )
            for i, t in enumerate(milestones["tiles"])
        ],
        setup_cards=[
            catalogue_pb2.CatalogueSetupCard(
                card=c["id"],
                nest_area=c["nest"],
                tree_area=c["tree"],
                lake_area=c["lake"],
                **_provenance(setup),
            )
            for c in setup["cards"]
        ],
        advertisements=[
            catalogue_pb2.CatalogueAdvertisement(
                ad=a["id"],
                name=a["engine"]["name"],
                funds=a["funds"],
                cap=a["cap"],
                **_provenance(ads),
            )
            for a in ads["ads"]
        ],
        line_bonuses=[
            catalogue_pb2.CatalogueLineBonus(
                line=D.LINE_NAMES[li],
                slots=D.LINE_SLOTS[li],
                early_bonus=D.bonus_text(D.LINE_EARLY[li]),
                regular_bonus=D.bonus_text(D.LINE_REGULAR[li]),
                assumed=True,
                source=cage_source,
            )
            for li in range(len(D.LINE_NAMES))
        ],
    )

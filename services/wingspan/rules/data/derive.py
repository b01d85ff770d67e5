"""Rebuild the engine's data files from the project's shared card data.

Run by hand only (``python services/wingspan/rules/data/derive.py SRC_DIR``); the
engine never runs it and never reads the shared folder at run time. It copies
the card facts, drops the English power text and writes a short summary of each
power in our own words, generated from the power template and its parameters.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

KEEP_BIRD = (
    "id",
    "common_name",
    "set",
    "habitats",
    "food_cost",
    "food_cost_mode",
    "food_cost_total",
    "victory_points",
    "nest_type",
    "egg_limit",
    "wingspan_cm",
    "power_color",
    "power_template",
    "power_params",
    "predator",
    "flocking",
    "bonus_card_power",
    "bonus_card_eligibility",
)


def _foods(params: dict) -> str:
    return " or ".join(params.get("foods", []))


def summary(template: str, p: dict) -> str:
    """Our own short wording of a power, from its template and parameters."""
    t = template
    if t == "no_power":
        return ""
    if t == "gain_food_supply":
        return f"Take {p['count']} {p['food']} from the supply."
    if t == "all_players_gain_food_supply":
        return f"Every player takes 1 {p['food']} from the supply."
    if t == "gain_food_feeder":
        text = f"Take one {_foods(p)} die from the feeder if there is one."
        if p.get("may_cache"):
            text += " It may be cached here instead."
        return text
    if t == "gain_all_of_type_feeder":
        return f"Take every {p['food']} die in the feeder."
    if t == "each_player_gain_die_choose_start":
        return "Pick a first player; each player in turn takes one feeder die."
    if t == "cache_food_supply":
        return f"Cache {p['count']} {p['food']} from the supply here."
    if t == "trade_food_supply":
        return "Swap one of your food tokens for a different type from the supply."
    if t == "lay_egg":
        return "Add an egg to this bird." if p["target"] == "this" else "Add an egg to any bird."
    if t == "lay_egg_each_nest_type":
        return f"Add an egg to every {p['nest']}-nest bird you have."
    if t == "all_players_lay_egg_nest_type":
        return (
            f"Every player adds an egg to one {p['nest']}-nest bird; "
            f"you may add one more to a second such bird."
        )
    if t == "draw_cards":
        return f"Draw {p['count']} bird card(s)."
    if t == "draw_cards_discard_end_of_turn":
        return f"Draw {p['count']} card(s); discard one from hand when your turn ends."
    if t == "all_players_draw_card":
        return "Every player draws a card from the deck."
    if t == "draft_players_plus_one":
        return "Reveal players+1 deck cards; each player from you picks one, you get the last."
    if t == "draw_bonus_keep_one":
        return "Draw two bonus cards; keep one."
    if t == "discard_egg_for_reward":
        where = "another of your birds" if p["from_other_birds_only"] else "any of your birds"
        if p["reward"] == "wild_food":
            return f"Remove an egg from {where} to take {p['count']} food of your choice."
        return f"Remove an egg from {where} to draw {p['count']} cards."
    if t == "discard_food_tuck_from_deck":
        return f"Spend one {p['food']} to tuck {p['tuck_count']} deck cards under this bird."
    if t == "tuck_from_hand_then":
        reward = {
            "draw_card": "draw a card",
            "lay_egg_this": "add an egg to this bird",
            "lay_egg_any": "add an egg to any bird",
        }.get(p["reward"])
        if reward is None:
            reward = f"take one {_foods(p)} from the supply"
        return f"Tuck a card from hand under this bird; then {reward}."
    if t == "predator_roll_dice_cache":
        return f"Hunt: roll the dice outside the feeder; on any {p['food']}, cache one here."
    if t == "predator_look_tuck":
        return (
            f"Hunt: reveal the top deck card; under {p['wingspan_lt_cm']} cm it is tucked here, "
            f"otherwise discarded."
        )
    if t == "fewest_birds_in_habitat_reward":
        reward = "takes a feeder die" if p["reward"] == "feeder_die" else "draws a card"
        return f"Whoever has the fewest {p['habitat']} birds {reward}."
    if t == "move_if_rightmost":
        return "When it is the last bird of its row, it may move to another habitat it allows."
    if t == "play_additional_bird":
        where = "this habitat" if p["habitat"] == "same_as_this" else f"your {p['habitat']}"
        return f"Play one more bird into {where}, paying its cost."
    if t == "repeat_brown_power":
        return "Use again the brown power of another bird in this row."
    if t == "repeat_predator_power":
        return "Use again a hunting power of a bird in this row."
    if t == "pink_on_lay_eggs_lay_egg":
        other = " other" if p["exclude_this_bird"] else ""
        nest = p["nest"]
        return (
            f"After an opponent lays eggs as an action: add an egg to one{other} {nest}-nest bird."
        )
    if t == "pink_on_play_bird_in_habitat":
        if p["reward"] == "tuck_from_hand":
            return f"After an opponent plays a {p['habitat']} bird: tuck a hand card here."
        return f"After an opponent plays a {p['habitat']} bird: take one {p['food']}."
    if t == "pink_on_gain_food_rodent_cache":
        return "After an opponent takes a rodent with the gain-food action: cache a rodent here."
    if t == "pink_on_predator_success_gain_die":
        return "After an opponent's hunt succeeds: take one feeder die."
    if t == "gain_die_feeder_any":
        return "Take any one die from the feeder."
    if t == "draw_all_tray":
        return "Take all the face-up tray cards."
    raise ValueError(t)


BONUS_SUMMARY = {
    "Anatomist": "Birds whose English name contains a body part",
    "Backyard Birder": "Birds printed with fewer than 4 points",
    "Bird Counter": "Birds with a flocking (tucking) power",
    "Bird Feeder": "Birds whose cost includes seed",
    "Breeding Manager": "Birds holding 4 or more eggs",
    "Cartographer": "Birds whose English name contains a place",
    "Ecologist": "Birds in your least-populated habitat",
    "Enclosure Builder": "Birds with a ground (or star) nest",
    "Falconer": "Birds with a predator power",
    "Fishery Manager": "Birds whose cost includes fish",
    "Food Web Expert": "Birds whose cost is invertebrates only",
    "Forester": "Birds that can live only in the forest",
    "Historian": "Birds whose English name honours a person",
    "Large Bird Specialist": "Birds with a wingspan above 65 cm",
    "Nest Box Builder": "Birds with a cavity (or star) nest",
    "Omnivore Specialist": "Birds whose cost includes a wild food",
    "Oologist": "Birds holding at least 1 egg",
    "Passerine Specialist": "Birds with a wingspan of 30 cm or less",
    "Photographer": "Birds whose English name contains a colour",
    "Platform Builder": "Birds with a platform (or star) nest",
    "Prairie Manager": "Birds that can live only in the grassland",
    "Rodentologist": "Birds whose cost includes rodents",
    "Visionary Leader": "Bird cards left in hand at the end",
    "Viticulturalist": "Birds whose cost includes fruit",
    "Wetland Scientist": "Birds that can live only in the wetland",
    "Wildlife Gardener": "Birds with a bowl (or star) nest",
}


def main(src: Path) -> None:
    base = json.loads((src / "birds.json").read_text())
    swift = json.loads((src / "swift_start_birds.json").read_text())
    birds = []
    for raw in base + swift:
        row = {k: raw[k] for k in KEEP_BIRD}
        row["power_summary"] = summary(raw["power_template"], raw["power_params"])
        birds.append(row)
    out = {
        "provenance": "sourced: card facts from the shared Wingspan card data (see README.md); "
        "derived: power_summary written for this engine from power_template/power_params",
        "birds": birds,
    }
    (HERE / "birds.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    bonus = json.loads((src / "bonus_cards.json").read_text())
    keep = ("id", "name", "evaluation", "rule", "scoring")
    (HERE / "bonus_cards.json").write_text(
        json.dumps(
            {
                "provenance": "sourced: shared Wingspan bonus card data (26 base cards); "
                "derived: summary written for this engine",
                "bonus_cards": [
                    {**{k: b[k] for k in keep}, "summary": BONUS_SUMMARY[b["name"]]} for b in bonus
                ],
            },
            indent=1,
            sort_keys=True,
        )
        + "\n"
    )
    goals = json.loads((src / "goals.json").read_text())
    (HERE / "goals.json").write_text(
        json.dumps(
            {
                "provenance": "sourced: shared Wingspan goal data (8 tiles, 2 sides each)",
                "goals": [
                    {k: g[k] for k in ("id", "tile", "tile_side", "category", "params", "counts")}
                    for g in goals["goals"]
                ],
                "green_points_by_round": [
                    goals["scoring"]["green_competitive"]["points_by_round_and_place"][str(r)]
                    for r in range(1, 5)
                ],
                "blue_max_per_round": goals["scoring"]["blue_friendly"]["max_points_per_round"],
            },
            indent=1,
            sort_keys=True,
        )
        + "\n"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))

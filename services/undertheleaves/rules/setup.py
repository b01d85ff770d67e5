"""Setting up a game: the options, the dweller cards, the bag, the market and
the start tiles (rulebook "Setup"; ambiguities in docs/games/undertheleaves.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.core.engine import OptionError, Rng
from services.undertheleaves.rules import state as st
from services.undertheleaves.rules.board import PlacedTile
from services.undertheleaves.rules.catalogue import (
    BAG_SIZE,
    CARDS,
    CARDS_BY_FAMILY,
    FAMILIES,
    FIRST_GAME_CARDS,
    GARDEN_TILES,
    MARKET_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_TILES,
)
from services.undertheleaves.rules.state import Garden, Options, State

#: The rule variants a game may switch, all true or false (see ``Options``).
BOOL_OPTIONS = (
    "allow_flip",
    "thoughtful_one_per_sector_per_turn",
    "existing_sector_bonus_once_per_colour_per_turn",
)


def parse_options(options: Mapping[str, Any]) -> tuple[Options, Any]:
    """Setup, options: the rule variants (ambiguities 1, 3 and 7) and the
    dweller-card choice; an unknown option or a variant that is not true or
    false is an OptionError."""
    unknown = sorted(set(options) - {*BOOL_OPTIONS, "dwellers"})
    if unknown:
        raise OptionError(unknown[0], "unknown option")
    for name in BOOL_OPTIONS:
        if name in options and not isinstance(options[name], bool):
            raise OptionError(name, "must be true or false")
    flags = Options(**{name: options[name] for name in BOOL_OPTIONS if name in options})
    return flags, options.get("dwellers", "random")


def choose_cards(spec: Any, rng: Rng) -> tuple[str, str, str]:
    """Setup, dweller cards: one card per family: at random, the first-game set,
    or the 3 given ids (one of each family)."""
    if spec == "random":
        return tuple(rng.choice(CARDS_BY_FAMILY[f]) for f in FAMILIES)  # type: ignore[return-value]
    if spec == "first_game":
        return FIRST_GAME_CARDS  # type: ignore[return-value]
    if isinstance(spec, str) or not isinstance(spec, list | tuple) or len(spec) != 3:
        raise OptionError("dwellers", '"random", "first_game" or a list of 3 card ids')
    for card in spec:
        if card not in CARDS:
            raise OptionError(
                "dwellers", f"unknown card {card!r}; known: {', '.join(sorted(CARDS))}"
            )
    by_family = {CARDS[card].family: card for card in spec}
    if len(by_family) != len(FAMILIES):
        raise OptionError(
            "dwellers", "needs exactly one card of each family (leaf, puddle, mushroom)"
        )
    return tuple(by_family[f] for f in FAMILIES)  # type: ignore[return-value]


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    """Setup (ambiguity 13 and the numbers of ``game.json``): the bag holds the
    player count's number of garden tiles (the rest leave the game unseen), the
    market shows 3 of them, each seat gets a start tile, and a first seat is
    drawn."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError("players", f"must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    flags, dwellers = parse_options(options)
    rng = Rng(seed)
    bag = [t.id for t in GARDEN_TILES]
    rng.shuffle(bag)
    del bag[BAG_SIZE[players] :]  # the rest leave the game unseen
    market = [bag.pop() for _ in range(MARKET_SIZE)]
    starts = [t.id for t in START_TILES]
    rng.shuffle(starts)
    cards = choose_cards(dwellers, rng)
    first = rng.below(players)
    return State(
        players=players,
        options=flags,
        cards=cards,
        bag=bag,
        market=market,
        gardens=[Garden(tiles=(PlacedTile(starts[seat], 0, 0),)) for seat in range(players)],
        first_seat=first,
        current=first,
        turn=0,
        phase=st.TAKE_TILE,
        pending_card="",
        rng=rng.state,
    )

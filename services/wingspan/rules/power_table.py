"""Which handler runs each bird's power, by power template and colour.

Built once from the template tables below (data: ``power_template`` of each
bird in ``data/``): brown powers have an entry (what happens when the row is
activated; it may first ask whether to use the power) and an effect (the power
itself, also run by a repeat); white powers run when the bird is played; pink
powers answer a trigger between turns. Handlers receive the bird whose power
is used; a repeated power acts on the bird that owns it (its cache and tucked
cards go there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import BROWN, COLOR, NB, PARAMS, PINK, RW_FOOD, TEMPLATE, TPL, WHITE
from .powers_board import (
    fewest,
    move,
    pink_cache,
    pink_food,
    pink_lay,
    pink_play,
    pink_predator,
    pink_rodent,
    play_extra,
    pred_dice,
    pred_look,
    repeat,
)
from .powers_cards import (
    all_draw_deck,
    all_lay_nest,
    bonus_draw,
    draft,
    draw_all_tray,
    draw_cards,
    draw_eot,
    egg_reward,
    food_tuck,
    food_tuck_entry,
    lay_each_nest,
    lay_egg,
    tuck_then,
)
from .powers_food import (
    all_gain_supply,
    cache_supply,
    each_player_die,
    gain_all_feeder,
    gain_die_any,
    gain_feeder,
    gain_supply,
    gate,
    trade,
)
from .state import State

#: (state, seat, bird) -> None: a brown entry or effect.
Brown = Callable[[State, int, int], None]
#: (state, seat, bird, habitat it was played in) -> None.
White = Callable[[State, int, int, int], None]
#: (state, owner, bird, trigger parameter) -> the task to push, or None.
Pink = Callable[[State, int, int, int], Any]


def _white(fn: Brown) -> White:
    def white(s: State, seat: int, b: int, h: int) -> None:
        fn(s, seat, b)

    return white


#: Brown template -> (entry, effect); entry None means "same as effect".
BROWN_POWERS: dict[str, tuple[Brown | None, Brown]] = {
    "gain_food_supply": (None, gain_supply),
    "all_players_gain_food_supply": (gate, all_gain_supply),
    "gain_food_feeder": (None, gain_feeder),
    "each_player_gain_die_choose_start": (None, each_player_die),
    "cache_food_supply": (None, cache_supply),
    "trade_food_supply": (None, trade),
    "lay_egg": (None, lay_egg),
    "all_players_lay_egg_nest_type": (gate, all_lay_nest),
    "draw_cards": (None, draw_cards),
    "draw_cards_discard_end_of_turn": (gate, draw_eot),
    "all_players_draw_card": (gate, all_draw_deck),
    "discard_egg_for_reward": (None, egg_reward),
    "discard_food_tuck_from_deck": (food_tuck_entry, food_tuck),
    "tuck_from_hand_then": (None, tuck_then),
    "predator_roll_dice_cache": (gate, pred_dice),
    "predator_look_tuck": (gate, pred_look),
    "fewest_birds_in_habitat_reward": (gate, fewest),
    "move_if_rightmost": (None, move),
    "repeat_brown_power": (None, repeat),
    "repeat_predator_power": (None, repeat),
    "gain_die_feeder_any": (None, gain_die_any),
}
#: White template -> its handler.
WHITE_POWERS: dict[str, White] = {
    "gain_food_supply": _white(gain_supply),
    "gain_all_of_type_feeder": _white(gain_all_feeder),
    "lay_egg_each_nest_type": _white(lay_each_nest),
    "draw_cards": _white(draw_cards),
    "draft_players_plus_one": _white(draft),
    "draw_bonus_keep_one": _white(bonus_draw),
    "play_additional_bird": play_extra,
    "draw_all_tray": _white(draw_all_tray),
}
#: Pink template -> the handler of its trigger (it returns the task to push).
PINK_POWERS: dict[str, Pink] = {
    "pink_on_lay_eggs_lay_egg": pink_lay,
    "pink_on_play_bird_in_habitat": pink_play,
    "pink_on_gain_food_rodent_cache": pink_rodent,
    "pink_on_predator_success_gain_die": pink_predator,
}
TEMPLATE_NAMES = {v: k for k, v in TPL.items()}
_NAME = tuple(TEMPLATE_NAMES[TEMPLATE[b]] for b in range(NB))


def _effect(b: int) -> Brown | None:
    name = _NAME[b]
    if COLOR[b] == BROWN:
        return BROWN_POWERS[name][1]
    if COLOR[b] == PINK:
        # A pink power accepted through ``use_power`` (Belted Kingfisher,
        # Eastern Kingbird; Loggerhead Shrike).
        if name == "pink_on_play_bird_in_habitat" and PARAMS[b].reward == RW_FOOD:
            return pink_food
        if name == "pink_on_gain_food_rodent_cache":
            return pink_cache
    return None


def _entry(b: int) -> Brown | None:
    if COLOR[b] != BROWN:
        return None
    entry, effect = BROWN_POWERS[_NAME[b]]
    return entry or effect


#: Per bird: the brown entry (may ask to activate), the effect itself, the white
#: power, and the trigger and handler of a pink power.
ENTRY: tuple[Brown | None, ...] = tuple(_entry(b) for b in range(NB))
EFFECT: tuple[Brown | None, ...] = tuple(_effect(b) for b in range(NB))
WHITE_POWER: tuple[White | None, ...] = tuple(
    WHITE_POWERS[_NAME[b]] if COLOR[b] == WHITE else None for b in range(NB)
)
PINK_TRIGGER: tuple[int, ...] = tuple(
    PARAMS[b].trigger if COLOR[b] == PINK else -1 for b in range(NB)
)
PINK_HANDLER: tuple[Pink | None, ...] = tuple(
    PINK_POWERS[_NAME[b]] if COLOR[b] == PINK else None for b in range(NB)
)

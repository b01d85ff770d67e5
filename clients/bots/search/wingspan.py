"""Wingspan: an engine state built from a seat's view.

Face up, and copied exactly from the view: the phase, round, turn and first
player, the birdfeeder, the tray, every board (birds, eggs, cached food,
tucked-card counts, pink powers used), every food supply, the action cubes,
the round goals with their scores, the draft, the options, and the seat's own
hand, bonus cards and setup deal. Hidden: the bird deck and discard pile, the
other seats' hands, bonus cards and setup deals, the bonus deck and discard
pile. :func:`build` fills those places with cards the view does not show
(sorted); the engine's ``determinize`` then redraws them for each sample.

The flow stack (what is still to happen this turn) is not in the view: only
its top decision is. :func:`build` rebuilds the stack for the decisions whose
stack follows from the view alone, and raises :class:`NotRebuilt` for the
others (the search policy then plays greedy for that decision):

* setup, the birds to keep (the first of the three secret setup choices);
* the start of a turn: play a bird or take a habitat action;
* inside a habitat action: the bonus space (discard a card, food or egg for
  one more), then its main step: take a die (gain food), lay an egg, draw a
  card. A main step is claimed only when no bird of the seat could have
  pushed the same decision by its power (a brown power of that kind on its
  board, or a white one just played, i.e. rightmost in its row); a die taken
  by a power can be declined, so its legal list differs from the action's and
  the policy's check of the legal list notices it;
* the food paid for a bird played by the turn's action, when the bird lives
  in one habitat (the view does not show the habitat chosen);
* a brown power of the seat's own bird as its row is activated: whether to
  use it, which power to repeat, and the power's first decision (trade food,
  discard an egg, move the bird, choose a player, tuck a card) unless a bird
  of that row repeats powers (it could be the repeat).

Not rebuilt: the setup food and bonus choices (the view does not show the
birds and food the seat kept at setup), the egg cost of a bird (the view does
not show which bird is being played), a main step that a power could have
asked too, the decisions of white powers, of pink powers (another seat's
turn) and every later step of a power (the view shows the power's top
decision, not what remains of it).

Two approximations, neither of which changes the seat's legal actions now:
in the gain-food action the view does not say whether a rodent was taken by an
earlier die of the same action, so the rebuilt state says not (it only decides
whether other seats' rodent pink powers fire afterwards); and a seat's pink
birds are listed in board order, not in the order they were played (the order
in which two pink powers of one seat answer the same trigger).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clients.bots.search.ismcts import Settings
from services.core.engine.rng import Rng
from services.wingspan.rules import ENGINE
from services.wingspan.rules.cards import (
    BROWN,
    COLOR,
    FACE_ENUM,
    FOOD_NAMES,
    FOREST,
    GOAL_IDS,
    GRASSLAND,
    HAB_ENUM,
    HABS,
    NB,
    PINK,
    TEMPLATE,
    TPL,
    TRIG_FOOD,
    TRIG_LAY,
    WETLAND,
    WHITE,
)
from services.wingspan.rules.engine import PHASE_ENUM, STAGE_ENUM, bonus_cards, deck_birds
from services.wingspan.rules.power_tasks import (
    Activate,
    ChoosePlayer,
    EggCost,
    Move,
    Repeat,
    Trade,
    Tuck,
)
from services.wingspan.rules.state import (
    AMOUNT,
    D_ACTIVATE,
    D_BONUS,
    D_CHOOSE_PLAYER,
    D_DRAW,
    D_EGG_COST,
    D_FEEDER_ALL,
    D_LAY_EGG,
    D_MOVE,
    D_PAY_FOOD,
    D_REPEAT,
    D_TAKE_DIE,
    D_TRADE,
    D_TUCK,
    D_TURN,
    DECISION_NAMES,
    EGG_COST,
    PLAY_PHASE,
    ROUND_CUBES,
    SETUP,
    Phase,
    State,
)
from services.wingspan.rules.tasks import (
    CHOOSE_TURN,
    END_TURN,
    ActivateRow,
    Draw,
    LayEgg,
    PayEgg,
    PayFood,
    PlaceBird,
    TakeDie,
    Task,
    bonus_space,
    pink_trigger,
)

#: Search settings for this game (see docs/BOTS.md): a turn is several
#: decisions (an action, its bonus space, each die, egg or card), and points
#: come from birds played and eggs laid, so playouts run a couple of turns of
#: both seats deep; each mover looks one ply ahead at six of its actions.
#: About one decision in four is played by the greedy fallback (the module docstring):
#: ask the service for score previews so that it is greedy in earnest.
PREVIEW = True

SETTINGS = Settings(depth=16, sample=6, epsilon=0.1)


class NotRebuilt(ValueError):
    """The view does not determine the state of this decision (see the module docstring)."""


PHASES = {name: Phase(i) for i, name in enumerate(PHASE_ENUM)}
STAGES = {name: i for i, name in enumerate(STAGE_ENUM)}
FACES = {name: i for i, name in enumerate(FACE_ENUM)}
HABITATS = {name: i for i, name in enumerate(HAB_ENUM)}
GOALS = {goal_id: g for g, goal_id in enumerate(GOAL_IDS)}
DECISIONS = {name: code for code, name in DECISION_NAMES.items() if code != D_FEEDER_ALL}
ROWS = ("forest", "grassland", "wetland")

_BROWN_DRAW = {
    "draw_cards",
    "draw_cards_discard_end_of_turn",
    "discard_egg_for_reward",
    "tuck_from_hand_then",
    "fewest_birds_in_habitat_reward",
    "repeat_brown_power",
    "repeat_predator_power",
}
_BROWN_LAY = {
    "lay_egg",
    "all_players_lay_egg_nest_type",
    "tuck_from_hand_then",
    "repeat_brown_power",
}
#: Per decision code of a main step: the brown templates and the white
#: templates whose power may push that same decision for its owner.
MAY_PUSH: dict[int, tuple[frozenset[int], frozenset[int]]] = {
    D_DRAW: (frozenset(TPL[n] for n in _BROWN_DRAW), frozenset({TPL["draw_cards"]})),
    D_LAY_EGG: (frozenset(TPL[n] for n in _BROWN_LAY), frozenset()),
    # A die taken by a power may be declined: the legal-list check tells them apart.
    D_TAKE_DIE: (frozenset(), frozenset()),
}
#: The white template that plays another bird (whose costs are then paid).
PLAY_EXTRA = TPL["play_additional_bird"]
#: The brown powers that repeat another one.
REPEATERS = (TPL["repeat_brown_power"], TPL["repeat_predator_power"])
#: Decision code -> the task a brown power of bird ``b`` asks it by, first thing.
ROW_POWER: dict[int, Callable[[int, int], Task]] = {
    D_ACTIVATE: Activate,
    D_REPEAT: lambda seat, b: Repeat(seat, b, int(TEMPLATE[b] == REPEATERS[1])),
    D_TRADE: Trade,
    D_EGG_COST: EggCost,
    D_MOVE: Move,
    D_CHOOSE_PLAYER: ChoosePlayer,
    D_TUCK: lambda seat, b: Tuck(seat, b, 0),
}
#: The habitat whose action has each main step.
MAIN_STEP_HABITAT = {D_TAKE_DIE: FOREST, D_LAY_EGG: GRASSLAND, D_DRAW: WETLAND}


def build(view: dict[str, Any], seat: int) -> State:
    """An engine state that shows ``seat`` exactly ``view``, with the flow stack
    of its decision (see the module docstring); :class:`NotRebuilt` if the view
    does not determine it."""
    players = sorted(view["players"], key=lambda p: p["seat"])
    n = len(players)
    if not 0 <= seat < n:
        raise NotRebuilt("a spectator's view")
    s = State()
    s.players = n
    opts = view["options"]
    s.options = {
        "goal_side": opts["goal_side"],
        "no_language_bonus_cards": opts["no_language_bonus_cards"],
        "no_powerful_birds": opts["no_powerful_birds"],
        "swift_start": opts["swift_start"],
    }
    s.rng = Rng(0)
    s.phase = PHASES[view["phase"]]
    s.round = view["round"] - 1
    s.decisions = 0
    s.turn = view["turn_seat"]
    s.first_player = view["first_player"]
    s.feeder = [FACES[f] for f in view["birdfeeder"]]
    s.tray = [c["bird"] for c in view["tray"]]
    s.draft = [c["bird"] for c in view["draft"]]
    s.goals = [GOALS[g["goal_id"]] for g in view["goals"]]
    s.goal_counts = [list(g["count_by_seat"]) for g in view["goals"]]
    s.goal_points = [list(g["points_by_seat"]) for g in view["goals"]]
    _boards(s, players)
    s.food = [[p["food"][f] for f in FOOD_NAMES] for p in players]
    s.rodent_taken = 0
    s.last_egg_bird = -1
    s.bonus_offer = [k["bonus"] for k in players[seat]["bonus_offer"]]
    s.eot_discards = players[s.turn]["end_of_turn_discards"]
    if s.phase == SETUP:
        s.cubes_left = [ROUND_CUBES[0]] * n
        s.setup_stage = [STAGES[p["setup_stage"]] for p in players]
        s.stack = []
    else:
        s.cubes_left = [p["cubes_left"] for p in players]
        s.setup_stage = [3] * n
        s.stack = _stack(s, view["decision"], seat)
    _hidden(s, view, players, seat)
    return s


def _boards(s: State, players: list[dict[str, Any]]) -> None:
    """The birds on every board, with their eggs, cache, tucked cards and pink state."""
    s.rows = [[[slot["bird"] for slot in p[row]] for row in ROWS] for p in players]
    s.eggs = [0] * NB
    s.cached_food = [0] * NB
    s.tucked = [0] * NB
    s.pink_used = [0] * NB
    s.pink_birds = []
    s.eggs_by_seat = []
    for p in players:
        pinks = []
        laid = 0
        for row in ROWS:
            for slot in p[row]:
                b = slot["bird"]
                s.eggs[b] = slot["eggs"]
                s.cached_food[b] = slot["cached_food"]
                s.tucked[b] = slot["tucked_cards"]
                s.pink_used[b] = int(slot["pink_used"])
                laid += slot["eggs"]
                if COLOR[b] == PINK:
                    pinks.append(b)
        s.pink_birds.append(pinks)
        s.eggs_by_seat.append(laid)


def _stack(s: State, decision: dict[str, Any], seat: int) -> list[Task]:
    """The flow stack under the view's decision, for the decisions of the module
    docstring; :class:`NotRebuilt` for the others."""
    if s.phase != PLAY_PHASE:
        return []
    code = DECISIONS.get(decision["kind"])
    who = decision["seat"]
    if code == D_PAY_FOOD and who == seat == s.turn:
        return _paying(s, seat, decision["bird"])
    if code in ROW_POWER and who == seat == s.turn:
        return _row_power(s, seat, code, decision["bird"])
    if who != seat or who != s.turn or decision["bird"] != -1:
        raise NotRebuilt(f"{decision['kind']} of another seat or of a power")
    if code == D_TURN:
        return [END_TURN[seat], CHOOSE_TURN[seat]]
    if code == D_BONUS:
        habitat = HABITATS[decision["habitat"]]
        stack = _main_step(s, seat, habitat, None)
        stack.append(bonus_space(seat, habitat))
        return stack
    if code in MAIN_STEP_HABITAT:
        if _power_may_push(s, seat, code):
            raise NotRebuilt(f"{decision['kind']} may be a power's")
        return _main_step(s, seat, MAIN_STEP_HABITAT[code], decision["remaining"])
    raise NotRebuilt(f"{decision['kind']} is not rebuilt from a view")


def _paying(s: State, seat: int, bird: int) -> list[Task]:
    """The stack of ``seat`` paying the food of ``bird``, played by its turn's
    action (as ``payment.start_play`` pushes it): claimed when the bird lives in
    one habitat only (the view does not show the one chosen) and no bird of the
    seat may just have played it by a power (a white "play another bird" power,
    rightmost in its row)."""
    if len(HABS[bird]) != 1:
        raise NotRebuilt("the view does not show the habitat of the bird being played")
    for row in s.rows[seat]:
        if row and COLOR[row[-1]] == WHITE and TEMPLATE[row[-1]] == PLAY_EXTRA:
            raise NotRebuilt("the bird may be played by a power")
    habitat = HABS[bird][0]
    stack: list[Task] = [END_TURN[seat], PlaceBird(seat, bird, habitat)]
    eggs = EGG_COST[len(s.rows[seat][habitat])]
    if eggs:
        stack.append(PayEgg(seat, eggs))
    stack.append(PayFood(seat, bird))
    return stack


def _row_power(s: State, seat: int, code: int, bird: int) -> list[Task]:
    """The stack of a brown power of ``seat``'s own bird asking as its row is
    activated (``flow.run_row``): whether to use it, which power to repeat, or
    the power's own first decision; the columns to its left are still to come.
    A power's own decision could also come from a bird repeating it, further
    right in the row: then it is not rebuilt."""
    where = [(h, row.index(bird)) for h, row in enumerate(s.rows[seat]) if bird in row]
    if not where or COLOR[bird] != BROWN:
        raise NotRebuilt("a power of a bird not on the seat's board")
    habitat, column = where[0]
    row = s.rows[seat][habitat]
    if code not in (D_ACTIVATE, D_REPEAT) and any(TEMPLATE[b] in REPEATERS for b in row):
        raise NotRebuilt("the power may be repeated by another bird")
    stack: list[Task] = [END_TURN[seat]]
    if column:
        stack.append(ActivateRow(seat, habitat, column - 1))
    stack.append(ROW_POWER[code](seat, bird))
    return stack


def _main_step(s: State, seat: int, habitat: int, remaining: int | None) -> list[Task]:
    """The stack of ``seat``'s habitat action after its bonus space: the end of
    the turn, the row's brown powers, the pink trigger, and the main step with
    ``remaining`` to go (None: the amount of the column, the bonus space not yet
    decided). As ``decisions.ap_turn`` pushes it."""
    column = len(s.rows[seat][habitat])
    amount = AMOUNT[habitat][column] if remaining is None else remaining
    stack: list[Task] = [END_TURN[seat]]
    if column:
        stack.append(ActivateRow(seat, habitat, column - 1))
    if habitat == FOREST:
        stack.append(pink_trigger(seat, TRIG_FOOD))
        stack.append(TakeDie(seat, amount, 0))
    elif habitat == GRASSLAND:
        stack.append(pink_trigger(seat, TRIG_LAY))
        stack.append(LayEgg(seat, amount))
    else:
        stack.append(Draw(seat, amount))
    return stack


def _power_may_push(s: State, seat: int, code: int) -> bool:
    """True when a power of ``seat``'s birds could have asked this decision: a
    brown power of that kind anywhere on its board, or such a white power on a
    bird that may just have been played (the rightmost of its row)."""
    brown, white = MAY_PUSH[code]
    for row in s.rows[seat]:
        for b in row:
            if COLOR[b] == BROWN and TEMPLATE[b] in brown:
                return True
        if row and COLOR[row[-1]] == WHITE and TEMPLATE[row[-1]] in white:
            return True
    return False


def _hidden(s: State, view: dict[str, Any], players: list[dict[str, Any]], seat: int) -> None:
    """The seat's own cards from the view; every hidden place filled, in the
    order of ``hidden.determinize``, with the cards the view does not show."""
    n = s.players
    own = players[seat]
    s.hands = [[c["bird"] for c in own["hand"]] if p == seat else [] for p in range(n)]
    s.setup_birds = [[c["bird"] for c in own["setup_birds"]] if p == seat else [] for p in range(n)]
    s.bonus_cards = [
        [k["bonus"] for k in own["bonus_cards"]] if p == seat else [] for p in range(n)
    ]
    s.setup_bonus = [
        [k["bonus"] for k in own["setup_bonus_cards"]] if p == seat else [] for p in range(n)
    ]
    # The seat's own secret setup choices are not in the view: only a seat still
    # choosing its birds (nothing kept yet) is rebuilt (see _stack's callers).
    if s.phase == SETUP and s.setup_stage[seat] != 0:
        raise NotRebuilt("the view does not show the birds and food kept at setup")
    s.setup_kept = [[] for _ in range(n)]
    s.setup_food = [
        list(range(5)) if s.phase == SETUP and s.setup_stage[p] >= 2 else [] for p in range(n)
    ]
    seen = {*s.tray, *s.draft, *s.hands[seat], *s.setup_birds[seat]}
    seen.update(t.bird for t in s.stack if isinstance(t, PlaceBird))
    for rows in s.rows:
        for row in rows:
            seen.update(row)
    birds = iter(b for b in deck_birds(s.options) if b not in seen)
    in_setup = s.phase == SETUP
    for p in range(n):
        if p != seat:
            s.hands[p] = [next(birds) for _ in range(players[p]["hand_count"])]
    for p in range(n):
        if p != seat:
            s.setup_birds[p] = [next(birds) for _ in range(5 if in_setup else 0)]
    s.bird_discard = [next(birds) for _ in range(view["discard_count"])]
    s.bird_deck = [next(birds) for _ in range(view["deck_count"])]
    bonus_seen = {*s.bonus_cards[seat], *s.setup_bonus[seat], *s.bonus_offer}
    if view["game_over"]:
        for p in range(n):
            s.bonus_cards[p] = [k["bonus"] for k in players[p]["bonus_cards"]]
            bonus_seen.update(s.bonus_cards[p])
    bonus = iter(k for k in bonus_cards(s.options) if k not in bonus_seen)
    for p in range(n):
        if p != seat and not view["game_over"]:
            s.bonus_cards[p] = [next(bonus) for _ in range(players[p]["bonus_count"])]
    for p in range(n):
        if p != seat:
            s.setup_bonus[p] = [next(bonus) for _ in range(2 if in_setup else 0)]
    s.bonus_discard = [next(bonus) for _ in range(view["bonus_discard_count"])]
    s.bonus_deck = [next(bonus) for _ in range(view["bonus_deck_count"])]


__all__ = ["ENGINE", "SETTINGS", "NotRebuilt", "build"]

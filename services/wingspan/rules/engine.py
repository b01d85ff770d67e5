"""The Wingspan engine object: setup, legal, apply, score, view, encode."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from services.core.engine.contract import Action, IllegalAction, OptionError, ScoreBoard
from services.core.engine.rng import Rng

from . import hidden, storage
from .acts import KEEP_BONUS, keep_birds, keep_food, subsets
from .caches import KEPT
from .cards import (
    BONUS_CONDITION,
    BONUS_IDS,
    BONUS_NAME,
    COLOR,
    COLOR_ENUM,
    FACE_ENUM,
    FOOD_IDX,
    FOOD_NAMES,
    GOAL_COUNTS,
    GOAL_IDS,
    GOAL_NAME,
    HAB_ENUM,
    LANGUAGE_BONUS,
    LIMIT,
    N_BASE,
    NAME,
    NB,
    NBONUS,
    NEST,
    NEST_ENUM,
    POWERFUL,
    SUMMARY,
    TILE_GOALS,
    VP,
)
from .dispatch import APPLY, LEGAL, advance
from .scoring import CATEGORIES, bonus_count, bonus_points, scoreboard, seat_categories
from .state import (
    DECISION_NAMES,
    OVER,
    PLAY_PHASE,
    ROUND_CUBES,
    SETUP,
    State,
)
from .supply import refill_tray, roll_feeder
from .tasks import StartTurn

DEFAULT_OPTIONS: dict[str, Any] = {
    "goal_side": "green",
    "no_language_bonus_cards": False,
    "no_powerful_birds": False,
    "swift_start": False,
}
PHASE_ENUM = ("PHASE_SETUP", "PHASE_PLAY", "PHASE_GAME_OVER")
STAGE_ENUM = ("SETUP_STAGE_BIRDS", "SETUP_STAGE_FOOD", "SETUP_STAGE_BONUS", "SETUP_STAGE_DONE")


def parse_options(options: Mapping[str, Any]) -> dict[str, Any]:
    opts = dict(DEFAULT_OPTIONS)
    for key, value in options.items():
        if key not in DEFAULT_OPTIONS:
            raise OptionError(key, "unknown option")
        if key == "goal_side":
            if value not in ("green", "blue"):
                raise OptionError(key, "must be 'green' or 'blue'")
        elif not isinstance(value, bool):
            raise OptionError(key, "must be a boolean")
        opts[key] = value
    return opts


def deck_birds(opts: Mapping[str, Any]) -> list[int]:
    """The bird cards of the deck for these options."""
    birds = list(range(NB if opts["swift_start"] else N_BASE))
    if opts["no_powerful_birds"]:
        birds = [b for b in birds if b not in POWERFUL]
    return birds


def bonus_cards(opts: Mapping[str, Any]) -> list[int]:
    cards = list(range(NBONUS))
    if opts["no_language_bonus_cards"]:
        cards = [k for k in cards if k not in LANGUAGE_BONUS]
    return cards


class WingspanEngine:
    """Wingspan (base game), 2 to 5 players, every bird power."""

    name = "wingspan"
    min_players = 2
    max_players = 5

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        if not isinstance(players, int) or not 2 <= players <= 5:
            raise OptionError("players", "Wingspan is for 2 to 5 players")
        opts = parse_options(options or {})
        rng = Rng(seed)
        s = State()
        s.players = players
        s.options = opts
        s.rng = rng
        s.phase = SETUP
        s.round = 0
        s.decisions = 0
        deck = deck_birds(opts)
        rng.shuffle(deck)
        s.bird_deck = deck
        s.bird_discard = []
        bdeck = bonus_cards(opts)
        rng.shuffle(bdeck)
        s.bonus_deck = bdeck
        s.bonus_discard = []
        tiles = list(range(8))
        rng.shuffle(tiles)
        s.goals = [TILE_GOALS[t][rng.below(2)] for t in tiles[:4]]
        s.goal_points = [[], [], [], []]
        s.goal_counts = [[], [], [], []]
        roll_feeder(s)
        s.tray = []
        refill_tray(s)
        s.first_player = rng.below(players)
        s.turn = s.first_player
        s.cubes_left = [ROUND_CUBES[0]] * players
        s.hands = [[] for _ in range(players)]
        s.bonus_cards = [[] for _ in range(players)]
        s.food = [[0] * 5 for _ in range(players)]
        s.rows = [[[], [], []] for _ in range(players)]
        s.eggs = [0] * NB
        s.cached_food = [0] * NB
        s.tucked = [0] * NB
        s.pink_used = [0] * NB
        s.pink_birds = [[] for _ in range(players)]
        s.eggs_by_seat = [0] * players
        s.stack = []
        s.eot_discards = 0
        s.rodent_taken = 0
        s.last_egg_bird = -1
        s.draft = []
        s.bonus_offer = []
        s.setup_birds = [[s.bird_deck.pop() for _ in range(5)] for _ in range(players)]
        s.setup_bonus = [[s.bonus_deck.pop() for _ in range(2)] for _ in range(players)]
        s.setup_stage = [0] * players
        s.setup_kept = [[] for _ in range(players)]
        s.setup_food = [[] for _ in range(players)]
        return s

    def _setup_legal(self, s: State, seat: int) -> tuple[Action, ...]:
        """The seat's setup options, cached per (seat, stage) while in setup."""
        cache = s.legal_cache
        if not isinstance(cache, dict):
            cache = s.legal_cache = {}
        key = seat * 4 + s.setup_stage[seat]
        acts = cache.get(key) if KEPT["legal"] else None
        if acts is None:
            acts = cache[key] = tuple(self._setup_options(s, seat))
        return acts

    def _setup_options(self, s: State, seat: int) -> list[Action]:
        stage = s.setup_stage[seat]
        if stage == 0:
            return [keep_birds(sub) for sub in subsets(s.setup_birds[seat])]
        if stage == 1:
            k = len(s.setup_kept[seat])
            return [keep_food(c) for c in combinations(range(5), 5 - k)]
        if stage == 2:
            return [KEEP_BONUS[k] for k in s.setup_bonus[seat]]
        return []

    def _setup_apply(self, s: State, seat: int, action: Action) -> State:
        """Setup (summary: 各プレイヤーごとの準備), secret and simultaneous: keep
        any of the 5 dealt birds, then 5 minus that many food types, then one
        of the 2 bonus cards; revealed by :meth:`_start_game` once every seat
        is done."""
        if not 0 <= seat < s.players or s.setup_stage[seat] >= 3:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} has nothing to decide")
        key = action.key()
        acts = self._setup_legal(s, seat)
        if not any(a.key() == key for a in acts):
            raise IllegalAction("NOT_LEGAL", "not a legal setup choice")
        stage = s.setup_stage[seat]
        if stage == 0:
            s.setup_kept[seat] = list(action.arg("birds"))
        elif stage == 1:
            s.setup_food[seat] = sorted(FOOD_IDX[f] for f in action.arg("foods"))
        else:
            kept = action.arg("bonus")
            s.setup_bonus[seat] = [kept] + [k for k in s.setup_bonus[seat] if k != kept]
        # Every seat makes the same three decisions whatever it keeps: with 0
        # or 5 birds kept the food decision has a single option, but it is
        # still asked, so neither the views nor the event log of the other
        # seats show how many birds were kept: a secret simultaneous decision
        # leaves no trace before the reveal.
        s.setup_stage[seat] = stage + 1
        s.decisions += 1
        if all(st >= 3 for st in s.setup_stage):
            self._start_game(s)
        return s

    def _start_game(self, s: State) -> None:
        """Reveal the setup choices and start round 1."""
        for p in range(s.players):
            kept = s.setup_kept[p]
            s.hands[p] = list(kept)
            s.bird_discard.extend(b for b in s.setup_birds[p] if b not in kept)
            for f in s.setup_food[p]:
                s.food[p][f] += 1
            s.bonus_cards[p] = [s.setup_bonus[p][0]]
            s.bonus_discard.extend(s.setup_bonus[p][1:])
        s.setup_birds = [[] for _ in range(s.players)]
        s.setup_bonus = [[] for _ in range(s.players)]
        s.setup_kept = [[] for _ in range(s.players)]
        s.setup_food = [[] for _ in range(s.players)]
        s.phase = PLAY_PHASE
        s.legal_cache = None
        s.stack = [StartTurn(s.first_player)]
        advance(s)

    # ------------------------------------------------------------ the contract
    def to_act(self, s: State) -> list[int]:
        phase = s.phase
        if phase == PLAY_PHASE:
            return [s.stack[-1].seat]
        if phase == SETUP:
            return [p for p in range(s.players) if s.setup_stage[p] < 3]
        return []

    def legal(self, s: State, seat: int) -> list[Action]:
        phase = s.phase
        if phase == PLAY_PHASE:
            t = s.stack[-1]
            if t.seat != seat:
                return []
            lc = s.legal_cache
            if lc is not None and lc[0] == s.decisions and KEPT["legal"]:
                return list(lc[2])
            acts = tuple(LEGAL[t.code](s, t))
            s.legal_cache = (s.decisions, seat, acts)
            return list(acts)
        if phase == SETUP and 0 <= seat < s.players:
            return list(self._setup_legal(s, seat))
        return []

    def apply(self, s: State, seat: int, action: Action) -> State:
        phase = s.phase
        if phase != PLAY_PHASE:
            if phase == OVER:
                raise IllegalAction("WINGSPAN_OVER", "the game is over")
            return self._setup_apply(s, seat, action)
        t = s.stack[-1]
        if t.seat != seat:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {t.seat} is to act, not seat {seat}")
        lc = s.legal_cache
        fresh = lc is not None and lc[0] == s.decisions and KEPT["legal"]
        acts = lc[2] if fresh else LEGAL[t.code](s, t)
        for x in acts:
            if x is action:
                break
        else:
            key = action.key()
            for x in acts:
                if x.key() == key:
                    break
            else:
                raise IllegalAction("NOT_LEGAL", f"{action.kind} is not legal now")
        APPLY[t.code](s, t, x)
        s.decisions += 1
        advance(s)
        return s

    def is_over(self, s: State) -> bool:
        return s.phase == OVER

    def score(self, s: State) -> ScoreBoard:
        """The score sheet. Mid-game, bonus cards (secret) are left out; they
        count once the game is over."""
        final = s.phase == OVER
        board = scoreboard(s, final)
        if not final:
            for seat_score in board.seats:
                seat_score.total -= seat_score.categories["bonus_cards"]
                seat_score.categories["bonus_cards"] = 0
            board.rank_seats()
        board.extras["round"] = str(min(s.round + 1, 4))
        board.extras["goal_side"] = s.options["goal_side"]
        return board

    # ------------------------------------------------------------------- view
    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        me = seat if seat is not None and 0 <= seat < s.players else -1
        final = s.phase == OVER
        players = []
        for p in range(s.players):
            players.append(self._player_view(s, p, p == me, final))
        decision: dict[str, Any] = {
            "kind": "DECISION_KIND_UNSPECIFIED",
            "seat": -1,
            "bird": -1,
            "remaining": 0,
            "habitat": "HABITAT_UNSPECIFIED",
        }
        if s.phase == SETUP:
            decision["kind"] = "DECISION_KIND_SETUP"
        elif s.phase == PLAY_PHASE:
            t = s.stack[-1]
            decision["kind"] = DECISION_NAMES[t.code]
            decision["seat"] = t.seat
            decision["bird"] = t.shown_bird
            decision["remaining"] = t.shown_remaining
            if t.shown_habitat >= 0:
                decision["habitat"] = HAB_ENUM[t.shown_habitat]
        goals = []
        for r, g in enumerate(s.goals):
            goals.append(
                {
                    "round": r + 1,
                    "goal_id": GOAL_IDS[g],
                    "name": GOAL_NAME[g],
                    "counts": GOAL_COUNTS[g],
                    "scored": bool(s.goal_points[r]),
                    "count_by_seat": list(s.goal_counts[r]),
                    "points_by_seat": list(s.goal_points[r]),
                }
            )
        return {
            "phase": PHASE_ENUM[s.phase],
            "round": min(s.round + 1, 4),
            "turn_seat": s.turn,
            "first_player": s.first_player,
            "to_act": self.to_act(s),
            "viewer_seat": me,
            "decision": decision,
            "birdfeeder": [FACE_ENUM[f] for f in s.feeder],
            "dice_outside": 5 - len(s.feeder),
            "tray": [_card(b) for b in s.tray],
            "deck_count": len(s.bird_deck),
            "discard_count": len(s.bird_discard),
            "bonus_deck_count": len(s.bonus_deck),
            "bonus_discard_count": len(s.bonus_discard),
            "goal_side": "GOAL_SIDE_BLUE"
            if s.options["goal_side"] == "blue"
            else "GOAL_SIDE_GREEN",
            "goals": goals,
            "players": players,
            "draft": [_card(b) for b in s.draft],
            "options": {
                "goal_side": s.options["goal_side"],
                "no_language_bonus_cards": s.options["no_language_bonus_cards"],
                "no_powerful_birds": s.options["no_powerful_birds"],
                "swift_start": s.options["swift_start"],
            },
            "game_over": final,
        }

    def _player_view(self, s: State, p: int, mine: bool, final: bool) -> dict[str, Any]:
        cats = seat_categories(s, p)
        show_bonus = mine or final
        if not show_bonus:
            cats["bonus_cards"] = 0
        rows = s.rows[p]
        food = s.food[p]
        out: dict[str, Any] = {
            "seat": p,
            "food": {FOOD_NAMES[f]: food[f] for f in range(5)},
            "food_total": sum(food),
            "hand_count": len(s.hands[p]),
            "hand": [_card(b) for b in s.hands[p]] if mine else [],
            "bonus_count": len(s.bonus_cards[p]),
            "bonus_cards": [_bonus(s, p, k) for k in s.bonus_cards[p]] if show_bonus else [],
            "forest": [_slot(s, b) for b in rows[0]],
            "grassland": [_slot(s, b) for b in rows[1]],
            "wetland": [_slot(s, b) for b in rows[2]],
            "cubes_left": s.cubes_left[p] if s.phase == PLAY_PHASE else 0,
            "score": sum(cats.values()),
            "score_breakdown": [{"name": k, "points": cats[k]} for k in CATEGORIES],
            "setup_done": s.phase != SETUP or s.setup_stage[p] >= 3,
            "setup_stage": STAGE_ENUM[s.setup_stage[p] if s.phase == SETUP else 3],
            "setup_birds": [_card(b) for b in s.setup_birds[p]] if mine else [],
            "setup_bonus_cards": [_bonus(s, p, k) for k in s.setup_bonus[p]] if mine else [],
            "bonus_offer": [],
            "end_of_turn_discards": s.eot_discards if s.phase == PLAY_PHASE and s.turn == p else 0,
        }
        if mine and s.bonus_offer and s.phase == PLAY_PHASE and s.stack[-1].seat == p:
            out["bonus_offer"] = [_bonus(s, p, k) for k in s.bonus_offer]
        return out

    # ------------------------------------------------------ hidden information
    def determinize(self, s: State, seat: int | None, rng: Rng) -> State:
        """A copy of ``s`` with everything ``seat`` cannot see redrawn from what
        remains possible (the engine contract; ``hidden.determinize`` says what
        is hidden and how it is drawn). Used by score previews and bots."""
        return hidden.determinize(s, seat, rng, deck_birds(s.options), bonus_cards(s.options))

    # ---------------------------------------------------------------- storage
    def encode(self, s: State) -> bytes:
        return storage.encode(s)

    def decode(self, data: bytes) -> State:
        return storage.decode(data)

    def clone(self, s: State) -> State:
        return storage.clone(s)


def _card(b: int) -> dict[str, Any]:
    return {"bird": b, "name": NAME[b]}


def _slot(s: State, b: int) -> dict[str, Any]:
    return {
        "bird": b,
        "name": NAME[b],
        "points": VP[b],
        "nest": NEST_ENUM[NEST[b]],
        "eggs": s.eggs[b],
        "egg_limit": LIMIT[b],
        "cached_food": s.cached_food[b],
        "tucked_cards": s.tucked[b],
        "power_color": COLOR_ENUM[COLOR[b]],
        "power": SUMMARY[b],
        "pink_used": bool(s.pink_used[b]),
    }


def _bonus(s: State, p: int, k: int) -> dict[str, Any]:
    count = bonus_count(s, p, k)
    return {
        "bonus": k,
        "bonus_id": BONUS_IDS[k],
        "name": BONUS_NAME[k],
        "condition": BONUS_CONDITION[k],
        "count": count,
        "points": bonus_points(k, count),
    }


ENGINE = WingspanEngine()

__all__ = ["ENGINE", "WingspanEngine"]

"""The Birdscaping game state: phases, pending steps, and what each observer knows.

``State`` holds every card's place (cards are ints, see ``cards.py``), the
decision pending and the seeded generator; the engine (``engine.py``) changes
it, ``hidden.py`` reads what an observer cannot see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.birdscaping.rules.cards import N_CARDS
from services.core.engine import Rng

# Phases
DRAFT, GIVE, PLAY, OVER = "draft", "give", "play", "over"
# Steps (the pending decision)
S_DRAFT = "draft"  # initial draft: keep one card of the packet (simultaneous)
S_GIVE = "give"  # solo setup: give one of 4 cards to the AI
S_CHOOSE = "choose"  # choose the next action of the turn
S_PAY = "pay"  # Play a Card: pay the cost, one source at a time
S_ORDER = "order"  # order the cards discarded during the action
S_DSPEND = "dspend"  # Draft Cards: spend more tilted Pond cards, or stop
S_DTAKE = "dtake"  # Draft Cards: take a card (offer / discard top / deck) or stop
S_KEEP = "keep"  # Woodpecker-like look_keep
S_TILT = "tilt"  # Great Tit-like tilt_other
S_KOFFER = "koffer"  # Kingfisher-like draft_offer
S_ADISCARD = "adiscard"  # Dunnock-like draw_then_discard
S_OUNTILT = "ountilt"  # Sparrowhawk: the opponent untilts one of their cards
S_LIMIT = "limit"  # end of turn: discard down to the hand limit
S_NONE = ""

STEP_ENUM = {
    S_DRAFT: "STEP_INITIAL_DRAFT_KEEP",
    S_GIVE: "STEP_SOLO_GIVE",
    S_CHOOSE: "STEP_CHOOSE_ACTION",
    S_PAY: "STEP_PAY",
    S_ORDER: "STEP_ORDER_DISCARDS",
    S_DSPEND: "STEP_DRAFT_SPEND",
    S_DTAKE: "STEP_DRAFT_TAKE",
    S_KEEP: "STEP_ABILITY_KEEP",
    S_TILT: "STEP_ABILITY_TILT",
    S_KOFFER: "STEP_ABILITY_TAKE_OFFER",
    S_ADISCARD: "STEP_ABILITY_DISCARD",
    S_OUNTILT: "STEP_OPPONENT_UNTILT",
    S_LIMIT: "STEP_HAND_LIMIT",
    S_NONE: "STEP_NONE",
}
PHASE_ENUM = {
    DRAFT: "PHASE_INITIAL_DRAFT",
    GIVE: "PHASE_SOLO_SETUP",
    PLAY: "PHASE_PLAY",
    OVER: "PHASE_OVER",
}
DIFFICULTIES = ("easy", "normal", "hard")
OPTION_DEFAULTS: dict[str, Any] = {"difficulty": "normal"}


class State:
    """The whole game state (secrets included). Plain lists and ints only.

    Cards are ints (see ``cards.py``); every card is in exactly one place, so
    tilt is one flag per card. ``deck[-1]`` and ``discard[-1]`` are the tops;
    ``offer[0]`` is the oldest (right-most) offer card.
    """

    __slots__ = (
        "ab_card",
        "ab_left",
        "act_row",
        "actions_left",
        "ai",
        "announcements",
        "deck",
        "difficulty",
        "discard",
        "draft_left",
        "end_after",
        "end_triggered",
        "ended_early",
        "first",
        "hands",
        "look",
        "offer",
        "packets",
        "pay",
        "pend",
        "phase",
        "pick_no",
        "picked",
        "players",
        "queue",
        "rng",
        "round",
        "rows",
        "set_aside",
        "step",
        "tilt",
        "turn",
        "unseen",
    )

    def __init__(self, players: int, difficulty: str, seed: int) -> None:
        self.players = players
        self.difficulty = difficulty
        self.rng = Rng(seed)
        self.phase = DRAFT
        self.step = S_NONE
        self.round = 1
        self.first = 0
        self.turn = -1
        self.actions_left = 0
        self.deck: list[int] = []
        self.offer: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.rows: list[list[list[int]]] = [[[], [], []] for _ in range(players)]
        self.tilt = [0] * N_CARDS
        self.ai: list[int] = []
        self.packets: list[list[int]] = [[] for _ in range(players)]
        self.picked = [0] * players
        self.pick_no = 0
        #: [card, row, nest_need, nest_paid, seed, insect, fruit, food_discount] or None
        self.pay: list[int] | None = None
        self.pend: list[int] = []
        self.draft_left = 0
        self.set_aside = -1
        self.look: list[int] = []
        self.queue: list[int] = []
        self.act_row = -1
        self.ab_card = -1
        self.ab_left = 0
        self.end_triggered = False
        self.end_after = -1
        self.ended_early = False
        #: [seat, card, row, round] per announced Scoring bird
        self.announcements: list[list[int]] = []
        #: What each observer (the seats, then a spectator) knows of where each
        #: card is: ``unseen[observer][card]`` is 0 when the observer knows the
        #: place of the card, else the pool of cards it cannot be told apart
        #: from (see ``hidden.py``). Only read for cards in places the observer
        #: cannot see; every card starts in the round-1 deck's pool.
        self.unseen: list[list[int]] = fresh_unseen(players)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values."""
        out: dict[str, Any] = {}
        for name in State.__slots__:
            value = getattr(self, name)
            out[name] = value.state if name == "rng" else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Inverse of :meth:`to_dict`. A state stored before ``unseen`` existed
        reads as if no observer knew more than the round-1 deck's pool."""
        state = cls.__new__(cls)
        for name in State.__slots__:
            if name == "unseen" and name not in data:
                state.unseen = fresh_unseen(data["players"])
                continue
            value = data[name]
            setattr(state, name, Rng(value) if name == "rng" else value)
        return state

    def copy(self) -> State:
        """An independent copy (no list is shared with this state)."""
        state = State.__new__(State)
        for name in State.__slots__:
            value = getattr(self, name)
            if name == "rng":
                value = Rng(value.state)
            elif isinstance(value, list):
                value = _deep_copy(value)
            setattr(state, name, value)
        return state


def _deep_copy(values: list[Any]) -> list[Any]:
    return [_deep_copy(v) if isinstance(v, list) else v for v in values]


def fresh_unseen(players: int) -> list[list[int]]:
    """Every observer (the seats and a spectator) sees every card in the pool
    of the round-1 deck (the game starts with the whole deck face down)."""
    return [[deck_pool(1)] * N_CARDS for _ in range(players + 1)]


def deck_pool(round_no: int) -> int:
    """The pool of the cards shuffled into the deck of round ``round_no``."""
    return round_no


def draft_pool(pick: int, seat: int) -> int:
    """The pool of a draft packet ``seat`` keeps a card of at pick ``pick``,
    for the seat that passed it (and so knows its cards, not which is kept)."""
    return 100 + 10 * pick + seat


def reveal(s: State, card: int) -> None:
    """Every observer saw ``card`` go where it is now (from the offer or the top
    of the discard pile into a hand)."""
    for known in s.unseen:
        known[card] = 0

"""Rounds and turn flow (sections How to Play, Round End, Game End).

Who acts, the end of an action and of a turn (two actions, then the hand
limit), the bird offer refilled, a new round when the deck runs out, the end
of the game. Every action's handler ends with :func:`end_action`.
"""

from __future__ import annotations

from services.birdscaping.rules import actions as A
from services.birdscaping.rules.actions import card_arg
from services.birdscaping.rules.cards import (
    ACTIONS_PER_TURN,
    MIN_CARDS_NEW_ROUND,
    OFFER_SIZE,
    ROUNDS,
)
from services.birdscaping.rules.solo import ai_discards_oldest_offer_card, ai_round_gift
from services.birdscaping.rules.state import (
    DRAFT,
    GIVE,
    OVER,
    PLAY,
    S_CHOOSE,
    S_LIMIT,
    S_NONE,
    S_OUNTILT,
    State,
    deck_pool,
)
from services.birdscaping.rules.tableau import hand_limit
from services.core.engine import Action


def to_act(s: State) -> list[int]:
    """Seats that must decide now: both seats in The Initial Draft (simultaneous),
    the player in Solo Mode setup, else the seat whose turn it is (How to Play;
    the opponent when a Sparrowhawk asks it to untilt)."""
    phase = s.phase
    if phase == PLAY:
        if s.step == S_OUNTILT:
            return [1 - s.turn]
        return [s.turn]
    if phase == DRAFT:
        return [seat for seat in range(2) if not s.picked[seat]]
    if phase == GIVE:
        return [0]
    return []


def replenish(s: State) -> None:
    """Keep two face-up birds in the offer while the deck lasts (section
    3) Discarding Cards and Replenishing the Bird Offer)."""
    while len(s.offer) < OFFER_SIZE and s.deck:
        s.offer.append(s.deck.pop())


def check_deck(s: State) -> None:
    """Round End / Game End when the deck has just run out (AMB 7, 8, 9): a new
    round, or in round 4 the end trigger (the other seat's last turn if the first
    player took the last card)."""
    if s.deck or s.end_triggered or s.phase != PLAY:
        return
    if s.round >= ROUNDS:
        s.end_triggered = True
        if s.players == 1 or s.turn != s.first:
            s.end_after = 0 if s.players == 1 else s.turn
        else:
            s.end_after = 1 - s.turn
        return
    new_round(s)


def new_round(s: State) -> None:
    """Round End: shuffle the discard pile and the offer into a new deck and deal
    a new offer; solo, the AI takes its cards first (Solo Mode, AMB 15); with
    fewer than 3 cards the game ends at once (Game End, AMB 9)."""
    pool = s.discard + s.offer
    s.discard = []
    s.offer = []
    s.rng.shuffle(pool)
    s.deck = pool
    s.round += 1
    shuffled_in = deck_pool(s.round)
    for known in s.unseen:  # everyone saw these cards; now nobody knows their order
        for c in pool:
            known[c] = shuffled_in
    if s.players == 1:
        for _ in range(min(ai_round_gift(s), len(pool))):
            s.ai.append(pool.pop())
    if len(s.deck) < MIN_CARDS_NEW_ROUND:
        s.ended_early = True  # too few cards to set up the round: the game ends now
        game_over(s)
        return
    replenish(s)


def start_play(s: State, seat: int) -> None:
    """Setup is complete: ``seat`` takes the first turn, two actions (How to Play)."""
    s.phase = PLAY
    s.turn = seat
    s.actions_left = ACTIONS_PER_TURN
    s.step = S_CHOOSE


def end_action(s: State) -> None:
    """An action is over: refill the offer, a new round if the deck ran out (AMB 7),
    then the turn's next action or its end (How to Play: two actions per turn;
    the hand limit is checked at the end of the turn, AMB 12)."""
    replenish(s)
    check_deck(s)
    if s.phase == OVER:
        return
    s.actions_left -= 1
    if s.actions_left > 0:
        s.step = S_CHOOSE
        return
    if len(s.hands[s.turn]) > hand_limit(s, s.turn):
        s.step = S_LIMIT
        return
    end_turn(s)


def end_turn(s: State) -> None:
    """The turn passes (How to Play: players alternate; solo, the AI's turn comes
    in between) unless this seat's turn was the last (Game End)."""
    seat = s.turn
    if s.end_after == seat:
        game_over(s)
        return
    if s.players == 1:
        ai_turn(s)
        if s.phase == OVER:
            return
        s.turn = 0
    else:
        s.turn = 1 - seat
    s.actions_left = ACTIONS_PER_TURN
    s.step = S_CHOOSE


def ai_turn(s: State) -> None:
    """Solo Mode: the AI discards the oldest offer card; the offer refills, and
    the deck running out ends the round as usual."""
    ai_discards_oldest_offer_card(s)
    replenish(s)
    check_deck(s)


def game_over(s: State) -> None:
    """Game End: no more decisions."""
    s.phase = OVER
    s.step = S_NONE
    s.actions_left = 0
    s.queue = []
    s.act_row = -1


def legal_hand_limit(s: State, seat: int) -> list[Action]:
    """End of turn over the hand limit: discard any hand card (AMB 12)."""
    return [A.HAND_LIMIT_DISCARD[c] for c in s.hands[seat]]


def hand_limit_discard(s: State, seat: int, action: Action) -> None:
    """Discard one card; the turn ends once the hand is within the limit
    (section 3) Draft Cards, end-of-turn hand limit; AMB 12)."""
    c = card_arg(action)
    s.hands[seat].remove(c)
    s.discard.append(c)
    if len(s.hands[seat]) <= hand_limit(s, seat):
        end_turn(s)

"""Setup (sections Setup / The Initial Draft, Solo Mode): a new game, the
Initial Draft's picks and the solo player's gift to the AI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.birdscaping.rules import actions as A
from services.birdscaping.rules.actions import card_arg
from services.birdscaping.rules.cards import DEAL_EACH, N_CARDS, SOLO_KEEP
from services.birdscaping.rules.flow import replenish, start_play
from services.birdscaping.rules.state import (
    DIFFICULTIES,
    DRAFT,
    GIVE,
    OPTION_DEFAULTS,
    S_DRAFT,
    S_GIVE,
    State,
    draft_pool,
)
from services.core.engine import Action, OptionError


def new_game(players: int, options: Mapping[str, Any], seed: int) -> State:
    """A new game (Setup / The Initial Draft; Solo Mode).

    Options: ``difficulty`` ("easy" | "normal" | "hard", default "normal";
    solo only, a 2-player game accepts only "normal").
    """
    if not isinstance(players, int) or isinstance(players, bool):
        raise OptionError("players", "must be an integer")
    if players not in (1, 2):
        raise OptionError("players", "Birdscaping is for 1 (solo) or 2 players")
    options = dict(options or {})
    for name in options:
        if name not in OPTION_DEFAULTS:
            raise OptionError(name, "unknown option")
    difficulty = options.get("difficulty", "normal")
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise OptionError("difficulty", "must be one of easy, normal, hard")
    if players == 2 and difficulty != "normal":
        raise OptionError("difficulty", "difficulty applies to the solo game only")
    s = State(players, difficulty, seed)
    deck = list(range(N_CARDS))
    s.rng.shuffle(deck)
    s.deck = deck
    if players == 2:
        # The Initial Draft: deal 4 each, keep 1 and pass, three times.
        s.first = s.rng.below(2)  # AMB 13: "best bird story" -> random
        s.packets = [[deck.pop() for _ in range(DEAL_EACH)] for _ in range(2)]
        s.phase = DRAFT
        s.step = S_DRAFT
        s.pick_no = 1
    else:
        # Solo Mode: draw the top 4, keep 3, give 1 to the AI; the player starts.
        s.first = 0
        s.hands[0] = [deck.pop() for _ in range(SOLO_KEEP + 1)]
        s.phase = GIVE
        s.step = S_GIVE
    return s


def legal_draft_keep(s: State, seat: int) -> list[Action]:
    """The Initial Draft, steps 2-4: keep any card of the packet in hand."""
    keep = A.DRAFT_KEEP[seat]
    return [keep[c] for c in s.packets[seat]]


def draft_keep(s: State, seat: int, action: Action) -> None:
    """The Initial Draft, steps 2-5: keep one card, pass the rest; the two cards
    left unchosen start the offer and the rest is shuffled as the deck.

    The choice is secret until the packets are passed on (see ``hidden.py``).
    """
    c = card_arg(action)
    packet = s.packets[seat]
    pool = draft_pool(s.pick_no, seat)
    for observer, known in enumerate(s.unseen):
        # The seat that passed this packet knows its cards, not which one is kept
        # (secret until the packets are passed on): the whole packet becomes one pool.
        if observer != seat and any(known[x] == 0 for x in packet):
            for x in packet:
                known[x] = pool
    packet.remove(c)
    s.hands[seat].append(c)
    s.picked[seat] = 1
    if not all(s.picked):
        return
    s.picked = [0, 0]
    if len(s.packets[0]) <= 1:
        # The two unchosen cards start the bird offer; shuffle the rest as the deck.
        s.offer = [s.packets[0].pop(), s.packets[1].pop()] if s.packets[0] else []
        s.rng.shuffle(s.deck)
        replenish(s)
        start_play(s, s.first)
        s.pick_no = 0
        return
    for seat_passing, passed in enumerate(s.packets):
        for x in passed:
            s.unseen[seat_passing][x] = 0  # the passer knows the packet it passes
    s.packets = [s.packets[1], s.packets[0]]  # pass to the other player
    s.pick_no += 1


def legal_solo_give(s: State, seat: int) -> list[Action]:
    """Solo Mode setup: give any of the 4 cards drawn to the AI."""
    return [A.SOLO_GIVE[c] for c in s.hands[0]]


def solo_give(s: State, seat: int, action: Action) -> None:
    """Solo Mode setup: the card given starts the AI column, the player keeps 3;
    Hard Mode: the AI also keeps the top card of the deck."""
    c = card_arg(action)
    s.hands[0].remove(c)
    s.ai.append(c)
    replenish(s)
    if s.difficulty == "hard":
        s.ai.append(s.deck.pop())  # Hard Mode: the AI keeps the top card at round 1 start
    start_play(s, 0)

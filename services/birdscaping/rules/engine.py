"""The Birdscaping rules engine (2 players, or solo against the AI column).

Section names in comments refer to the rulebook (``/work/shared/seeds``);
``AMB n`` to the numbered resolutions in ``data/AMBIGUITIES.md``.

A turn is two actions; each action is a chain of atomic decisions kept in the
state as ``step`` (plus its data): choose an action, pay a card's cost one
source at a time, order the discards, spend Pond cards, take drafted cards,
resolve a When Activated ability, discard down to the hand limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.birdscaping.rules import actions as A
from services.birdscaping.rules import hidden
from services.birdscaping.rules.cards import (
    ABILITY_TEXT,
    ACTIONS_PER_TURN,
    AFFECTS_OPPONENT,
    ALLOWED,
    BONUS_CURIOUS,
    BONUS_NEST,
    COST_TERMS,
    CURIOUS,
    DEAL_EACH,
    EFFECT,
    FOOD,
    FOOD_DISCOUNT,
    FOOD_N,
    FOODS,
    GARDEN,
    HAND_DELTA,
    HAND_LIMIT,
    ID,
    KEY,
    MAX_ROW,
    MIN_CARDS_NEW_ROUND,
    N_CARDS,
    N_ICONS,
    NAME,
    NEST,
    NO_SPEND,
    OFFER_SIZE,
    OP,
    POINTS,
    POND,
    ROUNDS,
    ROW_ENUM,
    ROW_FROM_ENUM,
    ROW_NAMES,
    ROWS,
    SCORING,
    SCORING_ROWS,
    SELF_NEST_COST,
    SOLO_GIFTS,
    SOLO_KEEP,
    TREES,
    WA_OP,
    cost_text,
    food_short,
    food_text,
)
from services.birdscaping.rules.state import (
    DIFFICULTIES,
    DRAFT,
    GIVE,
    OPTION_DEFAULTS,
    OVER,
    PHASE_ENUM,
    PLAY,
    S_ADISCARD,
    S_CHOOSE,
    S_DRAFT,
    S_DSPEND,
    S_DTAKE,
    S_GIVE,
    S_KEEP,
    S_KOFFER,
    S_LIMIT,
    S_NONE,
    S_ORDER,
    S_OUNTILT,
    S_PAY,
    S_TILT,
    STEP_ENUM,
    State,
    deck_pool,
    draft_pool,
    reveal,
)
from services.core.engine import (
    Action,
    IllegalAction,
    OptionError,
    Rng,
    ScoreBoard,
    SeatScore,
    SoloResult,
    jsonstate,
)

# --------------------------------------------------------------------------- helpers


def _in_tableau(rows: list[list[int]], card: int) -> bool:
    return card in rows[0] or card in rows[1] or card in rows[2]


def _row_of(rows: list[list[int]], card: int) -> int:
    for r in range(3):
        if card in rows[r]:
            return r
    return -1


def nest_yield(s: State, seat: int, card: int) -> int:
    """Nesting areas a card gives (discarded for nesting or spent from Trees)."""
    y = NEST[card]
    bonus = BONUS_NEST.get(card)
    if bonus is not None and _in_tableau(s.rows[seat], bonus[1]):
        y += bonus[0]
    return y


def curious_yield(s: State, seat: int, card: int) -> int:
    """Curious birds a tilted Pond card gives when spent (Mallard bonus included)."""
    y = CURIOUS[card]
    bonus = BONUS_CURIOUS.get(card)
    if bonus is not None and len(s.rows[seat][bonus[1]]) >= bonus[2]:
        y += bonus[0]
    return y


def hand_limit(s: State, seat: int) -> int:
    """End-of-turn hand limit: 3 + Ongoing deltas, at least 1 (AMB 12)."""
    limit = HAND_LIMIT
    rows = s.rows[seat]
    for card, delta in HAND_DELTA.items():
        if _in_tableau(rows, card):
            limit += delta
    return max(1, limit)


def play_terms(s: State, seat: int, card: int, row: int) -> tuple[int, int]:
    """(nesting cost, food icons waived) of playing ``card`` into ``row``."""
    nest = SELF_NEST_COST.get(card, len(s.rows[seat][row]) + 1)
    discount = 0
    for source, (drow, icons, exclude_self) in FOOD_DISCOUNT.items():
        if (
            drow == row
            and not (exclude_self and source == card)
            and _in_tableau(s.rows[seat], source)
        ):
            discount += icons
    return nest, discount


def _spendable(s: State, card: int) -> bool:
    return s.tilt[card] == 1 and card not in NO_SPEND


def feasible(
    s: State,
    seat: int,
    card: int,
    discount: int,
    nest_rem: int,
    fs: int,
    fi: int,
    ff: int,
    skip: int = -1,
) -> bool:
    """Can the remaining cost still be paid from the hand and tilted cards?

    ``skip`` is a source already used by the step being tested. All tilted
    Trees and Garden cards are assumed spent; each hand card is either
    discarded for nesting or for food (2^h splits, h = hand size).
    """
    rows = s.rows[seat]
    tilt = s.tilt
    if nest_rem > 0:
        for c in rows[TREES]:
            if tilt[c] and c != skip and c not in NO_SPEND:
                nest_rem -= nest_yield(s, seat, c)
    for c in rows[GARDEN]:
        if tilt[c] and c != skip and c not in NO_SPEND:
            a, b, d = FOOD[c]
            fs += a
            fi += b
            ff += d
    terms = COST_TERMS[card]
    nesters: list[tuple[int, int, int, int]] = []
    for c in s.hands[seat]:
        if c == skip:
            continue
        a, b, d = FOOD[c]
        fs += a
        fi += b
        ff += d
        if nest_rem > 0:
            y = nest_yield(s, seat, c)
            if y > 0:
                nesters.append((y, a, b, d))
    if nest_rem <= 0:
        return food_short(terms, fs, fi, ff) <= discount
    if sum(n[0] for n in nesters) < nest_rem:
        return False
    count = len(nesters)
    for mask in range(1, 1 << count):
        nest = 0
        s2, i2, f2 = fs, fi, ff
        for j in range(count):
            if mask >> j & 1:
                y, a, b, d = nesters[j]
                nest += y
                s2 -= a
                i2 -= b
                f2 -= d
        if nest >= nest_rem and food_short(terms, s2, i2, f2) <= discount:
            return True
    return False


def can_play(s: State, seat: int, card: int, row: int) -> bool:
    """Is Play a Card with ``card`` into ``row`` possible now (cost payable)?"""
    if len(s.rows[seat][row]) >= MAX_ROW:
        return False
    nest, discount = play_terms(s, seat, card, row)
    return feasible(s, seat, card, discount, nest, 0, 0, 0, skip=card)


# --------------------------------------------------------------------------- scoring


def score_parts(s: State, seat: int) -> tuple[int, int]:
    """(printed card points, Scoring-ability points) of a seat's tableau."""
    rows = s.rows[seat]
    cards = 0
    ability = 0
    for r in range(3):
        for c in rows[r]:
            cards += POINTS[c]
            if SCORING[c] and s.players == 2:
                ability += ability_points(s, seat, c, r)
    return cards, ability


def ability_points(s: State, seat: int, card: int, row: int) -> int:
    """Points of one Scoring ability (section Bird Abilities / Scoring)."""
    rows = s.rows[seat]
    effect = EFFECT[card]
    op = OP[card]
    if op == "score_per_card_in_row":
        need = effect.get("requires_self_in")
        if need and ROWS.index(need) != row:
            return 0
        return int(effect["per"]) * len(rows[ROWS.index(effect["row"])])
    if op == "score_if_untilted":
        return 0 if s.tilt[card] else int(effect["points"])
    if op == "score_if_all_rows_nonempty":
        return int(effect["points"]) if rows[0] and rows[1] and rows[2] else 0
    if op == "score_per_card_in_row_with_food":
        food = FOODS.index(effect["food"])
        count = 0
        for c in rows[ROWS.index(effect["row"])]:
            if c == card and effect.get("exclude_self"):
                continue
            if FOOD[c][food]:
                count += 1
        return int(effect["per"]) * count
    if op == "score_if_row_full":
        full = len(rows[ROWS.index(effect["row"])]) >= MAX_ROW
        return int(effect["points"]) if full else int(effect["else"])
    raise AssertionError(op)  # pragma: no cover - checked at import


def ai_points(s: State) -> int:
    """The solo AI column scores printed points only (AMB 16)."""
    return sum(POINTS[c] for c in s.ai)


def solo_result(s: State, player_points: int) -> SoloResult:
    """Solo Mode / AMB 16: "If you scored more points than the AI, you win": the
    player wins only with strictly more points than the AI column (a tie loses)."""
    ai = ai_points(s)
    return SoloResult(won=player_points > ai, opponent_score=ai)


# --------------------------------------------------------------------------- engine


class BirdscapingEngine:
    """Birdscaping: 1 (solo vs the AI column) or 2 players."""

    name = "birdscaping"
    min_players = 1
    max_players = 2

    # ------------------------------------------------------------------ setup
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
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

    # ------------------------------------------------------------------ queries
    def to_act(self, s: State) -> list[int]:
        """Seats that must decide now."""
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

    def is_over(self, s: State) -> bool:
        """True once the game has ended."""
        return s.phase == OVER

    def legal(self, s: State, seat: int) -> list[Action]:
        """Every legal decision of ``seat`` now (empty if it is not asked)."""
        phase = s.phase
        if phase == PLAY:
            step = s.step
            if step == S_OUNTILT:
                if seat != 1 - s.turn:
                    return []
                return [A.OPPONENT_UNTILT[c] for row in s.rows[seat] for c in row if s.tilt[c]]
            if seat != s.turn:
                return []
            if step == S_CHOOSE:
                return self._legal_choose(s, seat)
            if step == S_PAY:
                return self._legal_pay(s, seat)
            if step == S_DTAKE:
                out = [A.DRAFT_OFFER[c] for c in s.offer]
                if s.discard:
                    out.append(A.DRAFT_DISCARD_TOP[s.discard[-1]])
                if s.deck:
                    out.append(A.DRAFT_DECK)
                out.append(A.DRAFT_STOP)
                return out
            if step == S_DSPEND:
                out = []
                for c in s.rows[seat][POND]:
                    if _spendable(s, c):
                        y = curious_yield(s, seat, c)
                        if y > 0:
                            out.append(A.DRAFT_SPEND[c][y])
                out.append(A.DRAFT_SPEND_DONE)
                return out
            if step == S_ORDER:
                return [A.ORDER[c] for c in s.pend]
            if step == S_LIMIT:
                return [A.HAND_LIMIT_DISCARD[c] for c in s.hands[seat]]
            if step == S_KEEP:
                return [A.ABILITY_KEEP[seat][c] for c in s.look]
            if step == S_TILT:
                return [A.ABILITY_TILT[c] for c in self._tilt_targets(s, seat)]
            if step == S_KOFFER:
                return [A.ABILITY_TAKE_OFFER[c] for c in s.offer]
            if step == S_ADISCARD:
                return [A.ABILITY_DISCARD[c] for c in s.hands[seat]]
            raise AssertionError(step)  # pragma: no cover
        if phase == DRAFT:
            if seat not in (0, 1) or s.picked[seat]:
                return []
            keep = A.DRAFT_KEEP[seat]
            return [keep[c] for c in s.packets[seat]]
        if phase == GIVE:
            if seat != 0:
                return []
            return [A.SOLO_GIVE[c] for c in s.hands[0]]
        return []

    def _legal_choose(self, s: State, seat: int) -> list[Action]:
        """The five actions (section Actions); the forced draw is Draw a Card."""
        out: list[Action] = []
        rows = s.rows[seat]
        tilt = s.tilt
        hand = s.hands[seat]
        for r in range(3):
            if rows[r]:
                out.append(A.ACTIVATE[r])
        play = A.PLAY[1 if s.players == 1 else 0]
        for c in hand:
            for r in ALLOWED[c]:
                if len(rows[r]) < MAX_ROW and can_play(s, seat, c, r):
                    out.append(play[c][r][len(rows[r])])
        for c in hand:
            if CURIOUS[c] > 0:
                out.append(A.DRAFT_DISCARD[c])
        for c in rows[POND]:
            if tilt[c] and c not in NO_SPEND:
                y = curious_yield(s, seat, c)
                if y > 0:
                    out.append(A.DRAFT_SPEND[c][y])
        for r in range(3):
            for c in rows[r]:
                if tilt[c]:
                    out.append(A.UNTILT[c])
        if s.deck:
            out.append(A.DRAW)
        if not out:
            out.append(A.FORFEIT)  # AMB 10: nothing possible and no deck -> action lost
        return out

    def _legal_pay(self, s: State, seat: int) -> list[Action]:
        """Payment sources that contribute and keep the rest payable (AMB 3, 4)."""
        card, _row, need, have, fs, fi, ff, discount = s.pay  # type: ignore[misc]
        nest_rem = need - have
        terms = COST_TERMS[card]
        short = food_short(terms, fs, fi, ff)
        food_open = short > discount
        out: list[Action] = []
        for c in s.hands[seat]:
            if nest_rem > 0:
                y = nest_yield(s, seat, c)
                if y > 0 and feasible(s, seat, card, discount, nest_rem - y, fs, fi, ff, c):
                    out.append(A.PAY_NEST[c][y])
            if food_open and FOOD_N[c]:
                a, b, d = FOOD[c]
                if food_short(terms, fs + a, fi + b, ff + d) < short and feasible(
                    s, seat, card, discount, nest_rem, fs + a, fi + b, ff + d, c
                ):
                    out.append(A.PAY_FOOD[c])
        rows = s.rows[seat]
        if nest_rem > 0:
            for c in rows[TREES]:
                if _spendable(s, c):
                    y = nest_yield(s, seat, c)
                    if y > 0 and feasible(s, seat, card, discount, nest_rem - y, fs, fi, ff, c):
                        out.append(A.SPEND_NEST[c][y])
        if food_open:
            for c in rows[GARDEN]:
                if _spendable(s, c) and FOOD_N[c]:
                    a, b, d = FOOD[c]
                    if food_short(terms, fs + a, fi + b, ff + d) < short and feasible(
                        s, seat, card, discount, nest_rem, fs + a, fi + b, ff + d, c
                    ):
                        out.append(A.SPEND_FOOD[c])
        return out

    def _tilt_targets(self, s: State, seat: int) -> list[int]:
        """Upright cards in rows other than the ability card's row."""
        rows = s.rows[seat]
        own = _row_of(rows, s.ab_card)
        return [c for r in range(3) if r != own for c in rows[r] if not s.tilt[c]]

    # ------------------------------------------------------------------ apply
    def apply(self, s: State, seat: int, action: Action) -> State:
        """Validate against the legal list, then mutate ``s`` in place."""
        if s.phase == OVER:
            raise IllegalAction("GAME_OVER", "the game is over")
        if seat not in self.to_act(s):
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} is not asked to act")
        key = action.key()
        for candidate in self.legal(s, seat):
            if candidate.key() == key:
                break
        else:
            raise IllegalAction("NOT_LEGAL", f"{action.kind} {dict(action.args)} is not legal now")
        handler = getattr(self, "_do_" + action.kind)
        handler(s, seat, action)
        return s

    # setup decisions
    def _do_draft_keep(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
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
            self._replenish(s)
            s.phase = PLAY
            s.turn = s.first
            s.actions_left = ACTIONS_PER_TURN
            s.step = S_CHOOSE
            s.pick_no = 0
            return
        for seat_passing, passed in enumerate(s.packets):
            for x in passed:
                s.unseen[seat_passing][x] = 0  # the passer knows the packet it passes
        s.packets = [s.packets[1], s.packets[0]]  # pass to the other player
        s.pick_no += 1

    def _do_solo_give(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.hands[0].remove(c)
        s.ai.append(c)
        self._replenish(s)
        if s.difficulty == "hard":
            s.ai.append(s.deck.pop())  # Hard Mode: the AI keeps the top card at round 1 start
        s.phase = PLAY
        s.turn = 0
        s.actions_left = ACTIONS_PER_TURN
        s.step = S_CHOOSE

    # 1) Activate a Feature Row
    def _do_activate_row(self, s: State, seat: int, action: Action) -> None:
        r = ROW_FROM_ENUM[action.args[0][1]]
        s.act_row = r
        s.queue = list(s.rows[seat][r])  # popped from the end: right-most first
        self._run_activation(s)

    def _run_activation(self, s: State) -> None:
        seat = s.turn
        while s.queue:
            c = s.queue.pop()
            if s.tilt[c]:
                continue  # AMB 2: already tilted cards are skipped
            s.tilt[c] = 1
            if WA_OP[c] and self._start_ability(s, seat, c):
                return  # waiting for a decision
            if s.phase == OVER:
                return
        s.act_row = -1
        self._end_action(s)

    def _start_ability(self, s: State, seat: int, c: int) -> bool:
        """Resolve a When Activated ability; True if it waits for a decision."""
        op = WA_OP[c]
        effect = EFFECT[c]
        hand = s.hands[seat]
        if op == "draw_deck":
            for _ in range(int(effect["n"])):
                if s.deck:
                    hand.append(s.deck.pop())
            self._check_deck(s)  # AMB 8
            return False
        if op == "look_keep":
            look = []
            for _ in range(int(effect["look"])):
                if s.deck:
                    look.append(s.deck.pop())
            if not look:
                return False
            s.look = look
            s.ab_card = c
            s.ab_left = int(effect["keep"])
            s.step = S_KEEP
            return True
        if op == "take_discard_top":
            for _ in range(int(effect["n"])):
                if s.discard:
                    hand.append(s.discard.pop())
                    reveal(s, hand[-1])
            return False
        if op == "tilt_other":
            s.ab_card = c
            if not self._tilt_targets(s, seat):
                s.ab_card = -1
                return False
            s.ab_left = int(effect["n"])
            s.step = S_TILT
            return True
        if op == "draft_offer":
            if not s.offer:
                return False
            s.ab_card = c
            s.ab_left = int(effect["n"])
            s.step = S_KOFFER
            return True
        if op == "opponent_untilt":
            if s.players == 1 and AFFECTS_OPPONENT[c]:
                return False  # Solo Mode: effects on the other player are ignored
            opp = 1 - seat
            if not any(s.tilt[x] for row in s.rows[opp] for x in row):
                return False
            s.ab_card = c
            s.ab_left = int(effect["n"])
            s.step = S_OUNTILT
            return True
        if op == "draw_then_discard":
            for _ in range(int(effect["draw"])):
                if s.deck:
                    hand.append(s.deck.pop())
            if not hand:
                self._check_deck(s)
                return False
            s.ab_card = c
            s.ab_left = int(effect["discard"])
            s.step = S_ADISCARD
            return True
        raise AssertionError(op)  # pragma: no cover - checked at import

    def _finish_ability(self, s: State) -> None:
        s.ab_card = -1
        s.ab_left = 0
        s.step = S_NONE
        self._check_deck(s)  # AMB 8: a deck emptied by an ability ends the round now
        if s.phase == OVER:
            return
        self._run_activation(s)

    def _do_ability_keep(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.look.remove(c)
        s.hands[seat].append(c)
        s.ab_left -= 1
        if s.ab_left > 0 and s.look:
            return
        s.discard.extend(s.look)
        s.look = []
        self._finish_ability(s)

    def _do_ability_tilt(self, s: State, seat: int, action: Action) -> None:
        s.tilt[ID[action.args[0][1]]] = 1
        s.ab_left -= 1
        if s.ab_left > 0 and self._tilt_targets(s, seat):
            return
        self._finish_ability(s)

    def _do_ability_take_offer(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.offer.remove(c)
        s.hands[seat].append(c)
        reveal(s, c)
        s.ab_left -= 1
        if s.ab_left > 0 and s.offer:
            return
        self._replenish(s)
        self._finish_ability(s)

    def _do_ability_discard(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.hands[seat].remove(c)
        s.discard.append(c)
        s.ab_left -= 1
        if s.ab_left > 0 and s.hands[seat]:
            return
        self._finish_ability(s)

    def _do_opponent_untilt(self, s: State, seat: int, action: Action) -> None:
        s.tilt[ID[action.args[0][1]]] = 0
        s.ab_left -= 1
        if s.ab_left > 0 and any(s.tilt[x] for row in s.rows[seat] for x in row):
            return
        self._finish_ability(s)

    # 2) Play a Card
    def _do_play_card(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        r = ROW_FROM_ENUM[action.args[1][1]]
        nest, discount = play_terms(s, seat, c, r)
        s.hands[seat].remove(c)
        s.pay = [c, r, nest, 0, 0, 0, 0, discount]
        s.step = S_PAY
        self._check_paid(s, seat)

    def _do_pay_discard(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        pay = s.pay
        assert pay is not None
        if action.args[1][1] == "AREA_NESTING":
            pay[3] += nest_yield(s, seat, c)
        else:
            a, b, d = FOOD[c]
            pay[4] += a
            pay[5] += b
            pay[6] += d
        s.hands[seat].remove(c)
        s.pend.append(c)
        self._check_paid(s, seat)

    def _do_pay_spend(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        pay = s.pay
        assert pay is not None
        if c in s.rows[seat][TREES]:
            pay[3] += nest_yield(s, seat, c)
        else:
            a, b, d = FOOD[c]
            pay[4] += a
            pay[5] += b
            pay[6] += d
        s.tilt[c] = 0
        self._check_paid(s, seat)

    def _check_paid(self, s: State, seat: int) -> None:
        pay = s.pay
        assert pay is not None
        c, r, need, have, fs, fi, ff, discount = pay
        if have < need or food_short(COST_TERMS[c], fs, fi, ff) > discount:
            return
        # Paid: the bird goes to the left-most open space of the row, upright.
        s.rows[seat][r].append(c)
        s.tilt[c] = 0
        s.pay = None
        if s.players == 2 and r in SCORING_ROWS[c]:
            s.announcements.append([seat, c, r, s.round])
        self._settle_discards(s)

    def _settle_discards(self, s: State) -> None:
        """Discards of one action go on the pile in the order the player picks."""
        if len(s.pend) >= 2:
            s.step = S_ORDER
            return
        s.discard.extend(s.pend)
        s.pend = []
        self._end_action(s)

    def _do_order_discard(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.pend.remove(c)
        s.discard.append(c)
        if len(s.pend) >= 2:
            return
        s.discard.extend(s.pend)
        s.pend = []
        self._end_action(s)

    # 3) Draft Cards
    def _do_draft_discard(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.hands[seat].remove(c)
        s.set_aside = c  # goes on the discard pile after the draft (AMB 6)
        s.draft_left = CURIOUS[c]
        self._draft_continue(s)

    def _do_draft_spend(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.draft_left += curious_yield(s, seat, c)
        s.tilt[c] = 0
        s.step = S_DSPEND

    def _do_draft_spend_done(self, s: State, seat: int, action: Action) -> None:
        self._draft_continue(s)

    def _do_draft_from_offer(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.offer.remove(c)  # the offer is refilled only after the whole action
        s.hands[seat].append(c)
        reveal(s, c)
        s.draft_left -= 1
        self._draft_continue(s)

    def _do_draft_from_discard(self, s: State, seat: int, action: Action) -> None:
        s.hands[seat].append(s.discard.pop())
        reveal(s, s.hands[seat][-1])
        s.draft_left -= 1
        self._draft_continue(s)

    def _do_draft_from_deck(self, s: State, seat: int, action: Action) -> None:
        s.hands[seat].append(s.deck.pop())  # no reshuffle until the action ends (AMB 7)
        s.draft_left -= 1
        self._draft_continue(s)

    def _do_draft_stop(self, s: State, seat: int, action: Action) -> None:
        self._draft_finish(s)

    def _draft_continue(self, s: State) -> None:
        if s.draft_left <= 0 or not (s.offer or s.discard or s.deck):
            self._draft_finish(s)
        else:
            s.step = S_DTAKE

    def _draft_finish(self, s: State) -> None:
        if s.set_aside >= 0:
            s.discard.append(s.set_aside)
            s.set_aside = -1
        s.draft_left = 0
        self._end_action(s)

    # 4) Untilt, 5) Draw, forced loss of an action
    def _do_untilt(self, s: State, seat: int, action: Action) -> None:
        s.tilt[ID[action.args[0][1]]] = 0
        self._end_action(s)

    def _do_draw_card(self, s: State, seat: int, action: Action) -> None:
        s.hands[seat].append(s.deck.pop())
        self._end_action(s)

    def _do_forfeit_action(self, s: State, seat: int, action: Action) -> None:
        self._end_action(s)

    def _do_hand_limit_discard(self, s: State, seat: int, action: Action) -> None:
        c = ID[action.args[0][1]]
        s.hands[seat].remove(c)
        s.discard.append(c)
        if len(s.hands[seat]) <= hand_limit(s, seat):
            self._end_turn(s)

    # ------------------------------------------------------------------ flow
    def _replenish(self, s: State) -> None:
        while len(s.offer) < OFFER_SIZE and s.deck:
            s.offer.append(s.deck.pop())

    def _check_deck(self, s: State) -> None:
        """Round End / Game End when the deck has just run out."""
        if s.deck or s.end_triggered or s.phase != PLAY:
            return
        if s.round >= ROUNDS:
            s.end_triggered = True
            if s.players == 1 or s.turn != s.first:
                s.end_after = 0 if s.players == 1 else s.turn
            else:
                s.end_after = 1 - s.turn
            return
        self._new_round(s)

    def _new_round(self, s: State) -> None:
        """Shuffle the discard pile and the offer into a new deck; deal a new offer."""
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
            gift = SOLO_GIFTS.get(s.round, 0)
            if s.difficulty == "easy" and s.round == 2:
                gift = 1  # AMB 15
            for _ in range(min(gift, len(pool))):
                s.ai.append(pool.pop())
        if len(s.deck) < MIN_CARDS_NEW_ROUND:
            s.ended_early = True  # too few cards to set up the round: the game ends now
            self._game_over(s)
            return
        self._replenish(s)

    def _end_action(self, s: State) -> None:
        self._replenish(s)
        self._check_deck(s)
        if s.phase == OVER:
            return
        s.actions_left -= 1
        if s.actions_left > 0:
            s.step = S_CHOOSE
            return
        if len(s.hands[s.turn]) > hand_limit(s, s.turn):
            s.step = S_LIMIT
            return
        self._end_turn(s)

    def _end_turn(self, s: State) -> None:
        seat = s.turn
        if s.end_after == seat:
            self._game_over(s)
            return
        if s.players == 1:
            self._ai_turn(s)
            if s.phase == OVER:
                return
            s.turn = 0
        else:
            s.turn = 1 - seat
        s.actions_left = ACTIONS_PER_TURN
        s.step = S_CHOOSE

    def _ai_turn(self, s: State) -> None:
        """Solo: the AI discards the oldest (right-most) offer card."""
        if s.offer:
            s.discard.append(s.offer.pop(0))
        self._replenish(s)
        self._check_deck(s)

    def _game_over(self, s: State) -> None:
        s.phase = OVER
        s.step = S_NONE
        s.actions_left = 0
        s.queue = []
        s.act_row = -1

    # ------------------------------------------------------------------ score
    def score(self, s: State) -> ScoreBoard:
        """Card points plus Scoring abilities; ties: most cards, fewest tilted (AMB 14).

        Solo Mode (AMB 16): ``solo`` compares the player's points with the AI
        column's printed points; the player wins only with strictly more (a tie
        is a loss, and a lost game has no winner). Mid-game ``solo.won`` says
        whether the player is ahead now.
        """
        seats = []
        for seat in range(s.players):
            cards, ability = score_parts(s, seat)
            rows = s.rows[seat]
            count = len(rows[0]) + len(rows[1]) + len(rows[2])
            tilted = sum(s.tilt[c] for row in rows for c in row)
            seats.append(
                SeatScore(
                    seat=seat,
                    total=cards + ability,
                    categories={"card_points": cards, "scoring_abilities": ability},
                    tiebreak=(count, -tilted),
                )
            )
        board = ScoreBoard(seats=seats, final=s.phase == OVER)
        if s.players == 1:
            board.solo = solo_result(s, seats[0].total)
            board.extras["ai_cards"] = str(len(s.ai))
        if s.ended_early:
            board.extras["ended_early"] = "too few cards to set up the next round"
        return board.rank_seats()

    # ------------------------------------------------------------------ view
    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: spectator) may see; keys = proto View fields."""
        viewer = -1 if seat is None else seat
        seats = []
        for p in range(s.players):
            rows = s.rows[p]
            cards, ability = score_parts(s, p)
            own = p == viewer
            seats.append(
                {
                    "seat": p,
                    "hand_count": len(s.hands[p]),
                    "hand": [KEY[c] for c in s.hands[p]] if own else [],
                    "hand_visible": own,
                    "hand_limit": hand_limit(s, p),
                    "tableau": {
                        ROWS[r]: [{"card": KEY[c], "tilted": bool(s.tilt[c])} for c in rows[r]]
                        for r in range(3)
                    },
                    "card_points": cards,
                    "ability_points": ability,
                    "score": cards + ability,
                    "cards_in_tableau": len(rows[0]) + len(rows[1]) + len(rows[2]),
                    "tilted_count": sum(s.tilt[c] for row in rows for c in row),
                    "draft_packet_count": len(s.packets[p]) if s.phase == DRAFT else 0,
                    "draft_decided": bool(s.phase == DRAFT and s.picked[p]),
                }
            )
        pay = s.pay
        if pay is not None:
            card, row, need, have, fs, fi, ff, discount = pay
            short = food_short(COST_TERMS[card], fs, fi, ff)
            payment = {
                "card": KEY[card],
                "row": ROW_ENUM[row],
                "nesting_needed": need,
                "nesting_paid": have,
                "food_cost": cost_text(card),
                "food_paid": food_text((fs, fi, ff)),
                "food_icons": N_ICONS[card],
                "food_icons_waived": discount,
                "food_icons_unpaid": max(0, short - discount),
            }
        else:
            payment = {
                "card": "",
                "row": "ROW_UNSPECIFIED",
                "nesting_needed": 0,
                "nesting_paid": 0,
                "food_cost": "",
                "food_paid": "",
                "food_icons": 0,
                "food_icons_waived": 0,
                "food_icons_unpaid": 0,
            }
        acting = s.phase == PLAY and viewer == s.turn
        return {
            "players": s.players,
            "solo": s.players == 1,
            "difficulty": "DIFFICULTY_" + s.difficulty.upper(),
            "phase": PHASE_ENUM[s.phase],
            "step": STEP_ENUM[s.step],
            "to_act": self.to_act(s),
            "viewer": viewer,
            "round": s.round,
            "first_player": s.first,
            "turn_seat": s.turn,
            "actions_left": s.actions_left,
            "deck_count": len(s.deck),
            "offer": [KEY[c] for c in s.offer],
            "discard_pile": [KEY[c] for c in s.discard],
            "seats": seats,
            "ai_column": [KEY[c] for c in s.ai],
            "ai_score": ai_points(s),
            "announcements": [
                {
                    "seat": p,
                    "card": KEY[c],
                    "row": ROW_ENUM[r],
                    "round": rnd,
                    "text": f"Seat {p} played {NAME[c]} into {ROW_NAMES[r]}: {ABILITY_TEXT[c]}",
                }
                for p, c, r, rnd in s.announcements
            ],
            "payment": payment,
            "pending_discards": [KEY[c] for c in s.pend],
            "set_aside": KEY[s.set_aside] if s.set_aside >= 0 else "",
            "draft_picks_left": s.draft_left,
            "looked": [KEY[c] for c in s.look] if acting else [],
            "looked_count": len(s.look),
            "draft_packet": (
                [KEY[c] for c in s.packets[viewer]]
                if s.phase == DRAFT and 0 <= viewer < s.players
                else []
            ),
            "draft_pick": s.pick_no if s.phase == DRAFT else 0,
            "activating_row": ROW_ENUM[s.act_row] if s.act_row >= 0 else "ROW_UNSPECIFIED",
            "activation_queue": [KEY[c] for c in s.queue],
            "ability_card": KEY[s.ab_card] if s.ab_card >= 0 else "",
            "end_triggered": s.end_triggered,
            "final_turn_seat": s.end_after,
            "ended_early": s.ended_early,
            "game_over": s.phase == OVER,
        }

    # ------------------------------------------------------------------ hidden information
    def determinize(self, s: State, seat: int | None, rng: Rng) -> State:
        """A copy of ``s`` with everything ``seat`` cannot see redrawn from what it
        cannot tell apart (``hidden.determinize``: the deck, other hands and draft
        packets, cards looked at by another seat, the generator)."""
        return hidden.determinize(s, seat, rng)

    # ------------------------------------------------------------------ codec
    def encode(self, s: State) -> bytes:
        """Deterministic JSON bytes of the full state."""
        return jsonstate.dumps(s.to_dict(), sort_keys=True)

    def decode(self, data: bytes) -> State:
        """Inverse of :meth:`encode`."""
        return State.from_dict(jsonstate.loads(data))


__all__ = ["BirdscapingEngine", "State"]

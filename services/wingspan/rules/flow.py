"""Turn and round flow: the procedural tasks of the stack."""

from __future__ import annotations

from .cards import (
    COLOR,
    PINK,
    TRIG_FOOD,
    TRIG_PLAY,
    WHITE,
)
from .power_table import ENTRY, PINK_HANDLER, PINK_TRIGGER, WHITE_POWER
from .scoring import score_round_goal
from .state import (
    ROUND_CUBES,
    State,
)
from .supply import (
    refill_tray,
)
from .tasks import (
    CHOOSE_TURN,
    END_TURN,
    START_TURN,
    ActivateRow,
    DiscardEndOfTurn,
    DraftEnd,
    EndTurn,
    ExtraEgg,
    LayEgg,
    PinkTrigger,
    PlaceBird,
    StartTurn,
    WhitePower,
    pink_trigger,
)


def run_start_turn(s: State, t: StartTurn) -> None:
    """Start ``seat``'s turn: its pink powers are ready again (summary 次の手番までに1回), then it
    chooses an action (summary ゲームの進行)."""
    seat = t.seat
    s.stack.pop()
    s.turn = seat
    pused = s.pink_used
    for b in s.pink_birds[seat]:
        pused[b] = 0
    s.stack.append(END_TURN[seat])
    s.stack.append(CHOOSE_TURN[seat])


def run_end_turn(s: State, t: EndTurn) -> None:
    """End of a turn (summary ゲームの進行): end-of-turn discards owed by draw-then-discard powers
    (rules choice 11), refill the tray (summary 湿地アクション), next seat with cubes left, or the
    round ends."""
    seat = t.seat
    if s.eot_discards:
        s.eot_discards -= 1
        if s.hands[seat]:
            s.stack.append(DiscardEndOfTurn(seat))
        return
    s.stack.pop()
    refill_tray(s)
    nxt = (seat + 1) % s.players
    if s.cubes_left[nxt]:
        s.stack.append(START_TURN[nxt])
        return
    end_round(s)


def end_round(s: State) -> None:
    """Summary ラウンド終了時の処理: score the round goal, discard and refill the tray, pass the
    first-player marker, one cube fewer; after round 4 the game ends."""
    score_round_goal(s, s.round)
    s.bird_discard.extend(s.tray)
    s.tray = []
    refill_tray(s)
    s.round += 1
    if s.round >= 4:
        return  # empty stack: advance() ends the game
    s.first_player = (s.first_player + 1) % s.players
    s.cubes_left = [ROUND_CUBES[s.round]] * s.players
    s.stack.append(START_TURN[s.first_player])


def run_row(s: State, t: ActivateRow) -> None:
    """Activate the brown powers of one row, right to left.

    Summary 起動時: every brown power of the row, right to left."""
    row = s.rows[t.seat][t.habitat]
    idx = t.column
    if idx >= len(row):
        idx = len(row) - 1
    if idx <= 0:
        s.stack.pop()
        if idx < 0:
            return
    else:
        t.column = idx - 1
    b = row[idx]
    entry = ENTRY[b]
    if entry is not None:
        entry(s, t.seat, b)


def run_place(s: State, t: PlaceBird) -> None:
    """The bird enters its row (summary 手札の鳥カードをプレイする); then its white power
    (summary プレイ時) and
    the pink triggers of a bird played in that habitat (summary 次の手番までに1回)."""
    s.stack.pop()
    seat, b, h = t.seat, t.bird, t.habitat
    s.rows[seat][h].append(b)
    color = COLOR[b]
    if color == PINK:
        s.pink_birds[seat].append(b)
        s.pink_used[b] = 0
    elif color == WHITE:
        s.stack.append(WhitePower(seat, b, h))
    s.stack.append(pink_trigger(seat, TRIG_PLAY, h))


def run_white(s: State, t: WhitePower) -> None:
    """Summary プレイ時: the white power runs once, right after the bird is played."""
    s.stack.pop()
    WHITE_POWER[t.bird](s, t.seat, t.bird, t.habitat)


def run_pink(s: State, t: PinkTrigger) -> None:
    """Ask the other players' pink powers matching this trigger, clockwise
    from the active player's left (summary: 次の手番までに1回)."""
    s.stack.pop()
    active, trig, param = t.seat, t.trigger, t.param
    if trig == TRIG_FOOD and not s.rodent_taken:
        return
    n = s.players
    pinks = s.pink_birds
    pused = s.pink_used
    tasks = []
    for k in range(1, n):
        p = (active + k) % n
        for b in pinks[p]:
            if not pused[b] and PINK_TRIGGER[b] == trig:
                task = PINK_HANDLER[b](s, p, b, param)
                if task is not None:
                    tasks.append(task)
    if tasks:
        tasks.reverse()
        s.stack.extend(tasks)


def run_extra_egg(s: State, t: ExtraEgg) -> None:
    """Summary 能力: the active player of an all-players-lay power may lay a second egg on another
    bird of that nest (rules choice 7)."""
    s.stack.pop()
    if s.last_egg_bird >= 0:
        s.stack.append(
            LayEgg(t.seat, remaining=1, nest=t.nest, excluded=s.last_egg_bird, may_decline=1)
        )


def run_draft_end(s: State, t: DraftEnd) -> None:
    """Summary 能力: after a draft power, the player who used it takes the card left over."""
    s.stack.pop()
    s.hands[t.seat].extend(s.draft)
    s.draft = []

"""Helpers for the Sky Garden engine tests: build positions, act by kind and args."""

from __future__ import annotations

import copy
from typing import Any

from services.core.engine import Action, Rng
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D
from services.skygarden.rules.state import GameState, Turn
from services.skygarden.rules.state import new_turn as _new_turn

B = D.BIDX  # bird name -> index
SHIM, WWE, HAWK, FLAMINGO, TOUCAN, SWAN = (B[b] for b in D.REG)
JAVA, RIFLE, OWL = (B[b] for b in D.SPC)


def started(players: int, seed: int = 1) -> dict[str, Any]:
    """A game past the Event-card choice (every seat keeps its first dealt card)."""
    st = ENGINE.setup(players, {}, seed)
    for seat in range(players):
        act(st, seat, "keep_event", card=D.EVENT_IDS[st.players[seat].dealt_events[0]])
    return st


def find(st: GameState, seat: int, kind: str, **args: Any) -> Action | None:
    """The legal action of ``kind`` whose args include ``args`` (None if absent)."""
    for action in ENGINE.legal(st, seat):
        if action.kind != kind:
            continue
        values = dict(action.args)
        if all(values.get(k) == v for k, v in args.items()):
            return action
    return None


def act(st: GameState, seat: int, kind: str, **args: Any) -> GameState:
    """Apply the legal action matching ``kind``/``args`` (AssertionError if not legal)."""
    action = find(st, seat, kind, **args)
    assert action is not None, (
        f"{kind} {args} not legal for seat {seat}: "
        f"{[(a.kind, a.args) for a in ENGINE.legal(st, seat)]}"
    )
    return ENGINE.apply(st, seat, action)


def kinds(st: GameState, seat: int) -> set[str]:
    """Kinds of the legal actions."""
    return {a.kind for a in ENGINE.legal(st, seat)}


def blank(p: dict[str, Any]) -> None:
    """Empty every area of a player (no birds, nests, trees or lakes)."""
    for a in p.areas:
        a.birds = [0] * D.NB
        a.nest = 0
        a.nest_birds = []
        a.tree = 0
        a.lake = 0
    p.additional_area = ""


def turn_for(st: GameState, seat: int) -> Turn:
    """Make ``seat`` the player to act, at the start of a turn."""
    st.turn = _new_turn(seat)
    return st.turn


def land(st: GameState, seat: int, space: int, chip: int, *, emp: int | None = None) -> GameState:
    """Put ``chip`` on ``space`` and make ``seat`` move there (a fresh turn)."""
    turn_for(st, seat)
    st.track[space - 1] = chip
    for i, p in enumerate(st.players):
        if i != seat and p.track_space == space:
            p.track_space = 0
    if st.lucy is not None and st.lucy.track_space == space:
        st.lucy.track_space = 0
    p = st.players[seat]
    p.track_space = max(0, space - 1) if p.track_space >= space else p.track_space
    if emp is not None:
        p.employee = emp
    act(st, seat, "move_owner", space=space)
    return st


def emp_index(space_id: str) -> int:
    """Employee-path index of a space id ("P6")."""
    return D.EMP_IDS.index(space_id)


_DISCARD = {"bird_to_forest", "tree_to_forest", "refill_lake", "release_bird", "skip_bonus"}
_STOP = {"enter_standby", "end_turn"}


def random_game_states(players: int, seed: int, max_decisions: int = 20_000, busy: bool = False):
    """Yield (state, seat, action) through a random game (state before the action).

    Uniform by default. ``busy`` mostly builds: it rarely discards (birds, trees or
    lakes to the Forest) and prefers building over ending the turn, so aviaries
    fill up and the deep rules (breeding, milestones, bonuses) run.
    """
    st = ENGINE.setup(players, {}, seed)
    chooser = Rng(seed ^ 0xABCDEF)
    for _ in range(max_decisions):
        if ENGINE.is_over(st):
            return
        seats = ENGINE.to_act(st)
        seat = seats[chooser.below(len(seats))]
        legal = ENGINE.legal(st, seat)
        if busy and chooser.below(16):
            keen = [a for a in legal if a.kind not in _DISCARD and a.kind not in _STOP]
            stop = [a for a in legal if a.kind in _STOP]
            if keen and (not stop or chooser.below(12)):
                legal = keen
                if keen[0].kind == "move_owner" and chooser.below(2):
                    legal = keen[:1]  # the nearest free space: more turns per round
            elif stop:
                legal = stop
        action = legal[chooser.below(len(legal))]
        yield st, seat, action
        ENGINE.apply(st, seat, action)
    raise AssertionError("random game did not end")


def count_components(st: GameState) -> dict[str, Any]:
    """Totals of every conserved component (for invariants)."""
    birds = [0] * D.NB
    for i, c in enumerate(st.supply):
        birds[i] += c
    for i, c in enumerate(st.special_left):
        birds[D.NREG + i] += c
    for i, c in enumerate(st.bonus_birds):
        birds[i] += c
    forest = st.forest
    for i, c in enumerate(forest.birds):
        birds[i] += c
    for bird in (chip.bird for chip in forest.chips):
        if bird >= 0:
            birds[bird] += 1
    if st.turn.chip_bird >= 0:
        birds[st.turn.chip_bird] += 1
    trees = forest.trees
    nests = forest.nests
    eggs = st.egg_supply + st.player_count
    for p in st.players:
        for ai, a in enumerate(p.areas):
            if ai == D.AX and not p.additional_area:
                assert a.birds == [0] * D.NB
                continue
            for i, c in enumerate(a.birds):
                birds[i] += c
            trees += a.tree
            nests += a.nest
        eggs += sum(p.nest_box)
    return {"birds": birds, "trees": trees, "nests": nests, "eggs": eggs}


def expected_components() -> dict[str, Any]:
    """What :func:`count_components` must always return."""
    return {
        "birds": list(D.SUPPLY_TOKENS) + list(D.SPECIAL_TOKENS),
        "trees": D.TREES_TOTAL,
        "nests": D.NESTS_TOTAL,
        "eggs": D.EGG_TOKENS,
    }


def finish_turn(st: GameState, seat: int) -> None:
    """Do the mandatory rest of the turn the simplest way, then end it."""
    while ENGINE.to_act(st) == [seat] and st.turn.seat == seat:
        legal = {a.kind: a for a in ENGINE.legal(st, seat)}
        for kind in (
            "skip_bonus",
            "choose_chip_bird",
            "advertise",
            "move_employee",
            "release_bird",
            "end_turn",
        ):
            if kind in legal:
                ENGINE.apply(st, seat, legal[kind])
                break
        else:
            raise AssertionError(f"cannot finish the turn: {sorted(legal)}")
        if kind == "end_turn":
            return


def set_event(p: dict[str, Any], card_id: str) -> None:
    """Give a player a known Event card."""
    p.event_card = D.EVENT_INDEX[card_id]
    p.dealt_events = []


def undealt(st: GameState) -> list[int]:
    """Event cards dealt to nobody (in the box since setup)."""
    dealt = {c for p in st.players for c in p.dealt_events}
    return sorted(set(range(len(D.EVENT_IDS))) - dealt)


def hidden_variant(st: GameState, viewer: int | None) -> GameState:
    """A copy of ``st`` that differs only in what ``viewer`` (None: a spectator) cannot
    see: the Event cards unseen by the viewer (the other seats' dealt cards, except
    kept cards once face up, and the box) move round by one, a card kept in secret
    becomes the last card of its seat's new pair, and the generator differs."""
    other = copy.deepcopy(st)
    revealed = all(p.event_card >= 0 for p in st.players)
    seats = [s for s in range(st.player_count) if s != viewer]

    def unseen_of(p: dict[str, Any]) -> list[int]:
        return [c for c in p.dealt_events if not (revealed and c == p.event_card)]

    unseen = [c for s in seats for c in unseen_of(st.players[s])] + undealt(st)
    unseen = unseen[1:] + unseen[:1]
    for s in seats:
        p = other.players[s]
        new = [unseen.pop(0) for _ in unseen_of(p)]
        if revealed:
            p.dealt_events = [*new, p.event_card]
        else:
            if p.event_card >= 0:
                p.event_card = new[-1]
            p.dealt_events = new
    other.rng = (st.rng + 1) % (1 << 64)
    return other

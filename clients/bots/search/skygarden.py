"""Sky Garden: an engine state built from a seat's view.

Almost everything is on the table and copied exactly from the view: the Main
track with its chips, the Standby track, Lucy, the Forest board, the supplies,
the special birds, the bonus birds, the birdcage and its line bonuses, every
player's board (funds, eggs, Employee, areas with their nests, trees and lakes,
milestones, track tokens) and the turn in progress. Hidden:

* the Event cards: another seat's dealt pair, and the card it kept until every
  seat has kept one; :func:`build` fills them with Event cards the view does not
  show (sorted), and the engine's ``determinize`` redraws them for each sample;
* the generator that lays out the rounds to come (a placeholder here; each
  determinization reseeds it).

Chip codes: a bird chip is its bird, a round chip is its round, and the blue
chips (which play alike) are numbered by their fixed track positions, as the
solo layout numbers them (the only game where a blue chip's identity matters:
it stays face down once used).

What the view does not say: which nests had a bird put on them during the
current turn (no bird may come off such a nest until the turn ends). The seat
saw it happen, though: :class:`NestMemory` remembers, per game and seat, the
nests of the seat's previous view in the same turn, and a nest that gained a
bird since is locked in the built state. A view the memory did not see (a
decision with a single legal action is not shown to the builder, or a bot that
started mid-turn) can leave a lock unknown; then the engine lists removals the
server does not, the policy's legal-list check notices, and that decision is
played greedy.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Any

from clients.bots.search.ismcts import Settings
from services.skygarden.rules import ENGINE
from services.skygarden.rules import data as D
from services.skygarden.rules.state import (
    Area,
    Forest,
    ForestChip,
    GameState,
    Lucy,
    PendingDecision,
    Phase,
    Player,
    Step,
    Turn,
)

#: Search settings tuned on this game: a turn is a run of small decisions (move,
#: take the bird, move the Employee, place, buy, end), and a placement's points
#: show at once. Playouts run twelve decisions deep and the mover looks one ply
#: ahead at *every* legal action (lists stay under 48): looking at a sample of
#: eight, a playout walked the track almost at random and spent funds on whatever
#: came up, and the search could not beat a greedy bot that values its funds
#: (7 of 12 seeded games at 16 playouts; looking at every action, 10 of 12 at 32
#: playouts, and 25 of 30 through the service, docs/BENCHMARKS.md). Scores run
#: into the hundreds, so a difference of 30 points is worth tanh(1) of a win. The
#: root candidates are compared on the same samples (paired), and the greedy bot's
#: one-turn lookahead counts for eight playouts.
SETTINGS = Settings(depth=12, sample=48, epsilon=0.05, scale=30.0, prior=8, paired=True)

PHASES = {
    "PHASE_EVENT_CHOICE": Phase.EVENT,
    "PHASE_PLAY": Phase.PLAY,
    "PHASE_GAME_OVER": Phase.OVER,
}
STEPS = {f"STEP_{step.name}": step for step in Step}

_EVENT = D.EVENT_INDEX
_EMPLOYEE = {sid: i for i, sid in enumerate(D.EMP_IDS)}
_SETUP_CARD = {sid: i for i, sid in enumerate(D.SETUP_IDS)}
_TILE = {tid: i for i, tid in enumerate(D.TILE_IDS)}
_BOX = {("golden_egg" if b == D.GOLDEN else D.BIRDS[b]): b for b in range(D.BOX_SIZE)}
_BLUE_AT = {space: D.BLUE_BASE + i for i, space in enumerate(D.FIXED_BLUE)}


def _counts(items: list[dict[str, Any]]) -> list[int]:
    """[{"bird", "count"}] (zero counts left out) -> a count per bird type."""
    out = [0] * D.NB
    for item in items:
        out[D.BIDX[item["bird"]]] = item["count"]
    return out


def _bits(numbers: list[int], offset: int = 0) -> int:
    out = 0
    for k in numbers:
        out |= 1 << (k - offset)
    return out


def _track(view: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The chip code on every Main track space, and the solo face-down flags."""
    codes = [0] * D.TRACK_LEN
    face_down = [0] * D.NBLUE
    next_blue = iter(range(D.BLUE_BASE, D.BLUE_BASE + D.NBLUE))
    fixed = view["players"] <= 2  # blue chips on their fixed spaces
    for cell in sorted(view["track"], key=lambda c: c["space"]):
        chip = cell["chip"]
        kind = chip["kind"]
        if kind == "CHIP_KIND_BIRD":
            code = D.BIDX[chip["birds"][0]]
        elif kind == "CHIP_KIND_ROUND":
            code = D.ORANGE_BASE + chip["round"]
        elif fixed:
            code = _BLUE_AT[cell["space"]]
        else:
            code = next(next_blue)
        if kind == "CHIP_KIND_ADVERTISEMENT" and chip["face_down"]:
            face_down[code - D.BLUE_BASE] = 1
        codes[cell["space"] - 1] = code
    return codes, face_down


def _area(area: dict[str, Any]) -> Area:
    return Area(
        birds=_counts(area["birds"]),
        nest=int(area["nest"]),
        nest_birds=[D.BIDX[b] for b in area["nest_birds"]],
        tree=int(area["tree"]),
        lake=int(area["lake"]),
    )


def _player(seat_view: dict[str, Any]) -> Player:
    """A player's board; its Event cards are filled in by :func:`build`."""
    areas = [Area() for _ in range(D.NAREA + 1)]
    for area in seat_view["areas"]:
        areas[area["area"]] = _area(area)
    box = [0] * D.BOX_SIZE
    for icon in seat_view["nest_box"]:
        box[_BOX[icon]] = 1
    card = seat_view["event_card"]
    return Player(
        funds=seat_view["funds"],
        egg_marker=seat_view["egg_marker"],
        nest_box=box,
        employee=_EMPLOYEE[seat_view["employee"]],
        areas=areas,
        additional_area=seat_view["additional_area"],
        event_card=_EVENT[card] if card else -1,
        dealt_events=[_EVENT[c] for c in seat_view["dealt_events"]],
        setup_card=_SETUP_CARD[seat_view["setup_card"]],
        claimed_slots=_bits(seat_view["claimed_slots"]),
        milestones_achieved=seat_view["milestones_achieved"],
        track_space=seat_view["owner_space"],
        standby_slot=seat_view["standby_slot"],
        finished_round=seat_view["finished_round"],
        sections_done=_bits(seat_view["sections_done"], offset=1),
    )


def _turn(turn: dict[str, Any], track: list[int]) -> Turn:
    """The turn in progress; no nest is locked (the view does not say which are)."""
    space = turn["space"]
    bird = turn["pending_bird"]
    return Turn(
        seat=turn["seat"],
        step=STEPS.get(turn["step"], Step.MOVE),
        landed_space=space,
        chip=track[space - 1] if space > 0 else -1,
        chip_bird=D.BIDX[bird] if bird else -1,
        bird_choice=[D.BIDX[b] for b in turn["bird_choice"]],
        employee_moved=turn["employee_moved"],
        forest_birds_bought=turn["forest_birds_bought"],
        space_action_used=turn["space_action_used"],
        pending=[
            PendingDecision(p["kind"], p["area"] if p["kind"] == "adjust" else p["amount"])
            for p in turn["pending"]
        ],
    )


def _fill_events(players: list[Player], seats: list[dict[str, Any]], seat: int) -> None:
    """Event cards the seat cannot see, dealt from the cards the view does not show
    (sorted): another seat's pair and its secretly kept card; the seat's own returned
    card once the view stops showing its pair."""
    seen = {p.event_card for p in players if p.event_card >= 0}
    for p in players:
        seen.update(p.dealt_events)
    unseen = iter(c for c in range(len(D.EVENT_IDS)) if c not in seen)
    for i, p in enumerate(players):
        if p.dealt_events:
            continue
        if i != seat and seats[i]["event_kept"] and p.event_card < 0:
            p.event_card = next(unseen)
        kept = [p.event_card] if p.event_card >= 0 else []
        drawn = [next(unseen) for _ in range(D.EVENT_DEAL - len(kept))]
        p.dealt_events = sorted(kept + drawn)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the memory keeps of a seat's last view: the turn it was in and the nests."""

    round: int
    landed_space: int
    nests: tuple[tuple[str, ...], ...]
    locked: frozenset[int]


class NestMemory:
    """Which of the seat's nests had a bird put on them this turn (On Your Turn, Place
    and Remove Bird Tokens on Nest Tiles: such a nest gives no bird back until the
    turn ends), from the seat's consecutive views.

    Views are told apart per game by the seat, the player count, the setup cards and
    the birdcage (a fingerprint: the view carries no game id), and belong to the same
    turn while the round and the seat to play are the same and the Owner token has
    not landed on another space. A nest whose birds are not a part of the ones it had
    in the previous view of the turn gained a bird: it is locked for the rest of the
    turn. At most ``limit`` games and seats are remembered (the oldest go first)."""

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._seen: OrderedDict[tuple[Any, ...], _Seen] = OrderedDict()

    def locks(self, view: dict[str, Any], seat: int) -> frozenset[int]:
        """The seat's locked nests (areas) in ``view``; remembers ``view``."""
        if seat < 0 or view["phase"] != "PHASE_PLAY":
            return frozenset()
        seats = sorted(view["seats"], key=lambda s: s["seat"])
        key = (
            seat,
            view["players"],
            tuple(s["setup_card"] for s in seats),
            tuple(slot["tile"] for slot in view["birdcage"]),
        )
        turn = view["turn"]
        nests = [(a["area"], tuple(a["nest_birds"])) for a in seats[seat]["areas"]]
        previous = self._seen.pop(key, None)
        locked: set[int] = set()
        if (
            previous is not None
            and turn["seat"] == seat
            and previous.round == view["round"]
            and previous.landed_space in (0, turn["space"])
        ):
            locked.update(previous.locked)
            before = dict(enumerate(previous.nests))
            for area, birds in nests:
                if Counter(birds) - Counter(before.get(area, ())):
                    locked.add(area)
        seen = _Seen(
            view["round"],
            turn["space"] if turn["seat"] == seat else -1,
            tuple(birds for _, birds in sorted(nests)),
            frozenset(locked),
        )
        self._seen[key] = seen
        while len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return seen.locked

    def clear(self) -> None:
        """Forget every view."""
        self._seen.clear()


#: The memory :func:`build` uses unless it is given one.
MEMORY = NestMemory()


def build(view: dict[str, Any], seat: int, memory: NestMemory | None = None) -> GameState:
    """An engine state that shows ``seat`` exactly ``view`` (see the module docstring);
    ``memory`` (default :data:`MEMORY`) supplies the nests locked this turn."""
    track, face_down = _track(view)
    seats = sorted(view["seats"], key=lambda s: s["seat"])
    players = [_player(s) for s in seats]
    _fill_events(players, seats, seat)
    lucy_view = view["lucy"]
    lucy = (
        Lucy(lucy_view["space"], lucy_view["standby_slot"], lucy_view["finished_round"])
        if lucy_view["present"]
        else None
    )
    forest = view["forest"]
    bonus = {D.BIDX[b] for b in view["bonus_birds"]}
    cage = sorted(view["birdcage"], key=lambda s: s["slot"])
    state = GameState(
        player_count=view["players"],
        phase=PHASES[view["phase"]],
        round=view["round"],
        rounds=view["rounds"],
        track=track,
        blue_face_down=face_down,
        forest=Forest(
            forest["trees"],
            forest["nests"],
            _counts(forest["birds"]),
            [
                ForestChip(D.BIDX[c["chip_bird"]], D.BIDX[c["bird"]] if c["bird"] else -1)
                for c in forest["chips"]
            ],
        ),
        supply=_counts(view["supply"])[: D.NREG],
        special_left=[card["remaining"] for card in view["special_cards"]],
        bonus_birds=[int(b in bonus) for b in range(D.NREG)],
        egg_supply=view["egg_supply"],
        milestone_tiles=[_TILE[slot["tile"]] for slot in cage],
        milestone_claims=[list(slot["claimed_by"]) for slot in cage],
        early_bonus_left=[line["early_available"] for line in view["line_bonuses"]],
        players=players,
        lucy=lucy,
        turn=_turn(view["turn"], track),
        rng=0,
    )
    for area in (MEMORY if memory is None else memory).locks(view, seat):
        state.turn.nest_locked[area] = 1
    return state


__all__ = ["ENGINE", "MEMORY", "PHASES", "SETTINGS", "NestMemory", "build"]

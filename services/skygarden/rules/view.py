"""Per-seat views of a Sky Garden state (keys = fields of ``roost.skygarden.v1.View``).

Hidden (see :mod:`.hidden`): another seat's dealt Event cards, and the card it
kept (so its Event marker and Event VP) until every seat has kept one; the
generator state. The bag is empty after each round's layout, so there is no
draw order to hide.

A view is a value: no list or dict in it is part of the state, so a view handed
out earlier never changes when the state does. The parts that depend only on
printed data (chips, track icons, standby spaces, special cards, birdcage tiles
and lines, aviary areas) are built once and shared between views; nothing
mutates them.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import Any

from . import data as D
from .aviary import capacity, used
from .caches import KEPT
from .economy import event_marker
from .hidden import events_revealed
from .space import space_icons
from .state import Area, GameState, Pending, Phase, Player, Step

_PHASE = {
    Phase.EVENT: "PHASE_EVENT_CHOICE",
    Phase.PLAY: "PHASE_PLAY",
    Phase.OVER: "PHASE_GAME_OVER",
}
_STEP = {
    Step.MOVE: "STEP_MOVE",
    Step.CHIP: "STEP_CHIP",
    Step.AFTER: "STEP_AFTER",
    Step.STANDBY: "STEP_STANDBY",
}

_BIRDS = D.BIRDS
_BLUE_BASE = D.BLUE_BASE
_ORANGE_BASE = D.ORANGE_BASE
_NAREA = D.NAREA
_EVENT_IDS = D.EVENT_IDS
_EVENT_VP = D.EVENT_VP
_EGG_POINTS = D.EGG_POINTS
_EMP_IDS = D.EMP_IDS
_SETUP_IDS = D.SETUP_IDS
_STANDBY_SLOTS = D.STANDBY_SLOTS

#: Size of each shared-dict cache below (least recently used entries go first;
#: the area cache is cleared when it reaches it).
_CACHE_LIMIT = 50_000


@lru_cache(maxsize=_CACHE_LIMIT)
def _chip(code: int, face_down: bool) -> dict[str, Any]:
    """A chip's View dict, shared by every view."""
    if code < _BLUE_BASE:
        return {"kind": "CHIP_KIND_BIRD", "birds": [_BIRDS[code]], "face_down": False, "round": 0}
    if code < _ORANGE_BASE:
        return {"kind": "CHIP_KIND_ADVERTISEMENT", "birds": [], "face_down": face_down, "round": 0}
    rnd = code - _ORANGE_BASE
    return {
        "kind": "CHIP_KIND_ROUND",
        "birds": [_BIRDS[b] for b in D.ORANGE[rnd]],
        "face_down": False,
        "round": rnd,
    }


def _spaces_for(n: int) -> tuple[tuple[int, list[str], int], ...]:
    """Per track space (1..TRACK_LEN) for ``n`` players: (space, active icons, section)."""
    return tuple(
        (space, space_icons(n, space), D.SECTION_OF[space] + 1 if n == 2 else 0)
        for space in range(1, D.TRACK_LEN + 1)
    )


#: The track's spaces per player count (1-4), worked out once from the data:
#: a table of the game's data, not a cache.
_TRACK_SPACES = {n: _spaces_for(n) for n in range(1, 5)}


@lru_cache(maxsize=_CACHE_LIMIT)
def _track_cell(
    n: int, space: int, code: int, face_down: bool, occupant: int, lucy: bool
) -> dict[str, Any]:
    """A track space's View dict, shared by every view."""
    _space, icons, section = _TRACK_SPACES[n][space - 1]
    return {
        "space": space,
        "chip": (_chip if KEPT["part_views"] else _chip.__wrapped__)(code, face_down),
        "icons": icons,
        "occupant_seat": occupant,
        "lucy": lucy,
        "section": section,
    }


@lru_cache(maxsize=_CACHE_LIMIT)
def _standby(slot: int, holder: int, lucy: bool) -> dict[str, Any]:
    """A Standby space's View dict, shared by every view."""
    return {
        "slot": slot,
        "label": D.STANDBY_LABELS[slot],
        "vp": D.STANDBY_VP[slot],
        "occupant_seat": holder,
        "lucy": lucy,
    }


@lru_cache(maxsize=_CACHE_LIMIT)
def _special(k: int, remaining: int) -> dict[str, Any]:
    """A special card's View dict with its tokens remaining, shared by every view."""
    return {
        "bird": D.SPC[k],
        "name": D.BIRD_NAME[D.NREG + k],
        "cost": D.SPECIAL_COST[k],
        "size": D.SIZE[D.NREG + k],
        "remaining": remaining,
    }


_N_SPECIALS = len(D.SPC)

#: Milestone tile -> (id, letter, condition text).
_TILES = tuple(zip(D.TILE_IDS, D.TILE_LETTER, D.TILE_TEXT, strict=True))

#: Per birdcage line: its View dict without, then with, the early bonus available.
_LINES = tuple(
    tuple(
        {
            "line": D.LINE_NAMES[li],
            "slots": list(D.LINE_SLOTS[li]),
            "early_bonus": D.bonus_text(D.LINE_EARLY[li]),
            "early_available": available,
            "regular_bonus": D.bonus_text(D.LINE_REGULAR[li]),
        }
        for available in (False, True)
    )
    for li in range(len(D.LINE_NAMES))
)

#: Nest Box icon names, in box order.
_BOX_NAMES = tuple(("golden_egg" if b == D.GOLDEN else _BIRDS[b]) for b in range(D.BOX_SIZE))

#: (Employee space, has the Additional Area) -> the areas it feeds.
_EMP_AREAS = {
    (emp, ax): tuple(D.EMP_ADJ[emp]) + ((D.AX,) if ax else ())
    for emp in range(len(D.EMP_IDS))
    for ax in (False, True)
}

#: Claimed-slot bit set (9 slots) -> the slots.
_CLAIMED = tuple(tuple(s for s in range(9) if bits >> s & 1) for bits in range(1 << 9))

#: Sections-done bit set -> the section numbers (1-based).
_SECTIONS_DONE = tuple(
    tuple(k + 1 for k in range(len(D.SECTIONS)) if bits >> k & 1)
    for bits in range(1 << len(D.SECTIONS))
)
_SECTIONS_MASK = (1 << len(D.SECTIONS)) - 1

#: Event card -> the names of its birds.
_EVENT_BIRDS = tuple(tuple(_BIRDS[b] for b in birds) for birds in D.EVENT_BIRDS)

#: Area index -> (id, is an Event area).
_AREA_INFO = tuple((D.AREA_IDS[ai], ai in D.EVENT_AREAS) for ai in range(len(D.AREA_IDS)))


def _counts(counts: list[int]) -> list[dict[str, Any]]:
    return [{"bird": _BIRDS[i], "count": c} for i, c in enumerate(counts) if c]


#: (area index, bird counts, nest, tree, lake, nest birds) -> the area's View dict.
_AREAS: dict[tuple[Any, ...], dict[str, Any]] = {}


def _area(a: Area, ai: int) -> dict[str, Any]:
    b = a.birds
    nb = a.nest_birds
    key = (ai, tuple(b), a.nest, a.tree, a.lake, tuple(nb))
    area = _AREAS.get(key) if KEPT["part_views"] else None
    if area is None:
        if len(_AREAS) >= _CACHE_LIMIT:
            _AREAS.clear()
        area_id, event_area = _AREA_INFO[ai]
        area = {
            "area": ai,
            "id": area_id,
            "birds": _counts(b),
            "nest": bool(a.nest),
            "nest_birds": [_BIRDS[x] for x in nb],
            "tree": bool(a.tree),
            "lake": bool(a.lake),
            "capacity": capacity(a),
            "used": used(a),
            "event_area": event_area,
        }
        if KEPT["part_views"]:
            _AREAS[key] = area
    return area


def _seat(p: Player, i: int, own: bool, known: bool) -> dict[str, Any]:
    """Seat ``i``'s board; ``own``: the viewer's seat (its dealt cards while it
    chooses), ``known``: the kept Event card is visible (setup step 15)."""
    card = p.event_card
    revealed = known and card >= 0
    marker = event_marker(p) if revealed else -1
    ax = p.additional_area
    areas = p.areas
    return {
        "seat": i,
        "funds": p.funds,
        "egg_marker": p.egg_marker,
        "egg_points": _EGG_POINTS[p.egg_marker],
        "nest_box": list(compress(_BOX_NAMES, p.nest_box)),
        "employee": _EMP_IDS[p.employee],
        "employee_areas": list(_EMP_AREAS[p.employee, bool(ax)]),
        "owner_space": p.track_space,
        "standby_slot": p.standby_slot,
        "finished_round": p.finished_round,
        "milestones_achieved": p.milestones_achieved,
        "claimed_slots": list(_CLAIMED[p.claimed_slots & 511]),
        "additional_area": ax,
        "areas": [_area(areas[ai], ai) for ai in range(_NAREA + 1 if ax else _NAREA)],
        "event_kept": card >= 0,
        "event_card": _EVENT_IDS[card] if revealed else "",
        "event_birds": list(_EVENT_BIRDS[card]) if revealed else [],
        "event_marker": marker,
        "event_vp": _EVENT_VP[card][marker] if marker >= 0 else -1,
        "dealt_events": [_EVENT_IDS[c] for c in p.dealt_events] if own and card < 0 else [],
        "setup_card": _SETUP_IDS[p.setup_card],
        "sections_done": list(_SECTIONS_DONE[p.sections_done & _SECTIONS_MASK]),
    }


def build_view(engine: Any, st: GameState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None = spectator)."""
    shared = KEPT["part_views"]
    track_cell = _track_cell if shared else _track_cell.__wrapped__
    standby_view = _standby if shared else _standby.__wrapped__
    special_view = _special if shared else _special.__wrapped__
    over = st.phase == Phase.OVER
    n = st.player_count
    turn = st.turn
    players = st.players
    lucy = st.lucy
    occupant = {p.track_space: i for i, p in enumerate(players) if p.track_space > 0}
    lucy_pos = lucy.track_space if lucy is not None else 0
    codes = st.track
    blue_down = st.blue_face_down
    track = []
    for space, _icons, _section in _TRACK_SPACES[n]:
        code = codes[space - 1]
        face_down = _BLUE_BASE <= code < _ORANGE_BASE and bool(blue_down[code - _BLUE_BASE])
        track.append(
            track_cell(n, space, code, face_down, occupant.get(space, -1), lucy_pos == space)
        )
    holders: dict[int, int] = {}
    for i, p in enumerate(players):
        holders.setdefault(p.standby_slot, i)
    lucy_slot = lucy.standby_slot if lucy is not None else None
    standby = [
        standby_view(slot, holders.get(slot, -1), lucy_slot == slot)
        for slot in range(_STANDBY_SLOTS)
    ]
    forest = st.forest
    revealed = events_revealed(st)
    seats = [_seat(p, i, seat == i, seat == i or revealed) for i, p in enumerate(players)]
    t_seat = turn.seat
    pending = [
        {
            "kind": entry.kind,
            "amount": entry.amount if entry.kind != Pending.ADJUST else 0,
            "area": entry.amount if entry.kind == Pending.ADJUST else -1,
        }
        for entry in turn.pending
    ]
    pbird = turn.chip_bird
    turn_view = {
        "seat": t_seat,
        "step": _STEP[turn.step] if t_seat >= 0 else "STEP_UNSPECIFIED",
        "space": turn.landed_space,
        "pending_bird": _BIRDS[pbird] if pbird >= 0 else "",
        "bird_choice": [_BIRDS[b] for b in turn.bird_choice],
        "employee_moved": turn.employee_moved,
        "forest_birds_bought": turn.forest_birds_bought,
        "space_action_used": turn.space_action_used,
        "pending": pending,
    }
    board = engine.score(st)
    scores = [
        {
            "seat": s.seat,
            "total": s.total,
            "rank": s.rank,
            "categories": [{"name": k, "points": v} for k, v in s.categories.items()],
        }
        for s in board.seats
    ]
    special = st.special_left
    early = st.early_bonus_left
    claims = st.milestone_claims
    view: dict[str, Any] = {
        "phase": _PHASE[st.phase],
        "players": n,
        "round": st.round,
        "rounds": st.rounds,
        "viewer_seat": -1 if seat is None else seat,
        "to_act": engine.to_act(st),
        "turn": turn_view,
        "track": track,
        "standby": standby,
        "lucy": {
            "present": lucy is not None,
            "space": lucy_pos,
            "standby_slot": lucy.standby_slot if lucy is not None else -1,
            "finished_round": bool(lucy.finished_round) if lucy is not None else False,
        },
        "forest": {
            "trees": forest.trees,
            "nests": forest.nests,
            "birds": _counts(forest.birds),
            "chips": [
                {"chip_bird": _BIRDS[c.chip_bird], "bird": _BIRDS[c.bird] if c.bird >= 0 else ""}
                for c in forest.chips
            ],
        },
        "supply": _counts(st.supply),
        "egg_supply": st.egg_supply,
        "special_cards": [special_view(k, special[k]) for k in range(_N_SPECIALS)],
        "bonus_birds": [_BIRDS[b] for b in range(D.NREG) if st.bonus_birds[b]],
        "birdcage": [
            {
                "slot": slot,
                "tile": _TILES[tile][0],
                "letter": _TILES[tile][1],
                "condition": _TILES[tile][2],
                "claimed_by": list(claims[slot]),
            }
            for slot, tile in enumerate(st.milestone_tiles)
        ],
        "line_bonuses": [_LINES[li][1 if early[li] else 0] for li in range(len(_LINES))],
        "seats": seats,
        "scores": scores,
        "final": board.final,
        "winners": board.winners if over else [],
    }
    solo = board.solo
    if solo is not None:
        view["solo"] = {
            "won": solo.won,
            "targets": list(solo.targets),
            "target_reached": solo.target_reached,
        }
    return view

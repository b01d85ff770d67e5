"""Per-seat views of a Sky Garden state (keys = fields of ``roost.skygarden.v1.View``).

Hidden: another seat's dealt and kept Event card (and so its Event marker and
Event VP) until the game is over; the generator state. The bag is empty after
each round's layout, so there is no draw order to hide.
"""

from __future__ import annotations

from typing import Any

from . import data as D
from .engine import (
    AFTER,
    CHIP,
    EVENT,
    MOVE,
    OVER,
    capacity,
    event_marker,
    icons_active,
    narea,
    used,
)

_PHASE = {EVENT: "PHASE_EVENT_CHOICE", "play": "PHASE_PLAY", OVER: "PHASE_GAME_OVER"}
_STEP = {MOVE: "STEP_MOVE", CHIP: "STEP_CHIP", AFTER: "STEP_AFTER"}


def _chip(code: int, face_down: bool) -> dict[str, Any]:
    if code < D.BLUE_BASE:
        return {"kind": "CHIP_KIND_BIRD", "birds": [D.BIRDS[code]], "face_down": False, "round": 0}
    if code < D.ORANGE_BASE:
        return {"kind": "CHIP_KIND_ADVERTISEMENT", "birds": [], "face_down": face_down, "round": 0}
    rnd = code - D.ORANGE_BASE
    return {
        "kind": "CHIP_KIND_ROUND",
        "birds": [D.BIRDS[b] for b in D.ORANGE[rnd]],
        "face_down": False,
        "round": rnd,
    }


def _counts(counts: list[int]) -> list[dict[str, Any]]:
    return [{"bird": D.BIRDS[i], "count": c} for i, c in enumerate(counts) if c]


def _area(p: dict[str, Any], ai: int) -> dict[str, Any]:
    a = p["areas"][ai]
    return {
        "area": ai,
        "id": D.AREA_IDS[ai],
        "birds": _counts(a["b"]),
        "nest": bool(a["n"]),
        "nest_birds": [D.BIRDS[b] for b in a["nb"]],
        "tree": bool(a["t"]),
        "lake": bool(a["l"]),
        "capacity": capacity(a),
        "used": used(a),
        "event_area": ai in D.EVENT_AREAS,
    }


def build_view(engine: Any, st: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None = spectator)."""
    over = st["phase"] == OVER
    n = st["n"]
    turn = st["turn"]
    players = st["players"]
    lucy = st["lucy"]
    occupant = {p["pos"]: i for i, p in enumerate(players) if p["pos"] > 0}
    lucy_pos = lucy["pos"] if lucy is not None else 0
    track = []
    for space in range(1, D.TRACK_LEN + 1):
        code = st["track"][space - 1]
        face_down = D.BLUE_BASE <= code < D.ORANGE_BASE and bool(
            st["blue_down"][code - D.BLUE_BASE]
        )
        track.append(
            {
                "space": space,
                "chip": _chip(code, face_down),
                "icons": icons_active(st, space),
                "occupant_seat": occupant.get(space, -1),
                "lucy": lucy_pos == space,
                "section": D.SECTION_OF[space] + 1 if n == 2 else 0,
            }
        )
    standby = []
    for slot in range(D.STANDBY_SLOTS):
        holder = next((i for i, p in enumerate(players) if p["slot"] == slot), -1)
        standby.append(
            {
                "slot": slot,
                "label": D.STANDBY_LABELS[slot],
                "vp": D.STANDBY_VP[slot],
                "occupant_seat": holder,
                "lucy": lucy is not None and lucy["slot"] == slot,
            }
        )
    forest = st["forest"]
    seats = []
    for i, p in enumerate(players):
        own = seat == i
        known = own or over
        card = p["event"]
        marker = event_marker(p) if known and card >= 0 else -1
        seats.append(
            {
                "seat": i,
                "funds": p["funds"],
                "egg_marker": p["egg"],
                "egg_points": D.EGG_POINTS[p["egg"]],
                "nest_box": [
                    ("golden_egg" if b == D.GOLDEN else D.BIRDS[b])
                    for b in range(D.BOX_SIZE)
                    if p["box"][b]
                ],
                "employee": D.EMP_IDS[p["emp"]],
                "employee_areas": list(D.EMP_ADJ[p["emp"]]) + ([D.AX] if p["ax"] else []),
                "owner_space": p["pos"],
                "standby_slot": p["slot"],
                "finished_round": p["done"],
                "milestones_achieved": p["nclaimed"],
                "claimed_slots": [s for s in range(9) if p["claimed"] >> s & 1],
                "additional_area": p["ax"],
                "areas": [_area(p, ai) for ai in range(narea(p))],
                "event_kept": card >= 0,
                "event_card": D.EVENT_IDS[card] if known and card >= 0 else "",
                "event_birds": [D.BIRDS[b] for b in D.EVENT_BIRDS[card]]
                if known and card >= 0
                else [],
                "event_marker": marker,
                "event_vp": D.EVENT_VP[card][marker] if marker >= 0 else -1,
                "dealt_events": [D.EVENT_IDS[c] for c in p["dealt"]] if own else [],
                "setup_card": D.SETUP_IDS[p["setup"]],
                "sections_done": [k + 1 for k in range(len(D.SECTIONS)) if p["sec"] >> k & 1],
            }
        )
    t_seat = turn["seat"]
    pending = [
        {
            "kind": entry[0],
            "amount": entry[1] if entry[0] != "adjust" else 0,
            "area": entry[1] if entry[0] == "adjust" else -1,
        }
        for entry in turn["pending"]
    ]
    turn_view = {
        "seat": t_seat,
        "step": _STEP[turn["step"]] if t_seat >= 0 else "STEP_UNSPECIFIED",
        "space": turn["land"],
        "pending_bird": D.BIRDS[turn["pbird"]] if turn["pbird"] >= 0 else "",
        "bird_choice": [D.BIRDS[b] for b in turn["choice"]],
        "employee_moved": turn["emp"],
        "forest_birds_bought": turn["fb"],
        "space_action_used": turn["space"],
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
    return {
        "phase": _PHASE[st["phase"]],
        "players": n,
        "round": st["round"],
        "rounds": st["rounds"],
        "viewer": -1 if seat is None else seat,
        "to_act": engine.to_act(st),
        "turn": turn_view,
        "track": track,
        "standby": standby,
        "lucy": {
            "present": lucy is not None,
            "space": lucy["pos"] if lucy is not None else 0,
            "standby_slot": lucy["slot"] if lucy is not None else -1,
            "finished_round": bool(lucy["done"]) if lucy is not None else False,
        },
        "forest": {
            "trees": forest["trees"],
            "nests": forest["nests"],
            "birds": _counts(forest["birds"]),
            "chips": [
                {"chip_bird": D.BIRDS[c], "bird": D.BIRDS[b] if b >= 0 else ""}
                for c, b in forest["chips"]
            ],
        },
        "supply": _counts(st["supply"]),
        "egg_supply": st["eggs"],
        "special_cards": [
            {
                "bird": D.SPC[k],
                "name": D.BIRD_NAME[D.NREG + k],
                "cost": D.SPECIAL_COST[k],
                "size": D.SIZE[D.NREG + k],
                "remaining": st["special"][k],
            }
            for k in range(len(D.SPC))
        ],
        "bonus_birds": [D.BIRDS[b] for b in range(D.NREG) if st["bonus"][b]],
        "birdcage": [
            {
                "slot": slot,
                "tile": D.TILE_IDS[tile],
                "letter": D.TILE_LETTER[tile],
                "condition": D.TILE_TEXT[tile],
                "claimed_by": list(st["claims"][slot]),
            }
            for slot, tile in enumerate(st["tiles"])
        ],
        "line_bonuses": [
            {
                "line": D.LINE_NAMES[li],
                "slots": list(D.LINE_SLOTS[li]),
                "early_bonus": D.bonus_text(D.LINE_EARLY[li]),
                "early_available": bool(st["early"][li]),
                "regular_bonus": D.bonus_text(D.LINE_REGULAR[li]),
            }
            for li in range(len(D.LINE_NAMES))
        ],
        "seats": seats,
        "scores": scores,
        "final": board.final,
        "winners": board.winners if over else [],
        "extras": dict(board.extras),
    }

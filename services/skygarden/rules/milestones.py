"""Achieve Milestone Tiles, and the Bonuses for Achieving Milestones (Early Bonus
Tiles, Regular Bonus Tiles) with the sub-decisions they queue."""

from __future__ import annotations

from typing import Any

from services.core.engine import Action

from . import actions as A
from . import data as D
from .aviary import bird_totals, fits
from .blue import legal_specials
from .breeding import advance_egg
from .economy import gain_funds
from .state import ALL_SLOTS, ELEMENT_COUNT, GameState, Pending, PendingDecision, Player, narea


def tile_ok(p: Player, tile: int, tot: list[int] | None = None) -> bool:
    """Achieve Milestone Tiles: does the player meet milestone ``tile``'s condition
    now? ``tot`` may pass precomputed :func:`.aviary.bird_totals`."""
    kind = D.TILE_KIND[tile]
    prm = D.TILE_PARAMS[tile]
    if kind == "funds_at_least":
        return p.funds >= prm
    if kind == "egg_marker_at_least":
        return p.egg_marker >= prm
    if kind == "total_birds":
        if tot is None:
            tot = bird_totals(p)
        return all(tot[b] >= n for b, n in prm)
    if kind == "total_special_birds":
        if tot is None:
            tot = bird_totals(p)
        return sum(tot[D.NREG :]) >= prm
    areas = p.areas[: narea(p)]
    if kind == "area_contains":
        for a in areas:
            b = a.birds
            for bird, n in prm:
                if b[bird] < n:
                    break
            else:
                return True
        return False
    if kind == "total_elements":
        return all(sum(map(ELEMENT_COUNT[e], areas)) >= n for e, n in prm)
    # area_bird_plus_special
    return any(a.birds[prm] and any(a.birds[D.NREG :]) for a in areas)


def legal_claims(st: GameState, p: Player, out: list[Action]) -> None:
    """Achieve Milestone Tiles (a Free Action): every unclaimed tile whose condition is
    met; several players may claim one tile (AMBIGUITIES 18)."""
    claimed = p.claimed_slots
    if claimed != ALL_SLOTS:
        tot = bird_totals(p)
        for slot, tile in enumerate(st.milestone_tiles):
            if not claimed >> slot & 1 and tile_ok(p, tile, tot):
                out.append(A.claim_milestone(slot, tile))


def claim_milestone(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Achieve Milestone Tiles: claim the slot; each line it completes gives its bonus:
    the Early Bonus Tile to the first player only (AMBIGUITIES 19; solo: always),
    the Regular Bonus Tile otherwise."""
    slot = args["slot"]
    p = st.players[seat]
    p.claimed_slots |= 1 << slot
    p.milestones_achieved += 1
    st.milestone_claims[slot].append(seat)
    for li in D.SLOT_LINES[slot]:
        if all(p.claimed_slots >> s & 1 for s in D.LINE_SLOTS[li]):
            early = D.LINE_EARLY[li]
            if early is not None and st.early_bonus_left[li]:
                st.early_bonus_left[li] = False
                bonus = early
            elif early is not None and st.player_count == 1:
                bonus = early  # solo: always the Early Bonus tile's bonus
            else:
                bonus = D.LINE_REGULAR[li]
            gain_bonus(st, p, bonus)


def gain_bonus(st: GameState, p: Player, bonus: dict[str, Any]) -> None:
    """Bonuses for Achieving Milestones: funds and eggs at once, the rest queued as a
    sub-decision (AMBIGUITIES 16, 17)."""
    kind = bonus["type"]
    pending = st.turn.pending
    if kind == "funds":
        gain_funds(p, bonus["amount"])
    elif kind == "special_bird_purchase":
        pending.append(PendingDecision(Pending.SPECIAL, bonus["discount"]))
    elif kind == "bonus_bird":
        pending.append(PendingDecision(Pending.BONUS_BIRD, 1))
    elif kind == "elements":
        pending.append(PendingDecision(Pending.ELEMENTS, bonus["amount"]))
    elif kind == "golden_egg":
        if p.nest_box[D.GOLDEN]:
            advance_egg(p, 1)
        elif st.egg_supply > 0:
            p.nest_box[D.GOLDEN] = 1
            st.egg_supply -= 1
    elif kind == "egg_token_of_choice":
        if all(p.nest_box[b] for b in D.BOX_ICONS):
            advance_egg(p, 1)
        elif st.egg_supply > 0:
            pending.append(PendingDecision(Pending.EGG, 1))
    elif kind == "egg_marker":
        advance_egg(p, bonus["amount"])
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown bonus {kind}")


# ---------------------------------------------------------------- pending bonuses


def legal_special_bonus(st: GameState, p: Player, discount: int) -> list[Action]:
    """Bonuses for Achieving Milestones: a special bird at a discount, always optional
    (AMBIGUITIES 17)."""
    out: list[Action] = []
    legal_specials(st, p, discount, out)
    out.append(A.SKIP_BONUS)
    return out


def legal_bonus_bird(st: GameState, p: Player, amount: int) -> list[Action]:
    """Regular Bonus Tiles: a bird of the bonus-bird row, in any area it fits
    (AMBIGUITIES 13: skipped when none can be taken)."""
    out: list[Action] = []
    areas = p.areas
    na = narea(p)
    for bird in range(D.NREG):
        if st.bonus_birds[bird]:
            for ai in range(na):
                if fits(areas[ai], bird):
                    out.append(A.BONUS_BIRD[bird][ai])
    return out or [A.SKIP_BONUS]


def legal_bonus_elements(st: GameState, p: Player, amount: int) -> list[Action]:
    """Regular Bonus Tiles: a tree, lake or nest for an area (AMBIGUITIES 13)."""
    out: list[Action] = []
    areas = p.areas
    forest = st.forest
    for ai in range(narea(p)):
        a = areas[ai]
        if ai < D.NAREA and not a.tree and not a.lake:
            if forest.trees > 0:
                out.append(A.BONUS_ELEMENT["tree"][ai])
            out.append(A.BONUS_ELEMENT["lake"][ai])
        if not a.nest and forest.nests > 0:
            out.append(A.BONUS_ELEMENT["nest"][ai])
    return out or [A.SKIP_BONUS]


def legal_bonus_egg(st: GameState, p: Player, amount: int) -> list[Action]:
    """Regular Bonus Tiles: an egg token of a type not yet in the Nest Box
    (AMBIGUITIES 16)."""
    out: list[Action] = []
    if st.egg_supply > 0:
        for bird in D.BOX_ICONS:
            if not p.nest_box[bird]:
                out.append(A.BONUS_EGG[bird])
    return out or [A.SKIP_BONUS]


def bonus_bird(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Regular Bonus Tiles: take the bird from the bonus-bird row into an area."""
    bird = D.BIDX[args["bird"]]
    st.bonus_birds[bird] = 0
    st.players[seat].areas[args["area"]].birds[bird] += 1
    st.turn.pending.pop(0)


def bonus_element(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Regular Bonus Tiles: place one of the bonus's trees, lakes or nests."""
    a = st.players[seat].areas[args["area"]]
    element = args["element"]
    if element == "tree":
        st.forest.trees -= 1
        a.tree = 1
    elif element == "lake":
        a.lake = 1
    else:
        st.forest.nests -= 1
        a.nest = 1
    pending = st.turn.pending
    left = pending[0].amount - 1
    if left <= 0:
        pending.pop(0)
    else:
        pending[0] = pending[0]._replace(amount=left)


def bonus_egg(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Regular Bonus Tiles: the chosen egg token goes into the Nest Box
    (AMBIGUITIES 16)."""
    st.players[seat].nest_box[D.BIDX[args["bird"]]] = 1
    st.egg_supply -= 1
    st.turn.pending.pop(0)


def skip_bonus(st: GameState, seat: int, args: dict[str, Any]) -> None:
    """Bonuses for Achieving Milestones: a bonus not taken is lost (AMBIGUITIES 17)."""
    st.turn.pending.pop(0)

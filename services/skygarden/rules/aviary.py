"""The aviary: area sizes, where a bird may go, nests and breeding pairs, the Forest.

Placement Rules, Nest Tile, and the Forest board's loose birds and chips.
"""

from __future__ import annotations

from . import data as D
from .state import Area, GameState, Pending, PendingDecision, Player, narea


def capacity(a: Area) -> int:
    """Placement Rules: an area holds its base size, plus a bonus with a tree or a lake."""
    return D.AREA_BASE + (D.AREA_BONUS if a.tree or a.lake else 0)


def used(a: Area) -> int:
    """Placement Rules: the room taken in an area, the total size of its bird tokens."""
    total = 0
    size = D.SIZE
    for i, c in enumerate(a.birds):
        if c:
            total += size[i] * c
    return total


def fits(a: Area, bird: int) -> bool:
    """Placement Rules: room for the bird, and one special bird of a kind per area
    (AMBIGUITIES 15)."""
    if bird >= D.NREG and a.birds[bird]:
        return False
    return used(a) + D.SIZE[bird] <= capacity(a)


def nest_pair_ok(nb: list[int], bird: int) -> bool:
    """Place and Remove Bird Tokens on Nest Tiles: can ``bird`` join the nest holding
    ``nb``? (two Regular birds of one type, or a Java-Sparrow-like partner with one
    Regular bird; AMBIGUITIES 15)."""
    reg = D.NREG
    partners = D.NEST_PARTNERS
    if len(nb) >= D.NEST_CAP:
        return False
    if not nb:
        return bird < reg or bird in partners
    x = nb[0]
    if x < reg and bird < reg:
        return x == bird
    if x in partners:
        return bird < reg
    if bird in partners:
        return x < reg
    return False


def nest_egg_type(nb: list[int]) -> int:
    """Nest Tile: the egg type a full nest (a breeding pair) lays, or -1."""
    if len(nb) != 2:
        return -1
    x, y = nb
    reg = D.NREG
    if x < reg and y < reg:
        return x if x == y else -1
    if x in D.NEST_PARTNERS and y < reg:
        return y
    if y in D.NEST_PARTNERS and x < reg:
        return x
    return -1


def bird_totals(p: Player) -> list[int]:
    """Game End and Final Scoring (and milestones, advertisements): tokens of each
    bird type over all the player's areas (AMBIGUITIES 22)."""
    tot = [0] * D.NB
    for a in p.areas[: narea(p)]:
        for i, c in enumerate(a.birds):
            if c:
                tot[i] += c
    return tot


def remove_bird(a: Area, bird: int) -> None:
    """Move to the Forest Board and Refill Lakes: a bird leaves an area; when the
    area no longer has one for its nest, it leaves the nest too."""
    a.birds[bird] -= 1
    nb = a.nest_birds
    if a.birds[bird] < nb.count(bird):
        nb.remove(bird)


def check_shrink(st: GameState, ai: int, a: Area) -> None:
    """Move to the Forest Board and Refill Lakes: an area that lost its tree or lake
    and no longer fits its birds asks for an adjustment (birds to the Forest)."""
    if used(a) > capacity(a):
        st.turn.pending.append(PendingDecision(Pending.ADJUST, ai))


def forest_has(st: GameState, bird: int) -> bool:
    """Additional Purchases: is a bird of this type on the Forest board (loose or on a
    chip)?"""
    forest = st.forest
    if forest.birds[bird]:
        return True
    return any(chip.bird == bird for chip in forest.chips)


def take_forest_bird(st: GameState, bird: int) -> None:
    """Additional Purchases: take a Forest bird, a loose one first, else one from a
    chip (which is not replenished, AMBIGUITIES 20)."""
    forest = st.forest
    if forest.birds[bird]:
        forest.birds[bird] -= 1
        return
    for chip in forest.chips:
        if chip.bird == bird:
            chip.bird = -1  # not replenished
            return

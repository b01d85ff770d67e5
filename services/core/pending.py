"""Decision epochs: which seats may still decide on an older version.

The rule (simultaneous decisions that do not collide): an Apply by seat ``s``
that names ``expected_version`` ``v`` while the game is at version ``V`` is
accepted when ``v == V``, or when ``v < V`` and the seat's pending decision is
the one it was at ``v``: ``s`` is still asked to decide at ``V`` and its
*epoch*, the version at which its current pending decision began, is at most
``v``. The decision is then applied to the state at ``V`` (and written with a
compare-and-set on ``V``). Anything else is stale (ABORTED).

A seat's pending decision is its legal list. It begins anew (the epoch becomes
the new version) when the seat acts, when it comes to be asked, and when
another seat's decision changes the seat's legal list (compared by
:func:`legal_digest`). So an ``action_id`` (an index into the legal list)
names the same action at ``v`` and at ``V``, and a seat's decision can only
ever be applied once: acting moves its own epoch past every version it has
decided on.

The epochs of the seats asked to decide are stored with the game (the game
hash's ``pending`` field) as compact JSON ``{"at": version, "seats": {"<seat>":
[epoch, digest]}}``, written by the same script as the state. Epochs stored
for another version than the game's (written before a replica that does not
keep them wrote the game) are ignored: only the current version is accepted
then. A digest is computed only for a seat that stays asked while another
seat acts (empty otherwise), so a turn-by-turn game never computes a legal
list for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import orjson

from services.core.engine import Action


@dataclass(frozen=True, slots=True)
class Epoch:
    """One seat's pending decision: since which version, and its legal list's digest."""

    #: The version at which the seat's current pending decision began.
    since: int
    #: :func:`legal_digest` of the seat's legal list, or "" when not computed.
    digest: str = ""


#: Seat -> its epoch, for every seat asked to decide (no entry: not asked).
Pending = dict[int, Epoch]


def legal_digest(actions: Sequence[Action]) -> str:
    """A stable digest of a legal list: kinds, args and labels in order (the
    same in every process, unlike Python's ``hash``)."""
    body = orjson.dumps([(a.kind, a.args, a.label) for a in actions])
    return hashlib.blake2b(body, digest_size=12).hexdigest()


def encode(pending: Pending, version: int) -> str:
    """The stored form of the epochs at ``version``."""
    seats = {str(s): [e.since, e.digest] for s, e in pending.items()}
    return orjson.dumps({"at": version, "seats": seats}).decode()


def decode(raw: bytes | str, version: int) -> Pending | None:
    """The stored epochs, when they were written with ``version`` (the game's
    stored version); None otherwise, and then only the current version is
    accepted."""
    if not raw:
        return None
    stored = orjson.loads(raw)
    if stored.get("at") != version:
        return None
    return {int(s): Epoch(int(v[0]), str(v[1])) for s, v in stored["seats"].items()}


def may_decide_late(pending: Pending | None, seat: int, expected: int, current: int) -> bool:
    """True when ``seat``'s decision made on ``expected`` still stands at ``current``."""
    if pending is None or not 0 < expected < current:
        return False
    epoch = pending.get(seat)
    return epoch is not None and epoch.since <= expected


def others_before(
    pending: Pending | None,
    to_act_before: Iterable[int],
    actor: int,
    legal_before: Callable[[int], Sequence[Action]],
) -> dict[int, str]:
    """The legal digests, before the actor's decision, of the other seats asked
    to decide (stored ones reused; the rest computed from the state before)."""
    digests: dict[int, str] = {}
    for other in to_act_before:
        if other == actor:
            continue
        stored = pending.get(other) if pending else None
        digests[other] = (
            stored.digest if stored and stored.digest else legal_digest(legal_before(other))
        )
    return digests


def after_decision(
    pending: Pending | None,
    version: int,
    actor: int,
    to_act_after: Iterable[int],
    digests_before: dict[int, str],
    legal_after: Callable[[int], Sequence[Action]],
) -> Pending:
    """The epochs at ``version``, the one the actor's decision produces: the
    actor's and newly asked seats' decisions begin at ``version``; another
    seat keeps its epoch exactly when its legal list is unchanged."""
    result: Pending = {}
    for seat in to_act_after:
        before = digests_before.get(seat)
        if seat == actor or before is None:
            result[seat] = Epoch(version)
            continue
        digest = legal_digest(legal_after(seat))
        kept = pending.get(seat) if pending else None
        since = kept.since if kept is not None and digest == before else version
        result[seat] = Epoch(since, digest)
    return result

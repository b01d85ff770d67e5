"""The pure matching policy: FCFS, rating windows, parties, bot fill."""

from __future__ import annotations

from services.matchmaking.matching import (
    QueuedTicket,
    WindowPolicy,
    failed_tickets,
    propose,
)

POLICY = WindowPolicy(base=2.0, per_second=1.0, maximum=50.0)


def ticket(
    name: str,
    seq: int,
    counts: tuple[int, ...] = (2,),
    size: int = 1,
    rating: float = 25.0,
    enqueued_ms: int = 0,
    options: str = "{}",
    bots: bool = False,
    bot_after_ms: int = 0,
) -> QueuedTicket:
    return QueuedTicket(name, seq, enqueued_ms, counts, options, size, rating, bots, bot_after_ms)


def ids(proposals) -> list[list[str]]:
    return [[t.ticket_id for t in p.tickets] for p in proposals]


def test_first_come_first_served_pairs() -> None:
    queue = [ticket(n, i) for i, n in enumerate("abcde")]
    assert ids(propose(queue, 0, POLICY)) == [["a", "b"], ["c", "d"]]


def test_rating_window_widens_with_waiting() -> None:
    queue = [ticket("a", 1, rating=25.0), ticket("b", 2, rating=35.0)]
    assert propose(queue, 0, POLICY) == []
    # After 8 s the window of "a" is 2 + 8 = 10 mu: close enough.
    assert ids(propose(queue, 8_000, POLICY)) == [["a", "b"]]


def test_within_the_window_the_oldest_come_first() -> None:
    queue = [
        ticket("a", 1, rating=25.0),
        ticket("far", 2, rating=40.0),
        ticket("b", 3, rating=26.0),
        ticket("c", 4, rating=24.5),
    ]
    assert ids(propose(queue, 0, POLICY)) == [["a", "b"]]


def test_parties_are_never_split_and_fill_exactly() -> None:
    queue = [
        ticket("solo1", 1, counts=(4,)),
        ticket("trio", 2, counts=(4,), size=3),
        ticket("duo", 3, counts=(4,), size=2),
        ticket("solo2", 4, counts=(4,)),
    ]
    (proposal,) = propose(queue, 0, POLICY)
    assert [t.ticket_id for t in proposal.tickets] == ["solo1", "trio"]
    assert proposal.humans == 4 and proposal.players == 4


def test_largest_acceptable_count_first() -> None:
    queue = [ticket(n, i, counts=(2, 3)) for i, n in enumerate("abc")]
    (proposal,) = propose(queue, 0, POLICY)
    assert proposal.players == 3


def test_options_must_match() -> None:
    queue = [ticket("a", 1, options='{"x":1}'), ticket("b", 2), ticket("c", 3, options='{"x":1}')]
    assert ids(propose(queue, 0, POLICY)) == [["a", "c"]]


def test_bots_fill_after_the_wait_only() -> None:
    queue = [ticket("a", 1, counts=(2, 3), bots=True, bot_after_ms=1000)]
    assert propose(queue, 500, POLICY) == []
    (proposal,) = propose(queue, 1500, POLICY)
    assert proposal.players == 2 and proposal.bots == 1


def test_bot_fill_prefers_more_humans() -> None:
    queue = [
        ticket("a", 1, counts=(2, 3, 4), bots=True, bot_after_ms=0),
        ticket("b", 2, counts=(3,), bots=True, bot_after_ms=0),
    ]
    (proposal,) = propose(queue, 10, POLICY)
    assert proposal.players == 3 and proposal.bots == 1
    assert [t.ticket_id for t in proposal.tickets] == ["a", "b"]


def test_refused_counts_are_skipped_and_hopeless_tickets_fail() -> None:
    queue = [ticket(n, i, counts=(2, 5)) for i, n in enumerate("abcde")]
    refused = [(5, "{}")]
    assert all(p.players == 2 for p in propose(queue, 0, POLICY, refused))
    only_five = [ticket("x", 1, counts=(5,))]
    assert [t.ticket_id for t in failed_tickets(only_five, refused)] == ["x"]
    assert failed_tickets(queue, refused) == []


def test_a_waiting_anchor_does_not_block_younger_tickets() -> None:
    queue = [ticket("lonely", 1, counts=(4,)), ticket("b", 2), ticket("c", 3)]
    assert ids(propose(queue, 0, POLICY)) == [["b", "c"]]


def test_a_private_table_is_a_match_of_its_own_at_once_and_never_joins_others() -> None:
    table = QueuedTicket("t", 2, 0, (3,), "{}", 1, 25.0, bots=True, private=True, table_bots=2)
    queue = [ticket("a", 1, counts=(3,)), table, ticket("b", 3, counts=(3,)), ticket("c", 4, (3,))]
    # Left to the Enqueue call that queued it for a moment, then proposed alone.
    assert ids(propose(queue, 999, POLICY)) == [["a", "b", "c"]]
    proposals = propose(queue, 1000, POLICY)
    assert ids(proposals) == [["a", "b", "c"], ["t"]]
    (private,) = [p for p in proposals if p.tickets[0].private]
    assert (private.players, private.bots) == (3, 2)
    # Alone with strangers who also allow bots, it still takes nobody in.
    strangers = [ticket("s", 3, counts=(3,), bots=True)]
    assert ids(propose([table, *strangers], 10_000, POLICY)) == [["t"], ["s"]]


def test_a_refused_private_table_is_not_proposed_and_fails() -> None:
    table = QueuedTicket("t", 1, 0, (6,), "{}", 1, 25.0, private=True, table_bots=5)
    assert propose([table], 5000, POLICY, refused=[(6, "{}")]) == []
    assert failed_tickets([table], [(6, "{}")]) == [table]

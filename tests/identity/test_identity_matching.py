"""Matching never seats one player id twice in a game (services/matchmaking/matching.py:
"share no player id with the group"), over 200+ matched games of queues where
the same ids queue many times, alone and in parties."""

from __future__ import annotations

import random

from services.matchmaking.matching import QueuedTicket, WindowPolicy, propose


def queue_of(rng: random.Random, size: int, ids: list[str]) -> list[QueuedTicket]:
    tickets = []
    for seq in range(size):
        party = frozenset(rng.sample(ids, rng.choice([1, 1, 1, 2])))
        tickets.append(
            QueuedTicket(
                ticket_id=f"t{seq}",
                seq=seq,
                enqueued_ms=seq,
                counts=(2, 3, 4),
                options="{}",
                size=len(party),
                rating=0.0,
                bots=rng.random() < 0.3,
                bot_after_ms=0,
                players=party,
            )
        )
    return tickets


def test_no_player_id_takes_two_seats_of_one_matched_game() -> None:
    rng = random.Random(28)
    policy = WindowPolicy(base=1000.0)
    matched = 0
    while matched < 200:
        queue = queue_of(rng, 40, [f"p{i}" for i in range(6)])
        for proposal in propose(queue, now_ms=10_000, policy=policy):
            seated = [p for t in proposal.tickets for p in t.players]
            assert len(seated) == len(set(seated)), seated
            assert proposal.humans + proposal.bots == proposal.players
            matched += 1


def test_tickets_of_distinct_players_still_match() -> None:
    """The rule refuses only shared ids: two different players make a game."""
    queue = [
        QueuedTicket("x", 0, 0, (2,), "{}", 1, 0.0, players=frozenset({"a"})),
        QueuedTicket("y", 1, 0, (2,), "{}", 1, 0.0, players=frozenset({"a"})),
        QueuedTicket("z", 2, 0, (2,), "{}", 1, 0.0, players=frozenset({"b"})),
    ]
    (proposal,) = propose(queue, now_ms=0, policy=WindowPolicy())
    assert [t.ticket_id for t in proposal.tickets] == ["x", "z"]

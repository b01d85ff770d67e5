"""Prometheus metrics of the matchmaker (beside the platform's RPC metrics)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

TICKETS = Counter(
    "roost_mm_tickets_total", "Ticket transitions made by this process, by game and status",
    ["game", "status"],
)  # fmt: skip
MATCHES = Counter(
    "roost_mm_matches_total", "Games created by this process, by game and player count",
    ["game", "players"],
)  # fmt: skip
BOT_SEATS = Counter("roost_mm_bot_seats_total", "Seats filled with house bots", ["game"])
QUEUE_WAIT = Histogram(
    "roost_mm_queue_wait_seconds", "Time from enqueue to assignment, by game",
    ["game"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300),
)  # fmt: skip
GAMES_RATED = Counter("roost_mm_games_rated_total", "Finished games rated", ["game"])

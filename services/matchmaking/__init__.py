"""The Roost matchmaker: tickets, matching by rating, game creation, ratings.

Modules, from the bottom up:

* :mod:`.config`    settings read from the environment
* :mod:`.keys`      every Redis key the matchmaker uses (``roost:mm:...``)
* :mod:`.matching`  the pure matching policy (no I/O)
* :mod:`.tickets`   the ticket store: atomic Lua transitions of tickets
* :mod:`.ratings`   OpenSkill ratings per game and the leaderboard
* :mod:`.games`     generic gRPC clients of the game services (from the registry)
* :mod:`.bots`      the house bots that fill empty seats
* :mod:`.supervisor` watches created games: plays bot seats, rates finished games
* :mod:`.engine`    the matchmaker process: matching loop, expiry, notifications
* :mod:`.metrics`   Prometheus metrics (tickets, matches, queue wait, ratings)
* :mod:`.service`   the thin gRPC servicer
"""

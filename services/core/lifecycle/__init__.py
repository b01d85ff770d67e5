"""How a game ends among strangers: clocks, timeouts, resign, abort, rematch and caps.

The pure parts (no I/O) decide; the service writes what they decide through
the same versioned compare-and-set as an Apply:

* :mod:`.timecontrol` – the time control chosen at NewGame, checked and stored.
* :mod:`.clock` – each seat's clock, charged from the server's write times.
* :mod:`.record` – the lifecycle record stored with the game (clock, who left,
  the ending, the decision counters).
* :mod:`.progress` – per-game caps on decisions and on decisions without progress.
* :mod:`.house_bot` – the deterministic move the house bot makes for a seat.
* :mod:`.ending` – the score board of a game that ended (or goes on) with leavers.
* :mod:`.expiry` – the deadline set in Redis that every replica polls.
* :mod:`.slots` – where a deadline entry lives on Redis Cluster (slot buckets, game ids).
"""

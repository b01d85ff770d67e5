"""OpenSkill ratings per game, updated exactly once per finished game.

Each game has its own ratings (``roost:mm:{<game>}:ratings``, player id ->
JSON ``{mu, sigma, games, wins}``) and leaderboard (``roost:mm:{<game>}:board``,
player id by ordinal ``mu - 3 sigma``). A finished game is rated with the
Plackett-Luce model from its final ranks (tied seats share a rank).

The update is computed in Python from the ratings read, then written by one Lua
compare-and-set that checks the game has not been rated yet and that none of
those ratings changed since they were read (retry otherwise). Two matchmakers
watching the same game therefore rate it once, and concurrent games never
lose an update. A player id that holds several seats of one game (e.g. two
``bot:random`` seats) gets the mean of its seats' updates.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from services.matchmaking import keys

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
RATED_MARKER_TTL = 7 * 24 * 3600
MAX_RETRIES = 20

# KEYS: ratings, board, marker. ARGV: marker ttl, n, then per player:
# id, expected JSON ('' = unrated), new JSON, ordinal.
_RATE = """
if redis.call('EXISTS', KEYS[3]) == 1 then return 'DONE' end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  local current = redis.call('HGET', KEYS[1], ARGV[3 + 4 * i]) or ''
  if current ~= ARGV[4 + 4 * i] then return 'RETRY' end
end
for i = 0, n - 1 do
  local id = ARGV[3 + 4 * i]
  redis.call('HSET', KEYS[1], id, ARGV[5 + 4 * i])
  redis.call('ZADD', KEYS[2], ARGV[6 + 4 * i], id)
end
redis.call('SET', KEYS[3], '1', 'EX', ARGV[1])
return 'OK'
"""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's rating in one game."""

    player_id: str
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """Conservative skill estimate."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> str:
        """Stored form."""
        return json.dumps(
            {"mu": self.mu, "sigma": self.sigma, "games": self.games, "wins": self.wins},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, player_id: str, raw: bytes | str | None) -> PlayerRating:
        """Parse a stored rating (defaults when absent)."""
        if not raw:
            return cls(player_id)
        d = json.loads(raw)
        return cls(player_id, d["mu"], d["sigma"], d.get("games", 0), d.get("wins", 0))


def rate_result(
    current: dict[str, PlayerRating], seats: Sequence[tuple[str, int]]
) -> dict[str, PlayerRating]:
    """New ratings after one game; ``seats`` is (player id, rank) per seat, rank 1 best."""
    model = PlackettLuce()
    teams = [[model.rating(mu=current[p].mu, sigma=current[p].sigma, name=p)] for p, _ in seats]
    ranks = [float(rank) for _, rank in seats]
    rated = model.rate(teams, ranks=ranks)
    updates: dict[str, list[tuple[float, float, bool]]] = defaultdict(list)
    for (player, rank), team in zip(seats, rated, strict=True):
        updates[player].append((team[0].mu, team[0].sigma, rank == 1))
    out: dict[str, PlayerRating] = {}
    for player, values in updates.items():
        before = current[player]
        out[player] = PlayerRating(
            player,
            mu=sum(v[0] for v in values) / len(values),
            sigma=sum(v[1] for v in values) / len(values),
            games=before.games + 1,
            wins=before.wins + (1 if any(v[2] for v in values) else 0),
        )
    return out


class RatingBook:
    """Ratings and leaderboards of every game in Redis."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._rate = client.register_script(_RATE)

    async def _raw(self, game: str, player_ids: Sequence[str]) -> list[bytes | None]:
        if not player_ids:
            return []
        return list(await self.client.hmget(keys.ratings(game), list(player_ids)))

    async def get(self, game: str, player_ids: Sequence[str]) -> list[PlayerRating]:
        """Ratings of ``player_ids`` in request order (defaults for the unrated)."""
        raws = await self._raw(game, player_ids)
        return [PlayerRating.from_json(p, r) for p, r in zip(player_ids, raws, strict=True)]

    async def record(self, game: str, game_id: str, seats: Sequence[tuple[str, int]]) -> bool:
        """Rate one finished game; False when it had already been rated."""
        players = sorted({p for p, _ in seats})
        for _ in range(MAX_RETRIES):
            raws = await self._raw(game, players)
            current = {p: PlayerRating.from_json(p, r) for p, r in zip(players, raws, strict=True)}
            new = rate_result(current, seats)
            args: list[Any] = [RATED_MARKER_TTL, len(players)]
            for p, raw in zip(players, raws, strict=True):
                args.extend([p, raw or b"", new[p].to_json(), repr(new[p].ordinal)])
            outcome = await self._rate(
                keys=[keys.ratings(game), keys.board(game), keys.rated(game, game_id)], args=args
            )
            outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
            if outcome == "OK":
                return True
            if outcome == "DONE":
                return False
        raise RuntimeError(f"could not rate game {game_id}: too much contention")

    async def leaderboard(
        self, game: str, offset: int, limit: int
    ) -> tuple[list[PlayerRating], int]:
        """Players from ``offset``, best first, and the number of rated players."""
        ids = await self.client.zrevrange(keys.board(game), offset, offset + limit - 1)
        total = await self.client.zcard(keys.board(game))
        players = [i.decode() if isinstance(i, bytes) else i for i in ids]
        return await self.get(game, players), int(total)

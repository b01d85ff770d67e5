"""The game services' identity step: NewGame per verified identity per window.

A game service holds no player ids (seats are proven by seat tokens), so a
bearer token there only names who creates games: a token, when sent, must
verify (UNAUTHENTICATED otherwise), and a verified identity may create at most
``LIMIT_NEW_GAMES`` games per ``LIMIT_WINDOW_SECONDS`` (RESOURCE_EXHAUSTED,
``ERROR_REASON_LIMIT_NEW_GAMES``, with a ``google.rpc.RetryInfo``). Calls
without a token (the matchmaker, a local CLI) are served as before.
"""

from __future__ import annotations

from typing import Any

from services.core.identity.limits import Limiter
from services.core.identity.settings import IdentitySettings
from services.core.identity.verifier import Identity, Verifier


class GameCallers:
    """The check NewGame makes before creating a game."""

    def __init__(self, settings: IdentitySettings, client: Any) -> None:
        self.verifier = Verifier(settings, client)
        self.new_games = Limiter(
            client,
            "new_games",
            "ERROR_REASON_LIMIT_NEW_GAMES",
            settings.new_game_limit,
            int(settings.limit_window_seconds * 1000),
        )

    async def admit_new_game(self, context: Any) -> Identity | None:
        """The verified creator (None: anonymous), counted against its limit."""
        identity = await self.verifier.caller(context)
        if identity is not None:
            await self.new_games.hit(identity.subject)
        return identity

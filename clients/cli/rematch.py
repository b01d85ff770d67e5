"""Rematch from the terminal: ``roost rematch GAME_ID`` and ``rematch`` at the
prompt of ``roost play`` once the game has ended.

One call, ``OfferRematch`` (an offer is the seat's acceptance, as on the web):
made again, it tells whether the others have accepted. The new game has the
same seats, rotated by one (old seat ``s`` plays ``(s - 1) mod players``), and
starts when every seat that is waited for has accepted (docs/CLIENTS.md,
"Rematch"). The bot seats this terminal started (their tokens are in the
session file) accept with the human's call, and are started again in the
rematch once it begins. The new seat's token goes to the session file, so
``roost play NEW_ID --seat N`` finds it.
"""

from __future__ import annotations

import time
from argparse import Namespace
from collections.abc import Callable
from typing import Any

from rich.console import Console

from clients import sessions
from clients.bots.pool import BotSeat
from clients.cli.render.common import seat_text
from clients.registry import ServiceInfo
from clients.rpc import Exit, Retry, channel, metadata

CALL_TIMEOUT = 15.0
#: How often ``roost rematch --wait`` asks again.
WAIT_POLL_SECONDS = 1.0


class Rematcher:
    """Offers (and checks) the rematch of one ended game for one seat."""

    def __init__(self, info: ServiceInfo, address: str, stub: Any, game_id: str, token: str):
        self.info = info
        self.address = address
        self.stub = stub
        self.game_id = game_id
        self.token = token
        self.m = info.messages()
        self.retry = Retry(f"{info.title} service", address)
        self._bots_started = False

    def _offer(self, token: str) -> Any:
        request = self.m.OfferRematchRequest(game_id=self.game_id)
        md = metadata(token)
        return self.retry.call(
            lambda: self.stub.OfferRematch(request, metadata=md, timeout=CALL_TIMEOUT)
        ).rematch

    def offer(self) -> Any:
        """Accept for this terminal's bot seats, then for the seat; the Rematch."""
        session = sessions.get(self.game_id) or {}
        bot_kinds = {int(s): k for s, k in session.get("bots", {}).items()}
        bots: dict[int, tuple[str, Any]] = {}
        for seat, token in session.get("bot_tokens", {}).items():
            if int(seat) in bot_kinds:
                bots[int(seat)] = (bot_kinds[int(seat)], self._offer(token).credential)
        rematch = self._offer(self.token)
        me = rematch.credential
        sessions.save(
            rematch.game_id, self.info.name, self.address, {me.seat: me.token},
            {c.seat: kind for kind, c in bots.values()},
            {c.seat: c.token for _, c in bots.values()},
        )  # fmt: skip
        if rematch.started and bots and not self._bots_started:
            from clients.cli.commands.common import spawn_bots  # not at import: a cycle

            seats = [
                BotSeat(self.info.name, self.address, rematch.game_id, c.seat, c.token, kind)
                for kind, c in bots.values()
            ]
            pid, log_path = spawn_bots(rematch.game_id, seats)
            sessions.set_bot_process(rematch.game_id, pid, log_path)
            self._bots_started = True
        return rematch


def describe(rematch: Any, names: dict[int, str], print_line: Callable[[str], None]) -> None:
    """Whom the rematch waits for, or the new game and the command to play it."""
    me = rematch.credential
    if rematch.started:
        print_line(f"The rematch has started: game {rematch.game_id}; you are seat {me.seat}.")
        print_line(f"Play it with: roost play {rematch.game_id} --seat {me.seat}")
        return
    awaited = ", ".join(seat_text(s, names) for s in rematch.awaited_seats)
    print_line(
        f"Rematch offered (game {rematch.game_id}, you will be seat {me.seat}); "
        f"waiting for {awaited} to accept."
    )


def cmd_rematch(args: Namespace, console: Console) -> int:
    """``roost rematch GAME_ID``: offer (or accept) the rematch of an ended game."""
    from clients.cli.commands.common import resolve_game, seat_token

    info, address = resolve_game(args.game_id, args.game, args.target)
    token = seat_token(args)
    with channel(address) as ch:
        stub = info.stub(ch)
        state = stub.GetState(
            info.messages().GetStateRequest(game_id=args.game_id),
            metadata=metadata(token),
            timeout=CALL_TIMEOUT,
        )
        names = {s.seat: s.name for s in state.seats}
        rematcher = Rematcher(info, address, stub, args.game_id, token)
        rematch = rematcher.offer()
        if args.wait and not rematch.started:
            describe(rematch, names, lambda text: console.print(text, highlight=False))
            while not rematch.started:
                time.sleep(WAIT_POLL_SECONDS)
                rematch = rematcher.offer()
    describe(rematch, names, lambda text: console.print(text, highlight=False))
    return Exit.OK

"""``roost play``: one seat, interactively, in the terminal.

The loop: read the state; when the game is over, show the final scores; when
the seat must decide, draw the board, list the numbered legal actions, read a
choice from standard input and Apply it (chaining on the reply's
``next_actions`` for compound turns); otherwise follow Watch, printing what the
others do, until the seat is asked again.
"""

from __future__ import annotations

import sys
import uuid
from typing import Any

import grpc
from rich.console import Console
from roost.common.v1 import common_pb2

from clients.cli import render
from clients.registry import ServiceInfo
from clients.rpc import CliError, Exit, Retry, channel, explain, metadata, retryable

FINISHED = common_pb2.GAME_STATUS_FINISHED
CALL_TIMEOUT = 15.0
HELP = (
    "Enter the number of an action to play it. Other keys: b = draw the board, "
    "s = scores, q = leave (the game goes on without you), ? = this help."
)


class _Leave(Exception):
    def __init__(self, code: Exit) -> None:
        super().__init__(code.name)
        self.code = code


class InteractivePlayer:
    """Plays one seat with choices read from standard input."""

    def __init__(
        self,
        console: Console,
        info: ServiceInfo,
        address: str,
        game_id: str,
        token: str,
        board: bool = True,
    ) -> None:
        self.console = console
        self.info = info
        self.address = address
        self.game_id = game_id
        self.md = metadata(token)
        self.board = board
        self.m = info.messages()
        self.names: dict[int, str] = {}
        self.seat = -1
        self._announced = -1
        self.retry = Retry(
            f"{info.title} service",
            address,
            notify=lambda text: Console(stderr=True).print(f"[yellow]{text}[/yellow]"),
        )

    # --------------------------------------------------------------- calls

    def _call(self, method: str, request: Any) -> Any:
        """A unary call, retried with backoff while the service is unavailable."""
        rpc = getattr(self.stub, method)
        return self.retry.call(lambda: rpc(request, metadata=self.md, timeout=CALL_TIMEOUT))

    def _state(self) -> Any:
        return self._call("GetState", self.m.GetStateRequest(game_id=self.game_id))

    # ---------------------------------------------------------------- main

    def run(self) -> int:
        """Play until the game ends (0), the user leaves (0) or input ends (8)."""
        with channel(self.address) as ch:
            self.stub = self.info.stub(ch)
            state = self._state()
            if state.viewer_seat < 0:
                raise CliError("this call needs a seat token", Exit.AUTH)
            self.seat = state.viewer_seat
            self.names = {s.seat: s.name for s in state.seats}
            self.console.rule(
                f"{self.info.title} — game {self.game_id} — you are seat {self.seat} "
                f"({self.names.get(self.seat, '')})"
            )
            try:
                while True:
                    if state.status == FINISHED:
                        self._final(state)
                        return Exit.OK
                    if self.seat in state.to_act:
                        self._turn(state)
                    else:
                        self._wait(state)
                    state = self._state()
            except _Leave as leave:
                return leave.code

    def _draw(self, view: Any) -> None:
        if self.board:
            self.console.print(render.panel_of(view, "Board"))

    def _scores(self) -> None:
        board = self._call("Score", self.m.ScoreRequest(game_id=self.game_id)).scoreboard
        self.console.print(render.scoreboard(board, self.names))

    def _final(self, state: Any) -> None:
        self._draw(state.view)
        board = self._call("Score", self.m.ScoreRequest(game_id=self.game_id)).scoreboard
        self.console.print(render.scoreboard(board, self.names))
        self.console.print(render.outcome(board, self.names, self.seat))

    def _prompt(self, count: int) -> str:
        self.console.print(f"[bold]choice (0-{count - 1}, ? for help)>[/bold] ", end="")
        self.console.file.flush()
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            self.console.print(
                "input ended; leaving the game (it goes on without you). Resume with "
                f"`roost play {self.game_id}`."
            )
            raise _Leave(Exit.INPUT_ENDED)
        return line.strip()

    def _turn(self, state: Any) -> None:
        self._draw(state.view)
        legal = self._call("Legal", self.m.LegalRequest(game_id=self.game_id))
        version, actions = legal.version, list(legal.actions)
        while actions:
            self.console.print(render.actions(actions))
            choice = self._read_choice(actions)
            request = self.m.ApplyRequest(
                game_id=self.game_id,
                expected_version=version,
                request_id=uuid.uuid4().hex,
                action_id=choice,
            )
            try:
                reply = self._apply(request)
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.ABORTED:
                    self.console.print(
                        "[yellow]The game moved on before your choice arrived; "
                        "here is the new situation.[/yellow]"
                    )
                    return
                if error.code() == grpc.StatusCode.FAILED_PRECONDITION:
                    self.console.print(f"[red]Refused:[/red] {error.details()}")
                    return
                raise explain(error, f"{self.info.title} service", self.address) from error
            self.console.print(f"[bold]You:[/bold] {actions[choice].ref.label}")
            if reply.status == FINISHED:
                return
            version, actions = reply.version, list(reply.next_actions)
            if actions:
                self._draw(reply.view)

    def _apply(self, request: Any) -> Any:
        """Apply, retried with the same request id (a lost reply returns the first result)."""
        while True:
            try:
                reply = self.stub.Apply(request, metadata=self.md, timeout=CALL_TIMEOUT)
            except grpc.RpcError as error:
                if not retryable(error):
                    raise
                self.retry.wait(error)
                continue
            self.retry.reset()
            return reply

    def _read_choice(self, actions: list[Any]) -> int:
        while True:
            text = self._prompt(len(actions)).lower()
            if text in ("q", "quit", "exit"):
                self.console.print(
                    f"You left; the game goes on. Resume with `roost play {self.game_id}`."
                )
                raise _Leave(Exit.OK)
            if text in ("?", "h", "help"):
                self.console.print(HELP)
                continue
            if text in ("b", "board"):
                self._draw(self._state().view)
                self.console.print(render.actions(actions))
                continue
            if text in ("s", "score", "scores"):
                self._scores()
                continue
            if not text:
                continue
            try:
                choice = int(text)
            except ValueError:
                choice = -1
            if 0 <= choice < len(actions):
                return choice
            self.console.print(
                f"[red]Not a valid choice:[/red] {text!r}. "
                f"Enter a number from 0 to {len(actions) - 1} (or ? for help)."
            )

    def _wait(self, state: Any) -> None:
        if self._announced != state.version:
            waiting = ", ".join(self.names.get(s, f"seat {s}") for s in state.to_act)
            self.console.print(f"[dim]Waiting for {waiting}...[/dim]")
            self._announced = state.version
        last = state.version
        while True:
            stream = self.stub.Watch(
                self.m.WatchRequest(game_id=self.game_id, from_version=last), metadata=self.md
            )
            try:
                for item in stream:
                    self.retry.reset()
                    event = item.event
                    last = max(last, event.version)
                    self.console.print(render.event_line(event, self.names))
                    if event.status == FINISHED or self.seat in event.to_act:
                        return
                # The stream ended without anything for us: look at the state again.
                return
            except grpc.RpcError as error:
                if not retryable(error, stream=True):
                    raise explain(error, f"{self.info.title} service", self.address) from error
                # A dropped connection or a restarted service: resume after ``last``.
                self.retry.wait(error)
            finally:
                stream.cancel()

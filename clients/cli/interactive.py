"""``roost play``: one seat, interactively, in the terminal.

The loop: read the state; when the game is over, show the final scores; when
the seat must decide, draw the board, list the numbered legal actions, read a
choice from standard input and Apply it (chaining on the reply's
``next_actions`` for compound turns); otherwise follow Watch, printing what the
others do, until the seat is asked again. Once the game has ended, the prompt
offers a rematch (:mod:`clients.cli.rematch`): ``rematch`` offers it (or
accepts the others' offer) and says whom it waits for, again to ask once more,
and ``play`` plays the rematch here once it has started; any other key leaves.
"""

from __future__ import annotations

import sys
import uuid
from typing import Any

import grpc
from rich.console import Console
from roost.common.v1 import common_pb2

from clients.cli import catalogue, render
from clients.cli.choices import Choice, Menu, choices_of, menu_table
from clients.cli.rematch import Rematcher, describe
from clients.registry import ServiceInfo
from clients.rpc import CliError, Exit, Retry, channel, explain, metadata, retryable

FINISHED = common_pb2.GAME_STATUS_FINISHED
#: Statuses of a game that takes no more decisions.
OVER = (FINISHED, common_pb2.GAME_STATUS_ABORTED)
CALL_TIMEOUT = 15.0
HELP = (
    "Enter the number of a choice to play it (a choice ending in › narrows the list: "
    "pick a spot, then a rotation; add birds one at a time, then done). Type words to "
    "filter the list (e.g. `heron` or `spot (1, 2)`); - = all choices again. Other keys: "
    "b = draw the board, s = scores, t = your clock, resign = resign the game, "
    "q = leave (the game goes on without you), ? = this help."
)
AFTER_GAME = (
    "The game is over. rematch = offer a rematch (or accept the one offered; again to "
    "see who has accepted), any other key (or the end of input) = leave."
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
        self.token = token
        self.md = metadata(token)
        self.board = board
        self.m = info.messages()
        self.names: dict[int, str] = {}
        self.seat = -1
        self._announced = -1
        self.catalogue: Any | None = None
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
            self.catalogue = catalogue.load(self.info, self.stub, self.md)
            self.names = {s.seat: s.name for s in state.seats}
            # A heading that wraps rather than a rule, which would crop it at 80 columns.
            self.console.rule()
            name = self.names.get(self.seat)
            self.console.print(
                f"[bold]{self.info.title}[/bold] — game {self.game_id} — you are seat "
                f"{self.seat}" + (f" ({name})" if name else ""),
                highlight=False,
            )
            try:
                while True:
                    if state.status in OVER:
                        self._final(state)
                        return self._after_game()
                    if self.seat in state.to_act:
                        self._turn(state)
                    else:
                        self._wait(state)
                    state = self._state()
            except _Leave as leave:
                return leave.code

    def _draw(self, view: Any, legal: list[Any] | None = None) -> None:
        if self.board:
            self.console.print(
                render.board(
                    self.info.name,
                    view,
                    self.catalogue,
                    width=self.console.width,
                    names=self.names,
                    legal=legal or (),
                )
            )

    def _scores(self) -> None:
        board = self._call("Score", self.m.ScoreRequest(game_id=self.game_id)).scoreboard
        self.console.print(render.scoreboard(board, self.names))

    def _final(self, state: Any) -> None:
        self._draw(state.view)
        board = self._call("Score", self.m.ScoreRequest(game_id=self.game_id)).scoreboard
        # The outcome line says a solo game's result: the table leaves it out (printed once).
        self.console.print(render.scoreboard(board, self.names, solo=False))
        self.console.print(render.outcome(board, self.names, self.seat))

    def _after_game(self) -> int:
        """The prompt of an ended game: rematch, play it once started, or leave."""
        rematcher = Rematcher(self.info, self.address, self.stub, self.game_id, self.token)
        rematch = None
        self.console.print(AFTER_GAME)
        while True:
            started = rematch is not None and rematch.started
            keys = "play, rematch or q" if started else "rematch or q"
            self.console.print(f"[bold]game over ({keys})>[/bold] ", end="", highlight=False)
            self.console.file.flush()
            command = sys.stdin.readline().strip().lower()
            if command == "rematch":
                try:
                    rematch = rematcher.offer()
                except grpc.RpcError as error:
                    self.console.print(f"[red]Refused:[/red] {error.details()}")
                    continue
                describe(rematch, self.names, lambda t: self.console.print(t, highlight=False))
                if rematch.started:
                    self.console.print("Type play to play it here.")
                continue
            if command == "play" and rematch is not None and rematch.started:
                me = rematch.credential
                return InteractivePlayer(
                    self.console, self.info, self.address, rematch.game_id, me.token, self.board
                ).run()
            return Exit.OK

    def _prompt(self, count: int) -> str:
        self.console.print(
            f"[bold]choice (0-{count - 1}, words to filter, ? for help)>[/bold] ",
            end="",
            highlight=False,
        )
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

    def _clock_line(self) -> str:
        """The seat's time left for its decision, from the clock's server time."""
        state = self._state()
        if not state.HasField("clock"):
            return "This game has no clock."
        mine = state.clock.seats[self.seat] if self.seat < len(state.clock.seats) else None
        if mine is None or not mine.running:
            return "Your clock is not running."
        left = max(mine.deadline_ms - state.clock.server_time_ms, 0) / 1000
        bank = f" (bank {mine.bank_ms / 1000:.1f} s)" if mine.bank_ms else ""
        return f"Your clock: {left:.1f} s left for this decision as of the last move{bank}."

    def _turn(self, state: Any) -> None:
        legal = self._call("Legal", self.m.LegalRequest(game_id=self.game_id))
        version, actions, view = legal.version, list(legal.actions), state.view
        self._draw(view, actions)
        if state.HasField("clock"):
            self.console.print(self._clock_line())
        while actions:
            menu = Menu(choices_of(self.info.name, actions, view, self.catalogue))
            choice = self._read_choice(menu, view, actions)
            request = self.m.ApplyRequest(
                game_id=self.game_id,
                expected_version=version,
                request_id=uuid.uuid4().hex,
                action_id=choice.id,
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
            self.console.print(f"[bold]You:[/bold] {choice.label}")
            if reply.status in OVER:
                return
            version, actions, view = reply.version, list(reply.next_actions), reply.view
            if actions:
                self._draw(view, actions)

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

    def _read_choice(self, menu: Menu, view: Any, actions: list[Any]) -> Choice:
        """Reads lines until they pick one legal action (see HELP)."""
        while True:
            entries = menu.entries()
            self.console.print(menu_table(entries, menu.narrowed, self.console.width))
            while True:
                text = self._prompt(len(entries))
                command = text.lower()
                if command in ("q", "quit", "exit"):
                    self.console.print(
                        f"You left; the game goes on. Resume with `roost play {self.game_id}`."
                    )
                    raise _Leave(Exit.OK)
                if command in ("?", "h", "help"):
                    self.console.print(HELP)
                    continue
                if command in ("b", "board"):
                    self._draw(view, actions)
                    break
                if command in ("s", "score", "scores"):
                    self._scores()
                    continue
                if command in ("t", "time", "clock"):
                    self.console.print(self._clock_line())
                    continue
                if command == "resign":
                    try:
                        self._call("Resign", self.m.ResignRequest(game_id=self.game_id))
                    except grpc.RpcError as error:
                        self.console.print(f"[red]Refused:[/red] {error.details()}")
                        continue
                    self.console.print("You resigned.")
                    raise _Leave(Exit.OK)
                if command in ("-", "back", "all"):
                    menu.reset()
                    break
                if not command:
                    continue
                if command.isdigit():
                    number = int(command)
                    if number < len(entries):
                        picked = menu.pick(entries[number])
                        if picked is not None:
                            return picked
                        self._redraw_narrowed(menu, view, actions)
                        break
                elif menu.filter(command):
                    break
                else:
                    self.console.print(f"[red]Nothing matches[/red] {text!r}.")
                    continue
                self.console.print(
                    f"[red]Not a valid choice:[/red] {text!r}. "
                    f"Enter a number from 0 to {len(entries) - 1}, words to filter, "
                    "or ? for help."
                )

    def _redraw_narrowed(self, menu: Menu, view: Any, actions: list[Any]) -> None:
        """Under the Leaves: once a spot is picked, the garden again with that spot alone
        marked, just above the rotations to choose from."""
        if self.info.name != "undertheleaves" or not menu.prefix:
            return
        ids = {c.id for c in menu.pool}
        self._draw(view, [a for a in actions if a.ref.id in ids])

    def _wait(self, state: Any) -> None:
        if self._announced != state.version:
            waiting = ", ".join(render.seat_text(s, self.names) for s in state.to_act)
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
                    self.console.print(render.event_line(event, self.names, self.seat))
                    if event.status in OVER or self.seat in event.to_act:
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

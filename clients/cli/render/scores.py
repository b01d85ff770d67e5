"""The end screen and the running commentary, the same for every game: the score board
with every category, a solo game's result against the AI or its targets, the
end-of-game line, and one line per logged event.

Solo (``ScoreBoard.solo``): a game is won or lost as the service says; the AI's score
("8 points against the AI's 21") or the score targets and the highest reached
("141 points, target 130 reached (targets: 130, 150)") are written out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clients.cli.render.common import seat_text


def title(name: str) -> str:
    """``bonus_cards`` -> ``Bonus cards``."""
    return name.replace("_", " ").capitalize()


def solo_facts(board: Any) -> str:
    """What a solo game's result is measured against (``ScoreBoard.solo``): the AI's
    score, or the score targets and the highest reached; "" outside solo games."""
    if not board.HasField("solo"):
        return ""
    solo = board.solo
    total = board.seats[0].total if board.seats else 0
    facts = []
    if solo.HasField("opponent_score"):
        facts.append(f"{total} points against the AI's {solo.opponent_score}")
    if solo.targets:
        targets = ", ".join(str(t) for t in solo.targets)
        reached = f"target {solo.target_reached}" if solo.target_reached else "no target"
        facts.append(f"{total} points, {reached} reached (targets: {targets})")
    return "; ".join(facts)


def solo_line(board: Any) -> str:
    """A solo game's standing in one line: won or lost once final, else whether the
    player is winning so far, with :func:`solo_facts`; "" outside solo games."""
    if not board.HasField("solo"):
        return ""
    if board.final:
        standing = "won" if board.solo.won else "lost"
    else:
        standing = "winning so far" if board.solo.won else "not winning so far"
    facts = solo_facts(board)
    return f"Solo: {standing}" + (f" — {facts}" if facts else "")


#: How a game ended, as one clause (ScoreBoard.ending; NORMAL says nothing).
ENDINGS = {
    2: "by resignation",
    3: "on time",
    4: "aborted before every seat's first decision (unrated)",
    5: "with no progress for too long",
    6: "at its cap of decisions",
}


def ending_line(board: Any, names: dict[int, str] | None = None) -> str:
    """How the game ended and who left, or "" for a normal end nobody left."""
    names = names or {}
    how = ENDINGS.get(board.ending, "")
    left = ", ".join(names.get(s) or f"seat {s}" for s in board.left_seats)
    parts = [f"Ended {how}." if how else "", f"Left: {left}." if left else ""]
    return " ".join(p for p in parts if p)


def outcome(board: Any, names: dict[int, str] | None = None, seat: int | None = None) -> Text:
    """The end of the game in one line, for ``seat`` (None: a spectator).

    A solo game is won or lost as ``ScoreBoard.solo`` says (a lost one has no winner),
    with the AI's score or the targets; otherwise the winners are named. How the game
    ended (resigned, on time, aborted, a cap) and who left follow."""
    line = _outcome(board, names, seat)
    extra = ending_line(board, names)
    return line + f" {extra}" if extra else line


def _outcome(board: Any, names: dict[int, str] | None, seat: int | None) -> Text:
    names = names or {}
    if board.HasField("solo"):
        player = board.seats[0].seat if board.seats else 0
        who = "you" if seat == player else seat_text(player, names)
        facts = solo_facts(board)
        if board.solo.won:
            verdict = Text.from_markup(f"[bold green]Game over: {who} won![/bold green]")
            return verdict + (f" {facts[0].upper()}{facts[1:]}." if facts else "")
        verdict = Text.from_markup(f"[bold red]Game over: {who} lost[/bold red]")
        return verdict + (f" — {facts}." if facts else ".")
    if seat is not None and seat in board.winners:
        return Text.from_markup("[bold green]Game over: you won![/bold green]")
    winners = ", ".join(seat_text(w, names) for w in board.winners)
    return Text.from_markup("[bold]Game over.[/bold] ") + (
        f"Winner: {winners}" if winners else "No winner."
    )


def scoreboard(
    board: Any, names: dict[int, str] | None = None, *, solo: bool = True
) -> RenderableType:
    """The common ScoreBoard as a table: one row per category (then the total and the
    rank), one column per seat (a winner marked ``*`` once final), so it fits 80
    columns however many categories a game has; a solo game's standing against the AI
    or the targets (:func:`solo_line`) follows it unless ``solo`` is False (the end
    screen, whose :func:`outcome` line says it: the result is printed once)."""
    names = names or {}
    categories: list[str] = []
    for seat in board.seats:
        for c in seat.categories:
            if c.name not in categories:
                categories.append(c.name)
    caption = "final" if board.final else "so far"
    table = Table(title=f"Scores ({caption})", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("")
    for seat in board.seats:
        winner = " *" if seat.seat in board.winners and board.final else ""
        name = seat_text(seat.seat, names)
        table.add_column(f"{name}{winner}", justify="right")
    points = [{c.name: c.points for c in seat.categories} for seat in board.seats]
    for c in categories:
        table.add_row(title(c), *[str(p.get(c, "")) for p in points])
    table.add_section()
    table.add_row(
        Text("Total", style="bold"), *[Text(str(s.total), style="bold") for s in board.seats]
    )
    if len(board.seats) > 1:  # a solo game's result is the line below, not a rank of one
        table.add_row("Rank", *[str(s.rank or "") for s in board.seats])
    line = solo_line(board) if solo else ""
    return Group(table, Text(line)) if line else table


def actions(items: Iterable[Any]) -> Table:
    """Numbered legal actions."""
    table = Table(title="Your choices", box=box.SIMPLE, title_justify="left")
    table.add_column("#", justify="right", style="bold yellow")
    table.add_column("Action")
    table.add_column("Kind", style="dim")
    for item in items:
        table.add_row(str(item.ref.id), item.ref.label, item.ref.kind)
    return table


def event_line(event: Any, names: dict[int, str] | None = None, viewer: int | None = None) -> Text:
    """One log event as a line, for ``viewer`` (None: a spectator). The label is written
    for the seat that moved ("into your wetland"); read by anyone else, "your" becomes
    that seat's name ("into Bo's wetland")."""
    who = "game" if event.seat < 0 else seat_text(event.seat, names)
    label = event.label
    if event.seat >= 0 and event.seat != viewer:
        label = re.sub(r"\byour\b", f"{who}'s", label)
        label = re.sub(r"\bYour\b", f"{who}'s", label)
    text = Text(f"v{event.version:<4} ", style="dim")
    text.append(f"{who}: ", style="bold")
    text.append(label)
    return text

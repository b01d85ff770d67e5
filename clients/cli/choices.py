"""Choosing among the legal actions, a thin layer over Legal/Apply.

The service lists every legal action with a label and a kind (``ActionRef``); this
module only arranges them so a person can find one:

- **grouped** by kind, in the order the kinds first appear, each labelled with the
  service's label and, from the game's catalogue, the facts of the card or tile it
  concerns (:func:`choices_of`);
- **filtered** by typing: words narrow the list to the choices whose label, facts or
  kind contain them all;
- **one step at a time** when the list is long: choices with a path (Under the Leaves'
  tile placements: the spot, then the turn and side) are offered by their next step,
  and choices that keep a set (Wingspan's "keep birds" combinations) are built by
  adding one member at a time, then "done" (:class:`Menu`).

Every final entry is exactly one legal action; what is sent is its id.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

#: A list longer than this is offered by steps (when its choices have steps).
LIMIT = 20


@dataclass(frozen=True)
class Choice:
    """One legal action as offered: its id (sent to Apply), kind, label and facts."""

    id: int
    kind: str
    label: str
    detail: str = ""
    #: The steps that lead to it (e.g. spot, then rotation), or None for one step.
    path: tuple[str, ...] | None = None
    #: The members of the set it keeps (e.g. birds), chosen one at a time, or None.
    members: frozenset[str] | None = None
    #: Facts of those members (a bird's cost, points and power), by member.
    member_facts: tuple[tuple[str, str], ...] = ()

    def matches(self, words: Sequence[str]) -> bool:
        """True when every word is in its label, facts or kind (case-insensitive)."""
        text = f"{self.label} {self.detail} {self.kind.replace('_', ' ')}".lower()
        return all(word in text for word in words)


@dataclass(frozen=True)
class Entry:
    """One numbered line of the menu: a final choice, a step or a member to add."""

    kind: str
    text: str
    detail: str = ""
    choice: Choice | None = None
    step: str | None = None
    member: str | None = None
    count: int = 0


def choices_of(game: str, actions: Sequence[Any], view: Any, catalogue: Any | None) -> list[Choice]:
    """The legal actions as choices, with the game's facts, steps and sets."""
    try:
        module = importlib.import_module(f"clients.cli.render.{game}")
    except ImportError:
        module = None
    out = []
    for action in actions:
        detail, path, members, facts = "", None, None, {}
        if module is not None and action.HasField("action"):
            try:
                detail = module.choice_detail(action, view, catalogue)
                path = module.choice_path(action)
                pick_members = getattr(module, "choice_members", None)
                members = pick_members(action, view) if pick_members else None
                if members:
                    facts = module.member_facts(action, view, catalogue)
            except Exception:  # an action newer than this client: its label alone
                detail, path, members, facts = "", None, None, {}
        out.append(
            Choice(
                action.ref.id,
                action.ref.kind,
                action.ref.label,
                detail,
                path,
                members,
                tuple(sorted(facts.items())),
            )
        )
    return out


class Menu:
    """The choices still in play, narrowed by steps and filters (see the module docstring)."""

    def __init__(self, choices: Sequence[Choice]) -> None:
        self.all = list(choices)
        self.reset()

    def reset(self) -> None:
        """All the choices again."""
        self.pool = list(self.all)
        self.prefix: tuple[str, ...] = ()
        self.chosen: frozenset[str] = frozenset()
        self.words: list[str] = []

    @property
    def narrowed(self) -> str:
        """How the list is narrowed, in words ("" when it is not)."""
        parts = list(self.prefix)
        if self.chosen:
            parts.append("keeping " + ", ".join(sorted(self.chosen)))
        if self.words:
            parts.append(f"matching {' '.join(self.words)!r}")
        return " › ".join(parts)

    def filter(self, text: str) -> bool:
        """Keep the choices matching every word of ``text``; False (and no change)
        when none does."""
        words = text.lower().split()
        kept = [c for c in self.pool if c.matches(words)]
        if not kept:
            return False
        self.pool = kept
        self.words += words
        return True

    def entries(self) -> list[Entry]:
        """The numbered lines, grouped by kind."""
        kinds: dict[str, list[Choice]] = {}
        for choice in self.pool:
            kinds.setdefault(choice.kind, []).append(choice)
        out: list[Entry] = []
        for kind, group in kinds.items():
            if len(group) > 2 and all(c.members is not None for c in group):
                out.extend(self._member_entries(kind, group))
            elif len(self.pool) > LIMIT and all(
                c.path is not None and len(c.path) > len(self.prefix) for c in group
            ):
                out.extend(self._step_entries(kind, group))
            else:
                out.extend(Entry(kind, c.label, c.detail, choice=c) for c in group)
        return out

    def _step_entries(self, kind: str, group: list[Choice]) -> list[Entry]:
        depth = len(self.prefix)
        counts: dict[str, int] = {}
        for choice in group:
            step = choice.path[depth]  # type: ignore[index]
            counts[step] = counts.get(step, 0) + 1
        return [
            Entry(kind, step, f"{n} choice{'s' if n > 1 else ''}", step=step, count=n)
            for step, n in counts.items()
        ]

    def _member_entries(self, kind: str, group: list[Choice]) -> list[Entry]:
        out = [
            Entry(kind, f"done: {c.label}", c.detail, choice=c)
            for c in group
            if c.members == self.chosen
        ]
        addable: dict[str, int] = {}
        facts: dict[str, str] = {}
        for choice in group:
            facts.update(choice.member_facts)
            for member in sorted(choice.members - self.chosen):  # type: ignore[operator]
                addable[member] = addable.get(member, 0) + 1
        out.extend(
            Entry(
                kind,
                f"+ {member}",
                facts.get(member) or f"{n} way{'s' if n > 1 else ''} to go on",
                member=member,
                count=n,
            )
            for member, n in addable.items()
        )
        return out

    def pick(self, entry: Entry) -> Choice | None:
        """The chosen action for a final entry; None after narrowing by a step or member."""
        if entry.choice is not None:
            return entry.choice
        if entry.step is not None:
            depth = len(self.prefix)
            self.pool = [
                c
                for c in self.pool
                if c.kind == entry.kind and c.path is not None and c.path[depth] == entry.step
            ]
            self.prefix += (entry.step,)
        elif entry.member is not None:
            self.chosen |= {entry.member}
            self.pool = [
                c
                for c in self.pool
                if c.kind == entry.kind and c.members is not None and self.chosen <= c.members
            ]
        if len(self.pool) == 1 and self.pool[0].members is None:
            return self.pool[0]
        return None


def menu_table(entries: Sequence[Entry], narrowed: str = "", width: int = 80) -> Table:
    """The numbered entries under their kinds; a step's entries end with "›". A choice
    takes the room its label needs (at most half the ``width``), its facts the rest."""
    title = "Your choices" + (f" — {narrowed}" if narrowed else "")
    detailed = any(e.detail for e in entries)
    out = Table(
        title=title, box=box.SIMPLE, title_justify="left", show_header=False, expand=detailed
    )
    out.add_column("#", justify="right", style="bold yellow", no_wrap=True)
    out.add_column("choice", overflow="fold", max_width=max(24, width // 2))
    out.add_column("facts", overflow="fold", style="dim", ratio=1)
    kind = None
    for number, entry in enumerate(entries):
        if entry.kind != kind:
            kind = entry.kind
            out.add_row("", Text(kind.replace("_", " ").capitalize(), style="bold underline"), "")
        more = " ›" if entry.choice is None else ""
        out.add_row(str(number), entry.text + more, entry.detail)
    return out

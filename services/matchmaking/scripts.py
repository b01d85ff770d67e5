"""The matchmaker's Lua scripts, kept as ``.lua`` files beside this module.

Each file under ``services/matchmaking/lua/`` is one atomic ticket transition
(its first comment lines name its KEYS and ARGV); ``notify.lua`` is the helper
the scripts that emit notifications start with. They are read when the
module that uses them is imported, once per process, and registered with
Redis by :class:`~services.matchmaking.tickets.TicketStore`.
"""

from __future__ import annotations

from importlib import resources

_FOLDER = resources.files("services.matchmaking") / "lua"


def script(name: str, *, with_notify: bool = False) -> str:
    """The source of ``lua/<name>.lua``, after ``notify.lua`` when it emits notifications."""
    source = (_FOLDER / f"{name}.lua").read_text(encoding="utf-8")
    if with_notify:
        source = (_FOLDER / "notify.lua").read_text(encoding="utf-8") + source
    return source

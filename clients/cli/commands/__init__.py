"""The ``roost`` commands (parsed by :mod:`clients.cli.main`), one module per
command family; ``cmd_<name>`` runs ``roost <name>``."""

from __future__ import annotations

from clients.cli.commands.bots import cmd_bots, with_search_budget
from clients.cli.commands.play import cmd_new, cmd_play, cmd_watch
from clients.cli.commands.queue import cmd_leaderboard, cmd_queue
from clients.cli.commands.stack import cmd_down, cmd_games, cmd_up
from clients.cli.commands.tournament import cmd_tournament
from clients.cli.history import cmd_history
from clients.cli.login import cmd_login
from clients.cli.records import cmd_export, cmd_replay
from clients.cli.rematch import cmd_rematch

__all__ = [
    "cmd_bots",
    "cmd_down",
    "cmd_export",
    "cmd_games",
    "cmd_history",
    "cmd_leaderboard",
    "cmd_login",
    "cmd_new",
    "cmd_play",
    "cmd_queue",
    "cmd_rematch",
    "cmd_replay",
    "cmd_tournament",
    "cmd_up",
    "cmd_watch",
    "with_search_budget",
]

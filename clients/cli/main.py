"""``roost``: play, watch, queue, run bots and tournaments against Roost services.

Every command talks to the services over gRPC through the generated stubs.
Addresses: ``--target`` (or ``--matchmaker``), else ``$GAME_ADDR_<GAME>`` /
``$MATCHMAKER_ADDR``, else 127.0.0.1 and the default port.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import grpc
from rich.console import Console

from clients import registry
from clients.bots.policies import KINDS
from clients.cli import history, records
from clients.cli.arguments import bot_spec, kind_arg, kinds_arg, players_arg, positive_arg
from clients.rpc import CliError, Exit, explain

EXIT_CODES = """exit codes:
  0    success
  1    unexpected error (or a tournament whose games did not all finish)
  2    bad command line
  3    a service is unreachable, or stayed unavailable while retrying
  4    the seat token was refused or is missing
  5    the game or ticket does not exist
  6    the service refused the request (invalid option, illegal action, ...)
  7    the matchmaking ticket ended without a game (expired, cancelled, failed)
  8    roost play: standard input ended before the game did
  130  interrupted (Ctrl-C)
"""


EXAMPLES = {
    "up": ["roost up", "roost up --detach && roost games", "roost down"],
    "down": ["roost down"],
    "games": ["roost games", "roost games --json"],
    "new": [
        "roost new undertheleaves --players 2 --bot 1=greedy --play 0",
        "roost new skygarden --players 1 --play 0",
        "roost new wingspan -n 3 --bot 1=random --bot 2=greedy --json",
    ],
    "play": ["roost play GAME_ID", "roost play GAME_ID --seat 1", "roost play GAME_ID --token T"],
    "rematch": ["roost rematch GAME_ID --seat 0", "roost rematch GAME_ID --wait"],
    "watch": ["roost watch GAME_ID", "roost watch GAME_ID --from-version 0 --boards"],
    "queue": [
        "roost queue undertheleaves --play",
        "roost queue wingspan --players 2-4 --bots greedy --bot-wait 10",
        "roost queue skygarden --json",
    ],
    "login": ["roost login", "roost login --token JWT", "roost login --logout"],
    "leaderboard": ["roost leaderboard", "roost leaderboard wingspan --limit 5 --json"],
    "bots": [
        "roost bots list",
        "roost bots start GAME_ID",
        "roost bots stop GAME_ID",
        "roost bots stop --all",
        "roost bots GAME_ID 0=greedy",
    ],
    "tournament": [
        "roost tournament --game undertheleaves --players 2 --games 20 --bots random,greedy",
        "roost tournament --game wingspan --players 3 --via-matchmaker --report out.json",
    ],
}
EXAMPLES.update(records.EXAMPLES)
EXAMPLES.update(history.EXAMPLES)


def _examples(*commands: str) -> str:
    lines = [f"  {line}" for name in commands for line in EXAMPLES[name]]
    return "examples:\n" + "\n".join(lines) + "\n"


def _add_search_budget(parser: argparse.ArgumentParser) -> None:
    """``--budget-ms N`` / ``--playouts N``: a budget for every plain ``search`` bot,
    sugar for the kinds ``search@<N>ms`` / ``search@<N>p`` (one or the other)."""
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--budget-ms",
        type=positive_arg,
        metavar="N",
        help="the search bots think N ms per decision (search becomes search@<N>ms)",
    )
    budget.add_argument(
        "--playouts",
        type=positive_arg,
        metavar="N",
        help="the search bots run N playouts per decision (search becomes search@<N>p)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    games = ", ".join(registry.names())
    parser = argparse.ArgumentParser(
        prog="roost",
        description="Play, watch, queue, run bots and tournaments on Roost game services.\n"
        f"Games: {games}.",
        epilog=_examples("up", "new", "play", "queue", "bots")
        + "\n"
        + EXIT_CODES
        + "\nAddresses: --target / --matchmaker, else GAME_ADDR_<GAME> / MATCHMAKER_ADDR,\n"
        "else 127.0.0.1 and the game's default port. More in docs/CLI.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str, description: str = "") -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=help_text,
            description=description or help_text,
            epilog=_examples(name) + "\nexit codes: see `roost --help`.",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    up = command(
        "up",
        "run the local stack (Redis and every implemented service) like `make run`",
        "Start Redis (embedded unless REDIS_URL is set) and every implemented service on its "
        "default port (python -m services.launcher). Ctrl-C stops everything.",
    )
    up.add_argument(
        "--detach", "-d", action="store_true",
        help="run in the background (output: .roost/logs/launcher.log); `roost down` stops it",
    )  # fmt: skip
    up.add_argument(
        "--log-to-terminal", action="store_true",
        help="the services' log lines to this terminal instead of .roost/logs/<service>.log",
    )  # fmt: skip
    up.set_defaults(run="up")
    down = command("down", "stop the stack started with `roost up --detach`")
    down.set_defaults(run="down")

    games_cmd = command("games", "list the games, their addresses and whether they answer")
    games_cmd.add_argument("--timeout", type=float, default=1.0, help="seconds per health check")
    games_cmd.add_argument("--json", action="store_true", help="print JSON instead of a table")
    games_cmd.set_defaults(run="games")

    new = command(
        "new",
        "create a game and print its seat tokens",
        "Create a game with NewGame and print one secret token per seat (remembered in "
        "$ROOST_HOME/sessions.json so `roost play GAME_ID` finds them). Bot seats are played "
        "by a background bot process, or in this terminal with --play.",
    )
    new.add_argument("game", metavar="GAME", help=f"one of: {games}")
    new.add_argument("--players", "-n", type=positive_arg, required=True, help="number of seats")
    new.add_argument(
        "--bot",
        type=bot_spec,
        action="append",
        default=[],
        metavar="SEAT=KIND",
        help=f"let a bot play SEAT (KIND: {', '.join(KINDS)}); repeatable",
    )
    new.add_argument("--seed", type=int, default=0, help="random seed (0: the server picks)")
    new.add_argument("--options", default="", metavar="JSON", help="game Options as JSON")
    new.add_argument("--names", default="", help="comma-separated seat names")
    new.add_argument("--play", type=int, default=None, metavar="SEAT", help="then play SEAT here")
    new.add_argument("--target", help="game service address host:port")
    new.add_argument("--json", action="store_true", help="print JSON instead of a table")
    new.set_defaults(run="new")

    play = command(
        "play",
        "play a seat interactively",
        "Draw the seat's board, list the numbered legal actions, read a choice from standard "
        "input, and wait on Watch while others play. At the prompt: a number plays that "
        "action; b redraws the board; s shows scores; q leaves (the game goes on).",
    )
    play.add_argument("game_id", metavar="GAME_ID")
    play.add_argument("--seat", type=int, help="the seat to play (token from the session file)")
    play.add_argument("--token", help="the seat token (overrides the session file)")
    play.add_argument("--game", help=f"the game ({games}); found automatically if omitted")
    play.add_argument("--target", help="game service address host:port")
    play.add_argument("--no-board", action="store_true", help="do not draw the board each turn")
    play.set_defaults(run="play")

    rematch = command(
        "rematch",
        "offer (or accept) the rematch of a game that has ended",
        "OfferRematch for your seat (and for the bot seats this terminal started): a new game "
        "with the same seats, rotated by one, that starts once every seat waited for has "
        "accepted. Says whom it waits for, or the new game id and `roost play NEW_ID --seat N`.",
    )
    rematch.add_argument("game_id", metavar="GAME_ID", help="the game that has ended")
    rematch.add_argument("--seat", type=int, help="your seat (token from the session file)")
    rematch.add_argument("--token", help="the seat token (overrides the session file)")
    rematch.add_argument("--game", help=f"the game ({games}); found automatically if omitted")
    rematch.add_argument("--target", help="game service address host:port")
    rematch.add_argument("--wait", action="store_true", help="wait until the rematch starts")
    rematch.set_defaults(run="rematch")

    watch = command("watch", "follow a game as a spectator")
    watch.add_argument("game_id", metavar="GAME_ID")
    watch.add_argument("--game", help=f"the game ({games}); found automatically if omitted")
    watch.add_argument("--target", help="game service address host:port")
    watch.add_argument(
        "--from-version", type=int, default=None, help="replay events after this version"
    )
    watch.add_argument("--boards", action="store_true", help="draw the board after every event")
    watch.set_defaults(run="watch")

    queue = command(
        "queue",
        "queue for a game through the matchmaker",
        "Enqueue a ticket, keep it alive with heartbeats and wait for the assignment. "
        "Ctrl-C cancels the ticket.",
    )
    queue.add_argument("game", metavar="GAME", help=f"one of: {games}")
    queue.add_argument(
        "--players",
        type=players_arg,
        default=None,
        help="acceptable counts: N, N,M or N-M (default: the game's smallest count with "
        "others that seats your party; 1 for a solo-only game)",
    )
    queue.add_argument("--player", default="", help="your player id (default: $USER)")
    queue.add_argument("--name", default="", help="your display name")
    queue.add_argument(
        "--party", default="", help="comma-separated ids of players who play with you"
    )
    queue.add_argument("--options", default="", metavar="JSON", help="game Options as JSON")
    queue.add_argument(
        "--bots", nargs="?", const="random", default=None, choices=("random", "greedy"),
        help="let bots fill empty seats after a wait (default kind: random)",
    )  # fmt: skip
    queue.add_argument("--bot-wait", type=float, default=0.0, help="seconds before bots fill")
    queue.add_argument("--ticket-id", default="", help="ticket id (default: random)")
    queue.add_argument("--timeout", type=float, default=0.0, help="give up after N seconds")
    queue.add_argument("--play", action="store_true", help="play the assigned seat here")
    queue.add_argument("--matchmaker", help="matchmaker address host:port")
    queue.add_argument("--json", action="store_true", help="print the assignment as JSON")
    queue.set_defaults(run="queue")

    login = command(
        "login",
        "sign in: a guest identity from the matchmaker, or a token of your identity provider",
    )
    login.add_argument("--token", default="", help="a bearer token (JWT) to store instead")
    login.add_argument("--logout", action="store_true", help="forget the stored identity")
    login.add_argument("--matchmaker", help="matchmaker address host:port")
    login.set_defaults(run="login")

    board = command("leaderboard", "show the matchmaker's ratings")
    board.add_argument("game", metavar="GAME", nargs="?", help="one game (default: all)")
    board.add_argument("--limit", type=positive_arg, default=20)
    board.add_argument("--matchmaker", help="matchmaker address host:port")
    board.add_argument("--json", action="store_true")
    board.set_defaults(run="leaderboard")

    bots = command(
        "bots",
        "list, stop and restart bots; or play seats with bots here",
        "Bots play the seats of games you created. Their tokens are remembered in the "
        "state directory, so a stopped or crashed bot can be restarted.\n\n"
        "  roost bots list                       every game with bots, running or stopped\n"
        "  roost bots stop GAME_ID | --all       stop background bots\n"
        "  roost bots start GAME_ID [SEAT=KIND]  (re)start the bots in the background\n"
        "  roost bots GAME_ID [SEAT=KIND ...]    play in this terminal until the game ends\n\n"
        "Without SEAT=KIND the remembered bot seats and kinds are used.",
    )
    bots.add_argument("words", nargs="+", metavar="ACTION_OR_GAME_ID", help="see above")
    bots.add_argument("--json", action="store_true", help="list/start: print JSON")
    bots.add_argument("--all", action="store_true", help="stop: the bots of every remembered game")
    bots.add_argument(
        "--policy",
        type=kind_arg,
        metavar="KIND",
        help="play every seat with this kind or policy, e.g. search@200ms or pkg.module:Class",
    )
    _add_search_budget(bots)
    bots.set_defaults(run="bots")

    tour = command(
        "tournament",
        "play many bot games and report throughput, latency and results",
        "Play K games end to end over gRPC, C at a time, with bots in rotation over the seats; "
        "report games/s, decisions/s, RPC latency p50/p95/p99 per method, errors by status "
        "code, and wins and ratings per bot.",
    )
    tour.add_argument("--game", required=True, help=f"one of: {games}")
    tour.add_argument("--players", type=positive_arg, required=True)
    tour.add_argument("--games", type=positive_arg, default=10, help="games to play (K)")
    tour.add_argument("--concurrency", type=positive_arg, default=4, help="games at once (C)")
    tour.add_argument(
        "--bots",
        type=kinds_arg,
        default=("random",),
        help="bot kinds or policies (pkg.module:Class) in rotation, e.g. random,greedy,search",
    )
    tour.add_argument("--via-matchmaker", action="store_true", help="seat bots through tickets")
    tour.add_argument(
        "--target",
        help="game service address host:port (replicas: several, comma-separated; "
        "games are spread over them in turn)",
    )
    tour.add_argument("--matchmaker", help="matchmaker address host:port")
    tour.add_argument("--seed", type=int, default=0, help="base seed (game i gets seed + i)")
    tour.add_argument("--options", default="", metavar="JSON", help="game Options as JSON")
    tour.add_argument("--timeout", type=float, default=300.0, help="seconds allowed per game")
    tour.add_argument(
        "--time-control",
        default="",
        metavar="SPEC",
        help="the games' clock: 5s (per move), 60+2 (Fischer), 1d; add :bot or :forfeit",
    )
    tour.add_argument("--report", metavar="PATH", help="write the JSON report here")
    tour.add_argument("--no-progress", action="store_true", help="no progress bar")
    tour.add_argument("--json", action="store_true", help="print the JSON report")
    _add_search_budget(tour)
    tour.set_defaults(run="tournament")
    records.add_parsers(command)
    history.add_parser(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return Exit.USAGE
    console = Console()
    errors = Console(stderr=True)
    try:
        from clients.cli import commands

        return int(getattr(commands, f"cmd_{args.run}")(args, console))
    except CliError as error:
        errors.print(f"[bold red]error:[/bold red] {error.message}", highlight=False)
        return int(error.code)
    except grpc.RpcError as error:
        failure = explain(error, "service", getattr(args, "target", None) or "its address")
        errors.print(f"[bold red]error:[/bold red] {failure.message}", highlight=False)
        return int(failure.code)
    except KeyboardInterrupt:
        errors.print("interrupted")
        return Exit.INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())

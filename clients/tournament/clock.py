"""A tournament's time control, written on the command line.

``--time-control SPEC``: ``5s`` (5 s per move), ``60+2`` (a Fischer clock: a
60 s bank, 2 s added per decision), ``1d`` (correspondence: a day per move),
each optionally followed by ``:bot`` (TIMEOUT_POLICY_HOUSE_BOT: the house bot
plays a seat that times out) or ``:forfeit`` (the default). Seconds may be
fractions (``0.5s``).
"""

from __future__ import annotations

import re

from roost.common.v1 import common_pb2

_SPEC = re.compile(
    r"^(?:(?P<move>\d+(?:\.\d+)?)s|(?P<bank>\d+(?:\.\d+)?)\+(?P<inc>\d+(?:\.\d+)?)|(?P<days>\d+)d)"
    r"(?::(?P<policy>bot|forfeit))?$"
)


def parse_time_control(spec: str) -> common_pb2.TimeControl | None:
    """The TimeControl of ``spec`` (None for an empty spec); ValueError when malformed."""
    spec = spec.strip()
    if not spec:
        return None
    found = _SPEC.match(spec)
    if found is None:
        raise ValueError(
            f"time control {spec!r}: use 5s (per move), 60+2 (Fischer), 1d (correspondence), "
            "optionally with :bot or :forfeit"
        )
    tc = common_pb2.TimeControl(
        on_timeout=common_pb2.TIMEOUT_POLICY_HOUSE_BOT
        if found["policy"] == "bot"
        else common_pb2.TIMEOUT_POLICY_FORFEIT
    )
    if found["move"]:
        tc.move_seconds = float(found["move"])
    elif found["bank"]:
        tc.bank_seconds = float(found["bank"])
        tc.increment_seconds = float(found["inc"])
    else:
        tc.days_per_move = int(found["days"])
    return tc

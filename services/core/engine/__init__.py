"""The engine contract: pure Python, no I/O.

Rules engines (``services/<game>/rules``) may import this package and nothing
else from ``services``: it holds the contract every game implements, the shared
value types (actions, score boards) and the seeded random generator.
"""

from services.core.engine.contract import (
    Action,
    Engine,
    IllegalAction,
    OptionError,
    ScoreBoard,
    SeatScore,
    SoloResult,
)
from services.core.engine.rng import Rng

__all__ = [
    "Action",
    "Engine",
    "IllegalAction",
    "OptionError",
    "Rng",
    "ScoreBoard",
    "SeatScore",
    "SoloResult",
]

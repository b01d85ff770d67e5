"""Under the Leaves rules engine: ``ENGINE`` implements the Roost engine contract."""

from services.undertheleaves.rules.engine import UnderTheLeaves
from services.undertheleaves.rules.state import State

ENGINE = UnderTheLeaves()

__all__ = ["ENGINE", "State", "UnderTheLeaves"]

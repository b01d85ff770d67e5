"""Birdscaping rules engine: ``ENGINE`` implements the Roost engine contract."""

from services.birdscaping.rules.engine import BirdscapingEngine, State

ENGINE = BirdscapingEngine()

__all__ = ["ENGINE", "BirdscapingEngine", "State"]

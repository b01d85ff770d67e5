"""Sky Garden rules engine: ``ENGINE`` implements the Roost engine contract."""

from services.skygarden.rules.engine import SkyGardenEngine

ENGINE = SkyGardenEngine()

__all__ = ["ENGINE", "SkyGardenEngine"]

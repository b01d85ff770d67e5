"""``python -m services.undertheleaves``: serve Under the Leaves (its port in the registry)."""

from services.core.main import run_game_service
from services.undertheleaves.service import SPEC

if __name__ == "__main__":
    run_game_service(SPEC)

"""``python -m services.skygarden``: serve Sky Garden (its port in the registry)."""

from services.core.main import run_game_service
from services.skygarden.service import SPEC

if __name__ == "__main__":
    run_game_service(SPEC)

"""``python -m services.skygarden``: serve Sky Garden (port 50051)."""

from services.core.main import run_game_service
from services.skygarden.service import SPEC

if __name__ == "__main__":
    run_game_service(SPEC)

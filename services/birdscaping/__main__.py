"""``python -m services.birdscaping``: serve Birdscaping (its port in the registry)."""

from services.birdscaping.service import SPEC
from services.core.main import run_game_service

if __name__ == "__main__":
    run_game_service(SPEC)

"""``python -m services.wingspan``: serve Wingspan (port 50052)."""

from services.core.main import run_game_service
from services.wingspan.service import SPEC

if __name__ == "__main__":
    run_game_service(SPEC)

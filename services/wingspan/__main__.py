"""``python -m services.wingspan``: serve Wingspan (its port in the registry)."""

from services.core.main import run_game_service
from services.wingspan.service import SPEC

if __name__ == "__main__":
    run_game_service(SPEC)

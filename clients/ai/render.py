"""A game as text, for the environments' ``render``: scores, who acts, the last
decisions (other seats' secret ones by their public label) and the legal actions."""

from __future__ import annotations

from typing import Any


def text_of(match: Any, seat: int | None = None, legal: int = 12) -> str:
    """The position of a Match (or remote table) as a few lines of text."""
    lines = [f"{match.game}, {match.players} players" + (" (over)" if match.over else "")]
    lines.append("scores: " + ", ".join(f"seat {s}: {t}" for s, t in enumerate(match.scores())))
    for mover, action in match.history[-3:]:
        shown = action.label
        if action.secret and mover != seat:
            shown = action.public_label or f"seat {mover} decided"
        lines.append(f"  seat {mover}: {shown}")
    if not match.over:
        current = match.current
        actions = match.legal(current)
        indices = match.legal_indices(current)
        lines.append(f"seat {current} to act, {len(actions)} legal:")
        for action, index in list(zip(actions, indices, strict=True))[:legal]:
            lines.append(f"  [{index}] {action.label}")
        if len(actions) > legal:
            lines.append(f"  ... {len(actions) - legal} more")
    return "\n".join(lines)

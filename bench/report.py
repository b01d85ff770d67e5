"""Write one marked section of docs/BENCHMARKS.md, leaving the others alone."""

from __future__ import annotations

import platform
import time
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
HEADER = """# Benchmarks

Every figure below was produced by the command shown with it, on the machine named with it.
Speeds are measured against a baseline run in the same process, so ratios stay comparable
across machines. Nothing here is a timed test: `make bench` regenerates the figures.
"""


def machine() -> str:
    """A one-line description of where the figures come from."""
    return (
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )


def write_section(name: str, body: str, doc: Path = DOC) -> None:
    """Replace the text between ``<!-- name:start -->`` and ``<!-- name:end -->``
    in ``doc`` (docs/BENCHMARKS.md unless named)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = doc.read_text() if doc.exists() else HEADER
    block = f"{start}\n{body.rstrip()}\n{end}"
    if start in text and end in text:
        before = text.split(start, 1)[0]
        after = text.split(end, 1)[1]
        text = before + block + after
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text)

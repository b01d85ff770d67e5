"""A window of a Python run that callgrind counts, and nothing else.

Run the program under ``valgrind --tool=callgrind --instr-atstart=no
--collect-atstart=no``: it runs at valgrind's uninstrumented speed until
:func:`window` opens, counts instructions only inside it, and valgrind's
closing "Collected" line is the window's total. The switch is callgrind's
client requests (``valgrind/callgrind.h``), reached through a tiny C library
compiled on first use with the system's C compiler; without valgrind they
do nothing, and without a compiler or the header :func:`window` does nothing.
"""

from __future__ import annotations

import ctypes
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_SOURCE = """
#include <valgrind/callgrind.h>
void window_open(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; }
void window_close(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; }
"""


def _library() -> ctypes.CDLL | None:
    """The compiled client-request library, or None when it cannot be built."""
    folder = Path(tempfile.gettempdir()) / "roost-callgrind-window"
    shared = folder / "window.so"
    if not shared.exists():
        folder.mkdir(exist_ok=True)
        (folder / "window.c").write_text(_SOURCE)
        built = subprocess.run(
            ["cc", "-O1", "-shared", "-fPIC", "-o", str(shared), str(folder / "window.c")],
            capture_output=True,
            check=False,
        )
        if built.returncode != 0:
            return None
    return ctypes.CDLL(str(shared))


@contextmanager
def window() -> Iterator[bool]:
    """Count instructions inside the block only; yields whether the switch exists."""
    library = _library()
    if library is not None:
        library.window_open()
    try:
        yield library is not None
    finally:
        if library is not None:
            library.window_close()

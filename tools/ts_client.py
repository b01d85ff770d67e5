"""Build steps of the TypeScript client (clients/typescript) and the proto checks.

``install``  ``npm ci`` in clients/typescript, only when node_modules is missing
             or was installed from another package-lock.json, and not even then
             when this machine installed that lockfile before (tools/npm_cache.py).
``generate`` ``buf generate`` of the TypeScript messages and service descriptors
             into clients/typescript/src/gen, only when the protos changed: Roost's
             protos, and ``google/rpc/error_details.proto`` (ErrorInfo, BadRequest)
             taken from the googleapis-common-protos wheel the services themselves
             depend on (through grpcio-status), so the client decodes error details
             with the very definitions the services encode them with.
``lint``     ``buf lint`` (buf.yaml: STANDARD with named exceptions) and
             ``buf breaking`` against the committed image of the last release
             (protos/releases/), which guards the published API.
``release``  writes the image of a new release: ``release v0.2.0`` (the newest
             image in protos/releases/ is the baseline).

buf comes from the npm package ``@bufbuild/buf`` (it ships the binary), so
node and npm are the only tools needed besides Python.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

try:  # imported as tools.ts_client (tests), or run as a script
    from tools.npm_cache import deps as npm_deps
except ImportError:
    from npm_cache import deps as npm_deps  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
TS_DIR = ROOT / "clients" / "typescript"
PROTOS = ROOT / "protos"
NODE_MODULES = TS_DIR / "node_modules"
LOCKFILE = TS_DIR / "package-lock.json"
GEN_DIR = TS_DIR / "src" / "gen"
#: Written into src/gen after generation: the hash of every input.
GEN_STAMP = GEN_DIR / ".inputs-sha256"
#: google/rpc protos copied out of the googleapis-common-protos wheel for buf.
DEPS_DIR = TS_DIR / ".proto-deps"
GOOGLE_RPC_PROTOS = ("error_details.proto",)
#: Images of released APIs, ``v<major>.<minor>.<patch>.binpb``.
RELEASES = PROTOS / "releases"


def node_available() -> bool:
    """True when both ``node`` and ``npm`` are on PATH."""
    return shutil.which("node") is not None and shutil.which("npm") is not None


def buf() -> str:
    """The buf binary of the npm package ``@bufbuild/buf``."""
    return str(NODE_MODULES / ".bin" / "buf")


def _digest(paths: Iterable[Path]) -> str:
    """SHA-256 over the names and contents of ``paths``."""
    sha = hashlib.sha256()
    for path in sorted(paths):
        sha.update(str(path.relative_to(ROOT)).encode())
        sha.update(path.read_bytes())
    return sha.hexdigest()


def _run(args: list[str], cwd: Path = ROOT) -> None:
    """Run a command; on failure exit with its output."""
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"failed ({done.returncode}): {' '.join(args)}")


def install() -> None:
    """``npm ci`` unless node_modules already holds this lockfile's packages, or this
    machine installed them before (then a copy of them: tools/npm_cache.py)."""
    npm_deps(TS_DIR)


def google_rpc_dir() -> Path:
    """The folder of the google/rpc .proto files in the googleapis-common-protos wheel."""
    import google.rpc.error_details_pb2 as error_details

    return Path(error_details.__file__).parent


def generate() -> None:
    """Generate src/gen unless its inputs are unchanged since the last run."""
    install()
    rpc_dir = google_rpc_dir()
    inputs = [*PROTOS.rglob("*.proto"), TS_DIR / "buf.gen.yaml", LOCKFILE]
    inputs += [rpc_dir / name for name in GOOGLE_RPC_PROTOS]
    wanted = _digest(inputs)
    if GEN_STAMP.exists() and GEN_STAMP.read_text() == wanted:
        return
    shutil.rmtree(GEN_DIR, ignore_errors=True)
    shutil.rmtree(DEPS_DIR, ignore_errors=True)
    (DEPS_DIR / "google" / "rpc").mkdir(parents=True)
    for name in GOOGLE_RPC_PROTOS:
        shutil.copyfile(rpc_dir / name, DEPS_DIR / "google" / "rpc" / name)
    template = ["--template", "buf.gen.yaml"]
    _run([buf(), "generate", str(PROTOS), *template], cwd=TS_DIR)
    _run([buf(), "generate", str(DEPS_DIR), *template], cwd=TS_DIR)
    GEN_STAMP.write_text(wanted)


def released_image() -> Path:
    """The image of the last release: the highest version in protos/releases/."""
    images = {
        tuple(int(part) for part in match.groups()): path
        for path in RELEASES.glob("v*.binpb")
        if (match := re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)\.binpb", path.name))
    }
    if not images:
        raise SystemExit(f"no release image in {RELEASES.relative_to(ROOT)}")
    return images[max(images)]


def lint() -> None:
    """``buf lint`` and ``buf breaking`` against the last release's image."""
    install()
    _run([buf(), "lint"])
    _run([buf(), "breaking", "--against", str(released_image().relative_to(ROOT))])


def release(tag: str) -> None:
    """Write the image of the current API as the release ``tag`` (the new baseline)."""
    if not re.fullmatch(r"v\d+\.\d+\.\d+", tag):
        raise SystemExit(f"a release tag is v<major>.<minor>.<patch>, not {tag!r}")
    install()
    image = RELEASES / f"{tag}.binpb"
    RELEASES.mkdir(exist_ok=True)
    _run([buf(), "build", "--exclude-source-info", "-o", str(image.relative_to(ROOT))])
    print(f"wrote {image.relative_to(ROOT)}: the baseline of buf breaking from now on")


def main(argv: list[str]) -> None:
    """Command line: ``python tools/ts_client.py install|generate|lint|release <tag>``."""
    if not argv or argv[0] not in {"install", "generate", "lint", "release"}:
        raise SystemExit(__doc__)
    if not node_available():
        raise SystemExit("node and npm are needed (clients/typescript uses them, and buf)")
    if argv[0] == "release":
        if len(argv) != 2:
            raise SystemExit("usage: python tools/ts_client.py release <tag>")
        release(argv[1])
    else:
        {"install": install, "generate": generate, "lint": lint}[argv[0]]()


if __name__ == "__main__":
    main(sys.argv[1:])

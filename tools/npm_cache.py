"""Install npm packages and build the web app once per machine, not once per clone.

``node_modules`` of a Node project (web/, clients/typescript/) is kept in a cache
folder keyed by the SHA-256 of its package-lock.json (and Node's major version):
a fresh clone copies it from there instead of running ``npm ci`` again. The web
app's build (web/dist) is kept the same way, keyed by its inputs (its sources,
the protos, the registry and the lockfile). Within one run nothing is repeated:
a stamp in the project says which lockfile or inputs it already holds.

The cache lives in ``$ROOST_CACHE`` (default ``~/.cache/roost``); removing it is
always safe. Writers never meet half a cache entry: an entry is filled under a
temporary name and renamed into place.

    python tools/npm_cache.py deps DIR    # node_modules of DIR (npm ci at most once)
    python tools/npm_cache.py web-build   # web/dist (npm run build at most once)
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
#: Written into node_modules and web/dist: the key of what they hold.
STAMP = ".roost-sha256"
#: What the web build reads besides its npm packages (the Makefile's WEB_SOURCES).
WEB_INPUT_DIRS = ("src", "test", "proto-extra", "public")
WEB_INPUT_FILES = ("index.html", "package.json", "vite.config.ts", "tsconfig.json", "buf.gen.yaml")


def cache_root() -> Path:
    """``$ROOST_CACHE``, else ``~/.cache/roost``."""
    configured = os.environ.get("ROOST_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "roost"


def digest(paths: Iterable[Path], salt: str = "") -> str:
    """SHA-256 over ``salt`` and the names (relative to the repository) and contents of
    ``paths``."""
    sha = hashlib.sha256(salt.encode())
    for path in sorted(paths):
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        sha.update(str(name).encode() + b"\0")
        sha.update(path.read_bytes())
    return sha.hexdigest()


def node_major() -> str:
    """Node's major version (packages with native parts differ between them)."""
    try:
        version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "none"
    return version.strip().lstrip("v").split(".")[0] or "none"


def _stamped(folder: Path, key: str) -> bool:
    stamp = folder / STAMP
    return stamp.is_file() and stamp.read_text() == key


def _copy(source: Path, target: Path) -> None:
    """Replace ``target`` with a copy of ``source`` (symlinks kept as links)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True)


def _store(folder: Path, entry: Path) -> None:
    """Copy ``folder`` into the cache as ``entry`` (atomically; a racing writer wins)."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{entry.name}-", dir=entry.parent))
    try:
        shutil.copytree(folder, scratch / "tree", symlinks=True)
        os.rename(scratch / "tree", entry)
    except OSError:
        pass  # another run stored the same entry first: it holds the same files
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run(args: list[str], cwd: Path) -> None:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-6000:] + done.stderr[-6000:])
        raise SystemExit(f"failed ({done.returncode}): {' '.join(args)} in {cwd}")


def deps(project: Path) -> str:
    """Make ``project/node_modules`` hold its lockfile's packages: nothing when it does,
    a copy from the cache when the machine installed them before, else ``npm ci``
    (then cached). Returns how (``"kept"``, ``"cached"``, ``"installed"``)."""
    project = project.resolve()
    lockfile = project / "package-lock.json"
    key = digest([lockfile], salt=f"node{node_major()}")
    modules = project / "node_modules"
    if _stamped(modules, key):
        return "kept"
    entry = cache_root() / "node_modules" / f"{project.name}-{key[:24]}"
    if (entry / STAMP).is_file():
        _copy(entry, modules)
        return "cached"
    _run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=project)
    (modules / STAMP).write_text(key)
    _store(modules, entry)
    return "installed"


def web_inputs() -> list[Path]:
    """Every file the web build reads besides node_modules."""
    files = [WEB / name for name in WEB_INPUT_FILES if (WEB / name).is_file()]
    for name in WEB_INPUT_DIRS:
        folder = WEB / name
        if folder.is_dir():
            generated = WEB / "src" / "gen"
            files += [p for p in folder.rglob("*") if p.is_file() and generated not in p.parents]
    files += [p for p in (ROOT / "protos").rglob("*.proto")]
    files += [ROOT / "protos" / "roost" / "games.toml", WEB / "package-lock.json"]
    return files


def web_build() -> str:
    """Make web/dist the build of the current sources: nothing when it is, a copy from
    the cache when the machine built these sources before, else ``npm run build``
    (then cached). Returns how (``"kept"``, ``"cached"``, ``"built"``). web/node_modules
    is made ready either way: the web app's scripts and tests run from it."""
    deps(WEB)
    key = digest(web_inputs(), salt=f"node{node_major()}")
    dist = WEB / "dist"
    if _stamped(dist, key):
        return "kept"
    entry = cache_root() / "web-dist" / key[:24]
    if (entry / STAMP).is_file():
        _copy(entry, dist)
        return "cached"
    _run(["npm", "run", "build"], cwd=WEB)
    (dist / STAMP).write_text(key)
    _store(dist, entry)
    return "built"


def main(argv: list[str]) -> None:
    if argv[:1] == ["deps"] and len(argv) == 2:
        print(f"{argv[1]}/node_modules: {deps(Path(argv[1]))}")
    elif argv == ["web-build"]:
        print(f"web/dist: {web_build()}")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

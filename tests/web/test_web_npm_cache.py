"""tools/npm_cache.py: npm packages and the web build, once per machine and lockfile."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import npm_cache


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Node project with a lockfile, and an empty cache of its own."""
    monkeypatch.setenv("ROOST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(npm_cache, "node_major", lambda: "20")
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "package-lock.json").write_text('{"lockfileVersion": 3}')
    return folder


def _cache_entry(project: Path) -> Path:
    key = npm_cache.digest([project / "package-lock.json"], salt="node20")
    entry = npm_cache.cache_root() / "node_modules" / f"{project.name}-{key[:24]}"
    (entry / "left-pad").mkdir(parents=True)
    (entry / "left-pad" / "index.js").write_text("module.exports = 1")
    (entry / npm_cache.STAMP).write_text(key)
    return entry


def test_a_machine_that_installed_the_lockfile_copies_instead_of_running_npm(
    project: Path,
) -> None:
    """A cached entry for this lockfile is copied in (no npm ci: none could run in the
    unit tier), and a second call keeps what is there."""
    _cache_entry(project)
    assert npm_cache.deps(project) == "cached"
    assert (project / "node_modules" / "left-pad" / "index.js").read_text() == "module.exports = 1"
    assert npm_cache.deps(project) == "kept"


def test_another_lockfile_is_another_entry(project: Path) -> None:
    """A changed lockfile never reuses the packages of the old one."""
    _cache_entry(project)
    before = npm_cache.digest([project / "package-lock.json"], salt="node20")
    (project / "package-lock.json").write_text('{"lockfileVersion": 3, "packages": {}}')
    after = npm_cache.digest([project / "package-lock.json"], salt="node20")
    assert before != after
    assert npm_cache.digest([project / "package-lock.json"], salt="node22") != after


def test_the_web_build_key_covers_its_sources_protos_and_registry() -> None:
    inputs = {p.relative_to(npm_cache.ROOT).as_posix() for p in npm_cache.web_inputs()}
    assert {"web/package-lock.json", "web/index.html", "protos/roost/games.toml"} <= inputs
    assert any(name.startswith("web/src/") for name in inputs)
    assert any(name.endswith(".proto") for name in inputs)
    assert not any(name.startswith("web/src/gen/") for name in inputs)

"""deploy/Dockerfile, deploy/entrypoint.sh and .dockerignore have the required properties.

No Docker engine runs here, so the image is not built in tests: the Dockerfile
is parsed and checked, the entrypoint runs against stand-in commands, and the
.dockerignore rules are evaluated the way Docker evaluates them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.manifests import APP_UID, ROOT, SERVICES

DOCKERFILE = ROOT / "deploy" / "Dockerfile"
ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"
DOCKERIGNORE = ROOT / ".dockerignore"


@dataclass
class Instruction:
    keyword: str
    args: str


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction]

    def args_of(self, keyword: str) -> list[str]:
        return [i.args for i in self.instructions if i.keyword == keyword]


def parse_dockerfile(text: str) -> tuple[dict[str, str], list[Stage]]:
    """Global ARG defaults and the stages; continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    assert not pending, "dangling line continuation"
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in logical:
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        args = args.strip()
        if keyword == "FROM":
            match = re.fullmatch(r"(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?", args, re.I)
            assert match, line
            stages.append(Stage(match[1], match[2], []))
        elif not stages:
            assert keyword == "ARG", f"only ARG may precede FROM: {line}"
            name, _, default = args.partition("=")
            global_args[name] = default
        else:
            stages[-1].instructions.append(Instruction(keyword, args))
    return global_args, stages


@pytest.fixture(scope="module")
def dockerfile() -> tuple[dict[str, str], list[Stage]]:
    return parse_dockerfile(DOCKERFILE.read_text())


def test_multi_stage_builder_and_slim_runtime(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    global_args, stages = dockerfile
    assert [s.name for s in stages] == ["builder", "runtime"]
    for stage in stages:
        base = stage.base
        for name, default in global_args.items():
            base = base.replace("${" + name + "}", default).replace("$" + name, default)
        assert re.fullmatch(r"python:3\.11[\w.-]*-slim[\w.-]*", base), base


def test_builder_installs_the_project_into_a_venv_and_generates_stubs(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    builder = dockerfile[1][0]
    runs = builder.args_of("RUN")
    steps = " && ".join(runs)
    assert "python -m venv /opt/venv" in steps
    assert "/opt/venv/bin" in " ".join(builder.args_of("ENV"))
    assert "pyproject.toml" in steps and "pip install -r" in steps, "dependencies from pyproject"
    assert re.search(r"pip install --no-deps (-e )?\.", steps), "the project itself"
    assert "python tools/gen_protos.py" in steps
    assert "compileall" in steps, "byte-compiled: the runtime root file system is read-only"
    # Dependencies are installed before the sources are copied (layer cache).
    keywords = [(i.keyword, i.args) for i in builder.instructions]
    first_pip = next(n for n, (k, a) in enumerate(keywords) if k == "RUN" and "pip install" in a)
    copies = [(n, a) for n, (k, a) in enumerate(keywords) if k == "COPY"]
    assert copies[0][0] < first_pip and "pyproject.toml" in copies[0][1]
    assert all("pyproject.toml" in a or n > first_pip for n, a in copies)


def test_runtime_runs_as_a_fixed_non_root_user(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    runtime = dockerfile[1][-1]
    users = runtime.args_of("USER")
    assert users, "the final stage must set USER"
    uid, _, gid = users[-1].partition(":")
    assert uid == str(APP_UID) and gid == str(APP_UID), "numeric, so runAsNonRoot can check it"
    assert f"--uid {APP_UID}" in " ".join(runtime.args_of("RUN"))
    last_user = max(n for n, i in enumerate(runtime.instructions) if i.keyword == "USER")
    assert all(i.keyword != "RUN" for i in runtime.instructions[last_user:])


def test_runtime_environment_copies_and_entrypoint(
    dockerfile: tuple[dict[str, str], list[Stage]],
) -> None:
    runtime = dockerfile[1][-1]
    env = " ".join(runtime.args_of("ENV"))
    assert "PYTHONPATH=/app:/app/gen" in env
    assert "PATH=/opt/venv/bin:" in env
    assert "PYTHONDONTWRITEBYTECODE=1" in env
    copies = runtime.args_of("COPY")
    assert "--from=builder /opt/venv /opt/venv" in copies
    assert "--from=builder /app /app" in copies
    (entrypoint,) = runtime.args_of("ENTRYPOINT")
    command = json.loads(entrypoint)
    assert len(command) == 1, "exec form, so signals reach the entrypoint"
    assert any(
        c.startswith("--chmod=0755 deploy/entrypoint.sh ") and c.endswith(command[0])
        for c in copies
    )
    (expose,) = runtime.args_of("EXPOSE")
    assert expose.split() == ["50050-50054", "51050-51054", "52050-52054"]
    ports = sorted(port for port, _ in SERVICES.values())
    assert f"{ports[0]}-{ports[-1]}" in expose


# ------------------------------------------------------------------ entrypoint


@pytest.fixture
def stand_ins(tmp_path: Path) -> dict[str, str]:
    """PATH where ``python`` and ``roost`` only print how they were called."""
    for name in ("python", "roost"):
        script = tmp_path / name
        script.write_text(f'#!/bin/sh\necho "{name} $*"\n')
        script.chmod(0o755)
    return {**os.environ, "PATH": f"{tmp_path}{os.pathsep}/usr/bin{os.pathsep}/bin"}


def run_entrypoint(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    sh = shutil.which("sh")
    assert sh
    return subprocess.run(
        [sh, str(ENTRYPOINT), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_entrypoint_runs_the_service_named_first(stand_ins: dict[str, str], service: str) -> None:
    result = run_entrypoint(stand_ins, service, "--extra", "x y")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"python -m services.{service} --extra x y\n"


def test_entrypoint_runs_the_cli(stand_ins: dict[str, str]) -> None:
    args = ["tournament", "--game", "undertheleaves", "--bots", "random,greedy"]
    result = run_entrypoint(stand_ins, "roost", *args)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "roost " + " ".join(args) + "\n"


@pytest.mark.parametrize(("args", "code"), [((), 64), (("nope",), 64), (("--help",), 0)])
def test_entrypoint_usage(stand_ins: dict[str, str], args: tuple[str, ...], code: int) -> None:
    result = run_entrypoint(stand_ins, *args)
    assert result.returncode == code
    assert result.stdout == ""
    assert "usage:" in result.stderr and "undertheleaves" in result.stderr


def test_entrypoint_is_executable_and_execs() -> None:
    assert os.access(ENTRYPOINT, os.X_OK)
    text = ENTRYPOINT.read_text()
    assert text.startswith("#!/bin/sh\n")
    assert 'exec python -m "services.$command" "$@"' in text


# ------------------------------------------------------------------ .dockerignore


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; a pattern also covers what is under it."""
    result = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").strip("/")
        regex = ""
        for part in re.split(r"(\*\*/|\*\*|\*|\?|\[[^]]*\])", pattern):
            special = {"**/": "(.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
            if part in special:
                regex += special[part]
            elif part.startswith("["):
                regex += part  # a character class, as in Go's filepath.Match
            else:
                regex += re.escape(part)
        parts = path.split("/")
        prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
        if any(re.fullmatch(regex, prefix) for prefix in prefixes):
            result = not negate
    return result


@pytest.fixture(scope="module")
def ignore_patterns() -> list[str]:
    assert DOCKERIGNORE.is_file(), ".dockerignore must exist at the repository root"
    lines = [line.strip() for line in DOCKERIGNORE.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


@pytest.mark.parametrize(
    "path",
    [
        ".venv/bin/python",
        ".git/HEAD",
        "gen/roost/common/v1/common_pb2.py",
        "tests/deploy/test_deploy_image.py",
        "bench/out/results.json",
        "services/core/__pycache__/config.cpython-311.pyc",
        "__pycache__/x.pyc",
        "services/core/stray.pyc",
        "tools/stray.pyo",
        ".pytest_cache/v/cache",
        ".ruff_cache/x",
        "roost.egg-info/PKG-INFO",
        "deploy/k8s/base/kustomization.yaml",
        "docs/DEPLOY.md",
        ".redis-data/appendonly.aof",
    ],
)
def test_dockerignore_keeps_local_state_out(ignore_patterns: list[str], path: str) -> None:
    assert ignored(path, ignore_patterns)


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "README.md",
        "deploy/entrypoint.sh",
        "protos/roost/common/v1/common.proto",
        "tools/gen_protos.py",
        "services/core/config.py",
        "services/undertheleaves/rules/data/cards.json",
        "clients/cli/main.py",
    ],
)
def test_dockerignore_lets_in_what_the_build_uses(ignore_patterns: list[str], path: str) -> None:
    assert not ignored(path, ignore_patterns)

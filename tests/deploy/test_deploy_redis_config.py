"""Redis capacity settings of every overlay: maxmemory with headroom, noeviction, AOF only.

The rendered arguments are checked as written and then given to a real
``redis-server``, whose ``CONFIG GET`` must report the same settings.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from services.core.redis_server import find_redis_binary, free_port
from tests.deploy.manifests import OVERLAYS, Obj, container, find, rendered

#: maxmemory is at most this share of the container's memory limit: an AOF
#: rewrite forks, and copy-on-write can duplicate every page the server writes
#: while the child runs, up to the whole data set (docs/DEPLOY.md).
MAXMEMORY_SHARE_OF_LIMIT = 0.5

StartRedis = Callable[[list[str]], redis.Redis]

_KUBE_SUFFIXES = {
    "": 1,
    "k": 10**3,
    "M": 10**6,
    "G": 10**9,
    "T": 10**12,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
}
_REDIS_SUFFIXES = {
    "": 1,
    "b": 1,
    "k": 10**3,
    "kb": 2**10,
    "m": 10**6,
    "mb": 2**20,
    "g": 10**9,
    "gb": 2**30,
}


def kube_bytes(quantity: str) -> int:
    """A Kubernetes memory quantity ("512Mi", "2Gi", "1G", "1000") in bytes."""
    match = re.fullmatch(r"(\d+)([A-Za-z]*)", str(quantity))
    assert match and match[2] in _KUBE_SUFFIXES, f"unsupported quantity {quantity!r}"
    return int(match[1]) * _KUBE_SUFFIXES[match[2]]


def redis_bytes(value: str) -> int:
    """A Redis memory setting ("256mb", "1gb", "1000000") in bytes (Redis's own units)."""
    match = re.fullmatch(r"(\d+)([a-z]*)", value.lower())
    assert match and match[2] in _REDIS_SUFFIXES, f"unsupported Redis memory value {value!r}"
    return int(match[1]) * _REDIS_SUFFIXES[match[2]]


def expand(text: str, env: dict[str, str]) -> str:
    """The kubelet's expansion of ``$(VAR)`` in command and args (``$$`` escapes)."""

    def one(match: re.Match[str]) -> str:
        if match[0] == "$$":
            return "$"
        return env.get(match[1], match[0])

    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)", one, text)


def redis_container(env: str) -> Obj:
    """The redis container of the rendered ``env`` overlay."""
    return container(find(rendered(env), "StatefulSet", "redis"), "redis")


def redis_argv(env: str) -> list[str]:
    """The redis-server arguments the kubelet would run, variables expanded."""
    server = redis_container(env)
    variables = {e["name"]: e["value"] for e in server.get("env", []) if "value" in e}
    assert server["command"] == ["redis-server"]
    return [expand(arg, variables) for arg in server["args"]]


def options(argv: list[str]) -> dict[str, list[list[str]]]:
    """``--name value ...`` arguments grouped by name, each occurrence's values."""
    grouped: dict[str, list[list[str]]] = {}
    current: list[str] | None = None
    for arg in argv:
        if arg.startswith("--"):
            current = []
            grouped.setdefault(arg[2:], []).append(current)
        else:
            assert current is not None, f"a value before any option: {arg!r}"
            current.append(arg)
    return grouped


def single(argv: list[str], name: str) -> str:
    """The one value of option ``name``, which must appear exactly once."""
    found = options(argv).get(name)
    assert found is not None and len(found) == 1 and len(found[0]) == 1, (name, found)
    return found[0][0]


def memory_limit(env: str) -> int:
    """The redis container's memory limit in bytes."""
    return kube_bytes(redis_container(env)["resources"]["limits"]["memory"])


@pytest.mark.parametrize("env", sorted(OVERLAYS))
def test_every_variable_in_the_redis_args_is_defined(env: str) -> None:
    assert not [a for a in redis_argv(env) if "$(" in a], "an undefined $(VAR) stays literal"


@pytest.mark.parametrize("env", sorted(OVERLAYS))
def test_maxmemory_leaves_half_the_limit_for_the_aof_rewrite(env: str) -> None:
    maxmemory = redis_bytes(single(redis_argv(env), "maxmemory"))
    limit = memory_limit(env)
    assert 0 < maxmemory <= MAXMEMORY_SHARE_OF_LIMIT * limit, (env, maxmemory, limit)
    # Not needlessly low either: the rest of the limit is headroom, not waste.
    assert maxmemory >= 0.9 * MAXMEMORY_SHARE_OF_LIMIT * limit, (env, maxmemory, limit)


@pytest.mark.parametrize("env", sorted(OVERLAYS))
def test_a_full_redis_refuses_writes_and_persists_only_through_the_aof(env: str) -> None:
    argv = redis_argv(env)
    assert single(argv, "maxmemory-policy") == "noeviction"
    assert single(argv, "appendonly") == "yes"
    assert single(argv, "appendfsync") == "everysec"
    assert single(argv, "save") == "", "no RDB snapshots beside the AOF"
    assert single(argv, "dir") == "/data"


def test_prod_redis_has_more_memory_than_dev() -> None:
    assert memory_limit("prod") > memory_limit("dev")
    assert redis_bytes(single(redis_argv("prod"), "maxmemory")) > redis_bytes(
        single(redis_argv("dev"), "maxmemory")
    )


def test_units_are_read_as_redis_and_kubernetes_read_them() -> None:
    assert redis_bytes("256mb") == 256 * 2**20 == kube_bytes("256Mi")
    assert redis_bytes("1gb") == kube_bytes("1Gi") and redis_bytes("1g") == kube_bytes("1G")
    assert redis_bytes("1000") == 1000 and kube_bytes("2Gi") == 2 * 2**30
    assert expand("$(A)-$(B)-$$(A)", {"A": "x"}) == "x-$(B)-$(A)"


@pytest.fixture
def started_redis(tmp_path: Path) -> Iterator[StartRedis]:
    """Start redis-server with given arguments (``--dir`` moved to a temporary folder)."""
    binary = find_redis_binary()
    if binary is None:
        pytest.skip("no redis-server here")
    processes: list[subprocess.Popen[bytes]] = []

    def start(argv: list[str]) -> redis.Redis:
        argv = list(argv)
        argv[argv.index("--dir") + 1] = str(tmp_path)
        port = free_port()
        process = subprocess.Popen(
            [binary, *argv, "--port", str(port), "--bind", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        processes.append(process)
        client = redis.Redis(port=port, decode_responses=True)
        deadline = time.monotonic() + 10
        while True:
            assert process.poll() is None, f"redis-server refused {argv}"
            try:
                client.ping()
                return client
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    yield start
    for process in processes:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize("env", sorted(OVERLAYS))
def test_a_real_redis_runs_with_the_rendered_settings(env: str, started_redis: StartRedis) -> None:
    argv = redis_argv(env)
    client = started_redis(argv)
    config = client.config_get("*")
    assert int(config["maxmemory"]) == redis_bytes(single(argv, "maxmemory"))
    assert int(config["maxmemory"]) <= MAXMEMORY_SHARE_OF_LIMIT * memory_limit(env)
    assert config["maxmemory-policy"] == "noeviction"
    assert config["appendonly"] == "yes"
    assert config["appendfsync"] == "everysec"
    assert config["save"] == "", "Redis would otherwise snapshot by its default schedule"

"""Redis capacity settings of every overlay: maxmemory with headroom, noeviction, AOF only.

The rendered arguments are checked as written and then given to a real
``redis-server``, whose ``CONFIG GET`` must report the same settings.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from deploy import redis_settings as settings
from deploy.redis_settings import expand, kube_bytes, redis_bytes, redis_container, single
from services.core.redis_server import find_redis_binary, free_port
from tests.deploy.manifests import OVERLAYS, rendered

#: maxmemory is at most this share of the container's memory limit: an AOF
#: rewrite forks, and copy-on-write can duplicate every page the server writes
#: while the child runs, up to the whole data set (docs/DEPLOY.md).
MAXMEMORY_SHARE_OF_LIMIT = 0.5

StartRedis = Callable[[list[str]], redis.Redis]


def redis_argv(env: str) -> list[str]:
    """The redis-server arguments of the rendered ``env`` overlay, as the kubelet runs them."""
    server = redis_container(rendered(env))
    assert server["command"] == ["redis-server"]
    return settings.redis_argv(rendered(env))


def memory_limit(env: str) -> int:
    """The redis container's memory limit in bytes."""
    return settings.memory_limit(rendered(env))


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
    for wrong in ("1 GB", "1tb", "-1mb"):
        with pytest.raises(ValueError):
            redis_bytes(wrong)
    with pytest.raises(ValueError):
        kube_bytes("1gi")
    argv = ["--save", "", "--appendonly", "yes", "--save", "60", "1"]
    assert settings.options(argv) == {"save": [[""], ["60", "1"]], "appendonly": [["yes"]]}
    assert single(argv, "appendonly") == "yes"
    with pytest.raises(ValueError):
        single(argv, "save")  # given twice: the later one would win


def test_the_settings_command_prints_the_prod_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert settings.main([str(OVERLAYS["prod"])]) == 0
    out = capsys.readouterr().out
    assert "--maxmemory 1gb" in out and '--save ""' in out
    assert f"maxmemory {2**30:,} bytes, memory limit {2 * 2**30:,} bytes" in out
    assert settings.main([]) == 2


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

"""The in-cluster Redis's settings as the rendered manifests give them.

``redis-server`` takes its settings as ``--name value`` arguments of the redis
container in ``deploy/k8s/redis/redis.yaml``; ``$(VAR)`` references in them are
expanded by the kubelet from the container's ``env`` (an overlay sets
``REDIS_MAXMEMORY`` beside the memory limit). This module reads them back, in
the units Redis and Kubernetes use, for the deploy tests and for
``bench/redis_memory.py`` (how many games a manifest's ``maxmemory`` holds).

Usage: ``python -m deploy.redis_settings deploy/k8s/overlays/prod`` prints the
arguments, the maxmemory and the memory limit in bytes.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from deploy.render import render

Obj = dict[str, Any]

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
# Redis's units (redis.conf): "1m" is 1,000,000 bytes, "1mb" 1,048,576.
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


def kube_bytes(quantity: str | int) -> int:
    """A Kubernetes memory quantity ("512Mi", "2Gi", "1G", "1000") in bytes."""
    match = re.fullmatch(r"(\d+)([A-Za-z]*)", str(quantity))
    if not match or match[2] not in _KUBE_SUFFIXES:
        raise ValueError(f"unsupported memory quantity {quantity!r}")
    return int(match[1]) * _KUBE_SUFFIXES[match[2]]


def redis_bytes(value: str) -> int:
    """A Redis memory setting ("256mb", "1gb", "1000000") in bytes."""
    match = re.fullmatch(r"(\d+)([a-z]*)", value.lower())
    if not match or match[2] not in _REDIS_SUFFIXES:
        raise ValueError(f"unsupported Redis memory value {value!r}")
    return int(match[1]) * _REDIS_SUFFIXES[match[2]]


def expand(text: str, env: dict[str, str]) -> str:
    """The kubelet's expansion of ``$(VAR)`` in command and args.

    ``$$`` escapes a dollar; a reference to an undefined variable stays as written.
    """

    def one(match: re.Match[str]) -> str:
        if match[0] == "$$":
            return "$"
        return env.get(match[1], match[0])

    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)", one, text)


def redis_container(objects: list[Obj]) -> Obj:
    """The ``redis`` container of the StatefulSet ``redis`` among rendered objects."""
    (statefulset,) = [
        o for o in objects if o["kind"] == "StatefulSet" and o["metadata"]["name"] == "redis"
    ]
    containers = statefulset["spec"]["template"]["spec"]["containers"]
    (server,) = [c for c in containers if c["name"] == "redis"]
    return server


def redis_argv(objects: list[Obj]) -> list[str]:
    """The arguments of ``redis-server`` as the kubelet passes them (variables expanded)."""
    server = redis_container(objects)
    variables = {e["name"]: e["value"] for e in server.get("env", []) if "value" in e}
    return [expand(str(arg), variables) for arg in server.get("args", [])]


def options(argv: list[str]) -> dict[str, list[list[str]]]:
    """``--name value ...`` arguments grouped by name: the values of each occurrence."""
    grouped: dict[str, list[list[str]]] = {}
    current: list[str] | None = None
    for arg in argv:
        if arg.startswith("--"):
            current = []
            grouped.setdefault(arg[2:], []).append(current)
        elif current is None:
            raise ValueError(f"a value before any option: {arg!r}")
        else:
            current.append(arg)
    return grouped


def single(argv: list[str], name: str) -> str:
    """The one value of option ``name``; ValueError unless it is given exactly once."""
    found = options(argv).get(name)
    if found is None or len(found) != 1 or len(found[0]) != 1:
        raise ValueError(f"--{name} must be given once with one value, got {found}")
    return found[0][0]


def maxmemory(objects: list[Obj]) -> int:
    """The Redis ``maxmemory`` of rendered objects, in bytes."""
    return redis_bytes(single(redis_argv(objects), "maxmemory"))


def memory_limit(objects: list[Obj]) -> int:
    """The redis container's memory limit, in bytes."""
    return kube_bytes(redis_container(objects)["resources"]["limits"]["memory"])


def main(argv: list[str] | None = None) -> int:
    """Print the Redis settings of a kustomization folder."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m deploy.redis_settings KUSTOMIZATION_DIR", file=sys.stderr)
        return 2
    objects = render(Path(args[0]))
    print("redis-server", " ".join(a if a else '""' for a in redis_argv(objects)))
    print(f"maxmemory {maxmemory(objects):,} bytes, memory limit {memory_limit(objects):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

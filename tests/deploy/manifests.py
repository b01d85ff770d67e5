"""Rendered Roost manifests and the facts the deploy tests check them against."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from roost import games as identities

from deploy.render import render

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
OVERLAYS = {
    "dev": K8S / "overlays" / "dev",
    "prod": K8S / "overlays" / "prod",
    "prod-tls": K8S / "overlays" / "prod-tls",
}
LOADTEST = K8S / "loadtest"
BROWSER = K8S / "browser"
CERTIFICATES = K8S / "certificates"  # cert-manager objects: no schema offline
NAMESPACE = "roost"

# name -> (gRPC port, full proto service name): the registry (protos/roost/games.toml),
# which the manifests must follow.
SERVICES = {
    i.name: (i.default_port, i.full_name) for i in (identities.MATCHMAKER, *identities.GAMES)
}
GAMES = identities.names()
METRICS_OFFSET = 1000
CONNECT_OFFSET = 2000  # the browser port (Connect, gRPC-Web): services/core/config.py
APP_UID = 10001  # the USER of deploy/Dockerfile

Obj = dict[str, Any]


@functools.cache
def _render(path: Path) -> tuple[Obj, ...]:
    return tuple(render(path))


def rendered(target: str) -> list[Obj]:
    """A fresh copy of the rendered objects of "dev", "prod", "prod-tls", "loadtest",
    "browser" or "certificates"."""
    import copy

    extra = {"loadtest": LOADTEST, "browser": BROWSER, "certificates": CERTIFICATES}
    path = extra.get(target) or OVERLAYS[target]
    return copy.deepcopy(list(_render(path)))


def find(objects: list[Obj], kind: str, name: str) -> Obj:
    """The one object of ``kind`` named ``name``."""
    matches = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(matches) == 1, f"expected one {kind}/{name}, found {len(matches)}"
    return matches[0]


def of_kind(objects: list[Obj], kind: str) -> list[Obj]:
    return [o for o in objects if o["kind"] == kind]


def workloads(objects: list[Obj]) -> list[Obj]:
    """Objects with a pod template."""
    return [o for o in objects if o["kind"] in {"Deployment", "StatefulSet", "Job"}]


def pod_template(obj: Obj) -> Obj:
    return obj["spec"]["template"]


def container(obj: Obj, name: str | None = None) -> Obj:
    """The container ``name`` (or the only one) of a workload's pod template."""
    containers = pod_template(obj)["spec"]["containers"]
    if name is None:
        assert len(containers) == 1, f"{obj['metadata']['name']}: expected one container"
        return containers[0]
    return next(c for c in containers if c["name"] == name)


def selector_matches(selector: dict[str, Any] | None, labels: dict[str, str]) -> bool:
    """Kubernetes label-selector semantics (matchLabels and matchExpressions).

    A plain mapping (a Service's ``spec.selector``) is treated as matchLabels.
    """
    if selector is None:
        return False
    if "matchLabels" not in selector and "matchExpressions" not in selector:
        selector = {"matchLabels": selector}
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expr in selector.get("matchExpressions") or []:
        key, operator, values = expr["key"], expr["operator"], expr.get("values") or []
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True

"""Every rendered object validates against the Kubernetes schemas, offline and strictly.

kubernetes-validate 1.37.0 carries the OpenAPI schemas of Kubernetes 1.25 to
1.37. The manifests are checked against the oldest version they support and the
newest one carried. ``--strict`` rejects unknown fields; a missing schema (an
unknown kind or apiVersion) is a failure here, although the CLI only warns and
exits 0 for it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
from kubernetes_validate.utils import SchemaNotFoundError, ValidationError, all_versions

from deploy.render import dump
from tests.deploy.manifests import rendered

KUBERNETES_VALIDATE_VERSION = "1.37.0"
# Oldest supported (native gRPC probes are GA since 1.27; PVC retention
# policy on by default since 1.27) and newest carried.
KUBERNETES_VERSIONS = ("1.30.0", "1.37.0")
TARGETS = ("dev", "prod", "prod-tls", "loadtest", "browser")


def test_pinned_validator_carries_the_pinned_kubernetes_versions() -> None:
    assert kubernetes_validate.__version__ == KUBERNETES_VALIDATE_VERSION
    carried = set(all_versions())
    for version in KUBERNETES_VERSIONS:
        assert version in carried, f"kubernetes-validate lacks schemas for {version}"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("target", TARGETS)
def test_every_object_validates_strictly(target: str, version: str) -> None:
    failures = []
    for obj in rendered(target):
        name = f"{obj['kind']}/{obj['metadata']['name']}"
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except SchemaNotFoundError as error:
            failures.append(f"{name}: {error.message}")
        except ValidationError as error:
            path = ".".join(str(p) for p in error.path)
            failures.append(f"{name}: {path}: {error.message}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("target", TARGETS)
def test_cli_passes_without_warnings(target: str, tmp_path: Path) -> None:
    """The same through the kubernetes-validate command, as CI or a person runs it."""
    manifest = tmp_path / f"{target}.yaml"
    manifest.write_text(dump(rendered(target)))
    result = run_cli(manifest, KUBERNETES_VERSIONS[-1])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARN" not in result.stdout and "ERROR" not in result.stdout, result.stdout
    assert result.stdout.count("passed") == len(rendered(target))


def run_cli(manifest: Path, version: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kubernetes_validate", "--strict", "-k", version, str(manifest)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_validation_really_is_strict_and_misses_are_caught(tmp_path: Path) -> None:
    """Guard the guard: an unknown field fails, and an unknown kind only warns (exit 0)."""
    deployment = next(o for o in rendered("prod") if o["kind"] == "Deployment")
    deployment["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["grpcc"] = {}
    with pytest.raises(ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSIONS[-1], strict=True)

    unknown = {"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor"}
    unknown["metadata"] = {"name": "x"}
    with pytest.raises(SchemaNotFoundError):
        kubernetes_validate.validate(unknown, KUBERNETES_VERSIONS[-1], strict=True)
    manifest = tmp_path / "unknown.yaml"
    manifest.write_text(dump([unknown]))
    result = run_cli(manifest, KUBERNETES_VERSIONS[-1])
    assert result.returncode == 0 and "WARN" in result.stdout, "the CLI only warns: we must check"

"""The game archive in the manifests (docs/DEPLOY.md, "Game archive"): an in-cluster
PostgreSQL StatefulSet with its data on a claim, and every service's ARCHIVE_URL
naming its Service, the password coming only from the Secret roost-archive."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.deploy.manifests import SERVICES, Obj, container, find, pod_template, rendered
from tests.deploy.test_deploy_manifests import ENVS, resolve

SECRET = {"name": "roost-archive", "key": "password"}


def env_refs(c: Obj) -> dict[str, Obj]:
    return {e["name"]: e for e in c.get("env", [])}


@pytest.mark.parametrize("env", ENVS)
def test_postgres_is_a_statefulset_with_its_data_on_a_claim(env: str) -> None:
    objects = rendered(env)
    archive = find(objects, "StatefulSet", "archive")
    server = container(archive)
    settings = env_refs(server)
    assert settings["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"] == SECRET
    assert "value" not in settings["POSTGRES_PASSWORD"]
    claims = {c["metadata"]["name"] for c in archive["spec"]["volumeClaimTemplates"]}
    mounts = {m["name"]: m["mountPath"] for m in server["volumeMounts"]}
    assert claims == {"data"}
    # PGDATA inside the claim, in a folder of its own (the claim's root may hold lost+found).
    pgdata = settings["PGDATA"]["value"]
    assert pgdata.startswith(mounts["data"] + "/") and pgdata != mounts["data"]
    assert archive["spec"]["persistentVolumeClaimRetentionPolicy"] == {
        "whenDeleted": "Retain",
        "whenScaled": "Retain",
    }
    governing = find(objects, "Service", archive["spec"]["serviceName"])
    assert governing["spec"]["clusterIP"] == "None"
    spec = pod_template(archive)["spec"]
    writable = {m["mountPath"] for m in server["volumeMounts"]}
    assert {"/var/run/postgresql", "/tmp"} <= writable  # read-only root file system
    assert spec["securityContext"]["runAsUser"] == 999  # the image's postgres user


@pytest.mark.parametrize("env", ENVS)
def test_every_service_archives_to_the_in_cluster_postgres(env: str) -> None:
    objects = rendered(env)
    url = urlsplit(find(objects, "ConfigMap", "roost-config")["data"]["ARCHIVE_URL"])
    assert url.scheme == "postgresql" and url.password is None  # no secret in a ConfigMap
    assert resolve(objects, f"{url.hostname}:{url.port}") == ("archive", 5432)
    postgres = env_refs(container(find(objects, "StatefulSet", "archive")))
    assert url.username == postgres["POSTGRES_USER"]["value"]
    assert url.path == "/" + postgres["POSTGRES_DB"]["value"]
    for name in SERVICES:
        password = env_refs(container(find(objects, "Deployment", name)))["PGPASSWORD"]
        assert password["valueFrom"]["secretKeyRef"] == SECRET, name


def test_prod_gives_the_archive_room() -> None:
    archive = find(rendered("prod"), "StatefulSet", "archive")
    claim = archive["spec"]["volumeClaimTemplates"][0]["spec"]["resources"]["requests"]
    assert claim["storage"] == "100Gi"
    assert container(archive)["resources"]["limits"]["memory"] == "2Gi"

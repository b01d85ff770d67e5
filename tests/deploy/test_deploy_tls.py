"""Transport security and the guest key in the manifests (docs/DEPLOY.md, "Transport
security"): the cert-manager objects of deploy/k8s/certificates, which the offline
validator has no schema for, are checked here by shape (cert-manager.io/v1 fields,
references between them), and the prod-tls overlay mounts the Certificate's
Secret into every service with the settings that turn TLS on."""

from __future__ import annotations

import pytest

from tests.deploy.manifests import (
    NAMESPACE,
    SERVICES,
    Obj,
    find,
    of_kind,
    rendered,
)

CERT_MANAGER = "cert-manager.io/v1"
TLS_SECRET = "roost-tls"
TLS_MOUNT = "/etc/roost/tls"
GUEST_MOUNT = "/etc/roost/guest"
#: The cert-manager.io/v1 fields these objects may use (a typo is a failure).
ISSUER_KINDS = {"selfSigned", "ca", "acme", "vault", "venafi"}
CERTIFICATE_FIELDS = {
    "secretName", "commonName", "dnsNames", "isCA", "duration", "renewBefore",
    "privateKey", "usages", "issuerRef", "ipAddresses", "uris", "subject",
}  # fmt: skip
PRIVATE_KEY_FIELDS = {"algorithm", "size", "rotationPolicy", "encoding"}
USAGES = {"server auth", "client auth", "digital signature", "key encipherment", "cert sign"}


def server(obj: Obj) -> Obj:
    return next(c for c in obj["spec"]["template"]["spec"]["containers"] if c["name"] == "server")


def env(obj: Obj) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in server(obj).get("env", [])}


def secret_mounts(obj: Obj) -> dict[str, str]:
    """Secret name -> the read-only mount path of the server container."""
    volumes = {
        v["name"]: v["secret"]["secretName"]
        for v in obj["spec"]["template"]["spec"]["volumes"]
        if "secret" in v
    }
    return {
        volumes[m["name"]]: m["mountPath"]
        for m in server(obj)["volumeMounts"]
        if m["name"] in volumes and m.get("readOnly") is True
    }


def test_cert_manager_objects_have_the_v1_shape_and_reference_each_other() -> None:
    objects = rendered("certificates")
    assert {o["apiVersion"] for o in objects} == {CERT_MANAGER}
    assert {o["kind"] for o in objects} == {"Issuer", "Certificate"}
    issuers = {o["metadata"]["name"]: o for o in of_kind(objects, "Issuer")}
    for issuer in issuers.values():
        assert issuer["metadata"]["namespace"] == NAMESPACE
        assert len(issuer["spec"]) == 1 and set(issuer["spec"]) <= ISSUER_KINDS
    ca_secrets = {i["spec"]["ca"]["secretName"] for i in issuers.values() if "ca" in i["spec"]}
    for cert in of_kind(objects, "Certificate"):
        spec = cert["spec"]
        assert cert["metadata"]["namespace"] == NAMESPACE
        assert set(spec) <= CERTIFICATE_FIELDS, set(spec) - CERTIFICATE_FIELDS
        assert spec["secretName"] and spec["issuerRef"]["name"] in issuers
        assert spec["issuerRef"] == {
            "name": spec["issuerRef"]["name"],
            "kind": "Issuer",
            "group": "cert-manager.io",
        }
        assert set(spec.get("privateKey", {})) <= PRIVATE_KEY_FIELDS
        assert set(spec.get("usages", [])) <= USAGES
        for duration in ("duration", "renewBefore"):
            if duration in spec:
                assert spec[duration].endswith("h") and int(spec[duration][:-1]) > 0
        if spec.get("isCA"):
            assert spec["secretName"] in ca_secrets  # the CA Issuer signs with it
    serving = find(objects, "Certificate", TLS_SECRET)["spec"]
    assert serving["secretName"] == TLS_SECRET
    assert "server auth" in serving["usages"]
    assert int(serving["renewBefore"][:-1]) < int(serving["duration"][:-1])


def test_the_certificate_names_every_service() -> None:
    """The matchmaker dials ``<game>:<port>`` and the Ingress each Service: the
    certificate must hold every name a client may verify."""
    names = set(find(rendered("certificates"), "Certificate", TLS_SECRET)["spec"]["dnsNames"])
    for name in SERVICES:
        for suffix in ("", f".{NAMESPACE}", f".{NAMESPACE}.svc", f".{NAMESPACE}.svc.cluster.local"):
            assert f"{name}{suffix}" in names


def test_prod_tls_mounts_the_certificate_into_every_service_and_turns_tls_on() -> None:
    objects = rendered("prod-tls")
    for name in SERVICES:
        deployment = find(objects, "Deployment", name)
        assert secret_mounts(deployment)[TLS_SECRET] == TLS_MOUNT, name
        settings = env(deployment)
        assert settings["TLS_CERT_FILE"] == f"{TLS_MOUNT}/tls.crt", name
        assert settings["TLS_KEY_FILE"] == f"{TLS_MOUNT}/tls.key", name
        # The kubelet's gRPC probe speaks no TLS: readiness is a TCP check there.
        probe = server(deployment)["readinessProbe"]
        assert "grpc" not in probe and probe["tcpSocket"] == {"port": "grpc"}, name
    matchmaker = env(find(objects, "Deployment", "matchmaking"))
    assert matchmaker["GAME_TLS_CA_FILE"] == f"{TLS_MOUNT}/ca.crt"
    # The rest is prod's: the same objects, no Certificate needed in the overlay.
    assert [(o["kind"], o["metadata"]["name"]) for o in objects] == [
        (o["kind"], o["metadata"]["name"]) for o in rendered("prod")
    ]


@pytest.mark.parametrize("env_name", ("dev", "prod"))
def test_plain_overlays_keep_the_grpc_port_in_cleartext(env_name: str) -> None:
    for name in SERVICES:
        deployment = find(rendered(env_name), "Deployment", name)
        assert "TLS_CERT_FILE" not in env(deployment) and TLS_SECRET not in secret_mounts(
            deployment
        )


@pytest.mark.parametrize("env_name", ("dev", "prod", "prod-tls"))
def test_every_service_mounts_the_one_guest_key(env_name: str) -> None:
    """Guest tokens signed by one replica verify on every other: all services read
    the same Secret, read-only (a missing file is never created in a pod)."""
    for name in SERVICES:
        deployment = find(rendered(env_name), "Deployment", name)
        assert secret_mounts(deployment)["roost-guest-key"] == GUEST_MOUNT, name
        assert env(deployment)["GUEST_KEY_FILE"] == f"{GUEST_MOUNT}/guest_key.pem", name

"""Cross-references inside the rendered manifests: what kubectl would only find out live."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.deploy.manifests import (
    APP_UID,
    CONNECT_OFFSET,
    GAMES,
    METRICS_OFFSET,
    NAMESPACE,
    SERVICES,
    Obj,
    container,
    find,
    of_kind,
    pod_template,
    rendered,
    selector_matches,
    workloads,
)

ENVS = ("dev", "prod")


def container_ports(obj: Obj) -> dict[str, int]:
    return {
        p["name"]: p["containerPort"]
        for c in pod_template(obj)["spec"]["containers"]
        for p in c.get("ports", [])
    }


def env_of(c: Obj) -> dict[str, str]:
    return {e["name"]: e["value"] for e in c.get("env", []) if "value" in e}


@pytest.mark.parametrize("env", ENVS)
def test_every_service_has_deployment_service_and_service_account(env: str) -> None:
    objects = rendered(env)
    for name in SERVICES:
        deployment = find(objects, "Deployment", name)
        find(objects, "Service", name)
        account = find(objects, "ServiceAccount", name)
        assert pod_template(deployment)["spec"]["serviceAccountName"] == account["metadata"]["name"]
    assert {o["metadata"]["name"] for o in of_kind(objects, "Deployment")} == set(SERVICES)


@pytest.mark.parametrize("env", ENVS)
def test_all_objects_are_in_the_roost_namespace(env: str) -> None:
    for obj in rendered(env):
        if obj["kind"] == "Namespace":
            assert obj["metadata"]["name"] == NAMESPACE
        else:
            assert obj["metadata"]["namespace"] == NAMESPACE, obj["metadata"]["name"]


@pytest.mark.parametrize("env", ENVS)
def test_workload_selectors_match_their_pod_labels(env: str) -> None:
    for obj in workloads(rendered(env)):
        if obj["kind"] == "Job":
            continue
        labels = pod_template(obj)["metadata"]["labels"]
        assert selector_matches(obj["spec"]["selector"], labels), obj["metadata"]["name"]
        assert labels["app.kubernetes.io/part-of"] == "roost"
        assert labels["roost.dev/environment"] == env


@pytest.mark.parametrize("env", ENVS)
def test_each_service_selects_exactly_one_workload_whose_ports_it_targets(env: str) -> None:
    objects = rendered(env)
    for service in of_kind(objects, "Service"):
        selected = [
            w
            for w in workloads(objects)
            if selector_matches(service["spec"]["selector"], pod_template(w)["metadata"]["labels"])
        ]
        assert len(selected) == 1, service["metadata"]["name"]
        ports = container_ports(selected[0])
        for port in service["spec"]["ports"]:
            target = port["targetPort"]
            assert target in ports if isinstance(target, str) else target in ports.values()


@pytest.mark.parametrize("env", ENVS)
def test_service_ports_are_the_fixed_ones(env: str) -> None:
    objects = rendered(env)
    for name, (port, _) in SERVICES.items():
        service_ports = {
            p["name"]: p["port"] for p in find(objects, "Service", name)["spec"]["ports"]
        }
        assert service_ports == {
            "grpc": port,
            "metrics": port + METRICS_OFFSET,
            "http": port + CONNECT_OFFSET,
        }
        assert container_ports(find(objects, "Deployment", name)) == service_ports


@pytest.mark.parametrize("env", ENVS)
def test_the_browser_port_is_wired(env: str) -> None:
    """CONNECT_PORT, the container port "http" and the Service port "http" agree;
    the ConfigMap says which web origins may call it."""
    objects = rendered(env)
    config = find(objects, "ConfigMap", "roost-config")["data"]
    assert config["CORS_ALLOWED_ORIGINS"]
    for name, (port, _) in SERVICES.items():
        deployment = find(objects, "Deployment", name)
        assert env_of(container(deployment))["CONNECT_PORT"] == str(port + CONNECT_OFFSET)
        assert container_ports(deployment)["http"] == port + CONNECT_OFFSET
        service_port = next(
            p for p in find(objects, "Service", name)["spec"]["ports"] if p["name"] == "http"
        )
        assert service_port["targetPort"] == "http"
        assert service_port["port"] == port + CONNECT_OFFSET


def test_the_browser_ingress_routes_each_proto_service_to_its_browser_port() -> None:
    """One TLS host; the path /<package>.<Service>/ reaches that service's "http" port."""
    (ingress,) = rendered("browser")
    assert ingress["kind"] == "Ingress" and ingress["metadata"]["namespace"] == NAMESPACE
    (tls,) = ingress["spec"]["tls"]
    assert tls["secretName"]
    (rule,) = ingress["spec"]["rules"]
    assert rule["host"] in tls["hosts"]
    routes = {path["path"]: path["backend"]["service"] for path in rule["http"]["paths"]}
    prod = rendered("prod")
    assert routes == {
        f"/{proto_service}/": {"name": name, "port": {"name": "http"}}
        for name, (_port, proto_service) in SERVICES.items()
    }
    for backend in routes.values():
        service = find(prod, "Service", backend["name"])
        assert "http" in [p["name"] for p in service["spec"]["ports"]]


PROBE_HANDLERS = {"exec", "grpc", "httpGet", "tcpSocket"}


@pytest.mark.parametrize("env", ENVS)
def test_readiness_follows_the_grpc_health_service(env: str) -> None:
    """The server reports NOT_SERVING while Redis is unreachable (and while it drains):
    a native gRPC probe on the service's own health name takes the pod out of its
    Service until it is SERVING again."""
    objects = rendered(env)
    for name, (port, proto_service) in SERVICES.items():
        server = container(find(objects, "Deployment", name))
        probe = server["readinessProbe"]
        assert set(probe) & PROBE_HANDLERS == {"grpc"}, name
        assert probe["grpc"] == {"port": port, "service": proto_service}, name
        assert container_ports(find(objects, "Deployment", name))["grpc"] == port


@pytest.mark.parametrize("env", ENVS)
def test_start_and_liveness_do_not_depend_on_redis(env: str) -> None:
    """A Redis outage turns the health service NOT_SERVING; probes that restart a
    pod (startup and liveness) must not look at it, or an outage would restart every
    pod. They check that the gRPC port accepts connections."""
    objects = rendered(env)
    for name, (port, _) in SERVICES.items():
        deployment = find(objects, "Deployment", name)
        server = container(deployment)
        for kind in ("startupProbe", "livenessProbe"):
            probe = server[kind]
            assert set(probe) & PROBE_HANDLERS == {"tcpSocket"}, (name, kind)
            target = probe["tcpSocket"]["port"]
            resolved = container_ports(deployment)[target] if isinstance(target, str) else target
            assert resolved == port, (name, kind, target)
        # Liveness gives up later than readiness: a pod leaves its Service first.
        live, ready = server["livenessProbe"], server["readinessProbe"]
        assert live["periodSeconds"] * live["failureThreshold"] > (
            ready["periodSeconds"] * ready["failureThreshold"]
        )


@pytest.mark.parametrize("env", ENVS)
def test_services_get_their_settings(env: str) -> None:
    objects = rendered(env)
    config = find(objects, "ConfigMap", "roost-config")["data"]
    for key in ("REDIS_URL", "REDIS_CLUSTER", "LOG_LEVEL", "GAME_TTL_SECONDS", "GRACE_SECONDS"):
        assert key in config
    for name, (port, _) in SERVICES.items():
        deployment = find(objects, "Deployment", name)
        server = container(deployment)
        assert server["args"] == [name], "the entrypoint picks the service by its first argument"
        assert {"configMapRef": {"name": "roost-config"}} in server["envFrom"]
        env_vars = env_of(server)
        assert env_vars["PORT"] == str(port)
        assert env_vars["METRICS_PORT"] == str(port + METRICS_OFFSET)
        annotations = pod_template(deployment)["metadata"]["annotations"]
        assert annotations["prometheus.io/port"] == env_vars["METRICS_PORT"]
        assert not set(env_vars) & set(config), "per-pod env must not shadow the ConfigMap"


def resolve(objects: list[Obj], address: str) -> tuple[str, int]:
    """``host:port`` -> (Service name, port), asserting both exist in the namespace."""
    host, _, port = address.rpartition(":")
    host = host.split(".")[0]
    service = find(objects, "Service", host)
    assert int(port) in [p["port"] for p in service["spec"]["ports"]], address
    return host, int(port)


@pytest.mark.parametrize("env", ENVS)
def test_addresses_point_at_existing_services(env: str) -> None:
    objects = rendered(env)
    url = find(objects, "ConfigMap", "roost-config")["data"]["REDIS_URL"]
    match = re.fullmatch(r"redis://([^/:]+):(\d+)/\d+", url)
    assert match, url
    assert resolve(objects, f"{match[1]}:{match[2]}") == ("redis", 6379)
    matchmaker = env_of(container(find(objects, "Deployment", "matchmaking")))
    for game in GAMES:
        address = matchmaker[f"GAME_ADDR_{game.upper()}"]
        assert resolve(objects, address) == (game, SERVICES[game][0])


@pytest.mark.parametrize("env", ENVS)
def test_termination_grace_covers_prestop_and_drain(env: str) -> None:
    objects = rendered(env)
    grace = float(find(objects, "ConfigMap", "roost-config")["data"]["GRACE_SECONDS"])
    for name in SERVICES:
        spec = pod_template(find(objects, "Deployment", name))["spec"]
        sleep = container(find(objects, "Deployment", name))["lifecycle"]["preStop"]["exec"]
        assert sleep["command"][0] == "sleep"
        assert spec["terminationGracePeriodSeconds"] > grace + float(sleep["command"][1])


@pytest.mark.parametrize("env", ENVS)
def test_redis_is_a_statefulset_with_aof_on_a_claim(env: str) -> None:
    objects = rendered(env)
    redis = find(objects, "StatefulSet", "redis")
    args = container(redis)["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--dir") + 1] == "/data"
    claims = {c["metadata"]["name"] for c in redis["spec"]["volumeClaimTemplates"]}
    mounts = {m["name"]: m["mountPath"] for m in container(redis)["volumeMounts"]}
    assert mounts["data"] == "/data" and "data" in claims
    governing = find(objects, "Service", redis["spec"]["serviceName"])
    assert governing["spec"]["clusterIP"] == "None"


def test_dev_runs_one_replica_of_each_and_no_autoscaling() -> None:
    objects = rendered("dev")
    for name in SERVICES:
        assert find(objects, "Deployment", name)["spec"]["replicas"] == 1
        assert container(find(objects, "Deployment", name))["image"] == "roost:dev"
    kinds = {o["kind"] for o in objects}
    assert not kinds & {"HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"}


def test_prod_scales_every_service_with_an_hpa_and_a_pdb() -> None:
    objects = rendered("prod")
    hpas = of_kind(objects, "HorizontalPodAutoscaler")
    pdbs = of_kind(objects, "PodDisruptionBudget")
    assert len(hpas) == len(pdbs) == len(SERVICES)
    for name in SERVICES:
        deployment = find(objects, "Deployment", name)
        hpa = next(h for h in hpas if h["spec"]["scaleTargetRef"]["name"] == name)
        assert hpa["apiVersion"] == "autoscaling/v2"
        assert hpa["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "name": name,
        }
        assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
        assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"]
        labels = pod_template(deployment)["metadata"]["labels"]
        covering = [p for p in pdbs if selector_matches(p["spec"]["selector"], labels)]
        assert len(covering) == 1, name
        # A PDB must select only this service's pods.
        for other in workloads(objects):
            if other is not deployment:
                other_labels = pod_template(other)["metadata"]["labels"]
                assert not selector_matches(covering[0]["spec"]["selector"], other_labels)
        assert covering[0]["spec"].get("maxUnavailable") == 1
        # Unready pods (all of them during a Redis outage) never block a node drain.
        assert covering[0]["spec"]["unhealthyPodEvictionPolicy"] == "AlwaysAllow"


@pytest.mark.parametrize("env", ENVS)
def test_an_apply_never_resets_an_autoscaled_replica_count(env: str) -> None:
    """A Deployment that an HPA scales carries no spec.replicas: applying the
    manifests would otherwise set it back to that count until the autoscaler
    acts again. Deployments without an autoscaler state their count."""
    objects = rendered(env)
    scaled = {
        h["spec"]["scaleTargetRef"]["name"]
        for h in of_kind(objects, "HorizontalPodAutoscaler")
        if h["spec"]["scaleTargetRef"]["kind"] == "Deployment"
    }
    for deployment in of_kind(objects, "Deployment"):
        name = deployment["metadata"]["name"]
        if name in scaled:
            assert "replicas" not in deployment["spec"], name
        else:
            assert deployment["spec"]["replicas"] >= 1, name
    assert scaled == (set(SERVICES) if env == "prod" else set())


def test_prod_uses_a_released_image_everywhere() -> None:
    images = {container(find(rendered("prod"), "Deployment", n))["image"] for n in SERVICES}
    assert len(images) == 1
    (image,) = images
    assert "/" in image and ":" in image and not image.endswith(":latest")


def test_prod_sizes_every_container() -> None:
    for obj in workloads(rendered("prod")):
        for c in pod_template(obj)["spec"]["containers"]:
            resources = c["resources"]
            for part in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(resources[part]), (obj["metadata"]["name"], part)


# ------------------------------------------------------------------ security


def all_pod_specs(env: str) -> list[tuple[str, Obj]]:
    objects = rendered(env) + rendered("loadtest")
    return [(w["metadata"]["name"], pod_template(w)["spec"]) for w in workloads(objects)]


@pytest.mark.parametrize("env", ENVS)
def test_pods_meet_the_restricted_pod_security_standard(env: str) -> None:
    namespace = find(rendered(env), "Namespace", NAMESPACE)
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for name, spec in all_pod_specs(env):
        context = spec["securityContext"]
        assert context["runAsNonRoot"] is True, name
        assert context["seccompProfile"] == {"type": "RuntimeDefault"}, name
        assert spec["automountServiceAccountToken"] is False, name
        assert spec["enableServiceLinks"] is False, name
        for c in spec["containers"] + spec.get("initContainers", []):
            sc = c["securityContext"]
            assert sc["allowPrivilegeEscalation"] is False, name
            assert sc["readOnlyRootFilesystem"] is True, name
            assert sc["runAsNonRoot"] is True, name
            assert sc["capabilities"] == {"drop": ["ALL"]}, name
            assert sc["seccompProfile"] == {"type": "RuntimeDefault"}, name
            assert "privileged" not in sc and "hostNetwork" not in spec


@pytest.mark.parametrize("env", ENVS)
def test_roost_pods_run_as_the_image_user_with_a_writable_tmp(env: str) -> None:
    for name, spec in all_pod_specs(env):
        volumes = {v["name"]: v for v in spec["volumes"]}
        for c in spec["containers"]:
            tmp = [m for m in c["volumeMounts"] if m["mountPath"] == "/tmp"]
            assert len(tmp) == 1 and "emptyDir" in volumes[tmp[0]["name"]], name
        if name not in {"redis", "archive"}:  # the official images' users
            assert spec["securityContext"]["runAsUser"] == APP_UID, name
            assert spec["securityContext"]["runAsGroup"] == APP_UID, name


# ------------------------------------------------------------------ load test


def test_load_test_job_runs_the_tournament_against_a_deployed_service() -> None:
    job = find(rendered("loadtest"), "Job", "roost-loadtest")
    args = container(job)["args"]
    assert args[:2] == ["roost", "tournament"]
    options = dict(zip(args[2::2], args[3::2], strict=True))
    assert options == {
        "--game": "undertheleaves",
        "--players": "2",
        "--games": "50",
        "--concurrency": "8",
        "--bots": "random,greedy",
        "--target": options["--target"],
    }
    for env in ENVS:
        resolve(rendered(env), options["--target"])
    spec = pod_template(job)["spec"]
    assert spec["restartPolicy"] == "Never" and job["spec"]["backoffLimit"] == 0
    assert job["metadata"]["namespace"] == NAMESPACE
    assert pod_template(job)["metadata"]["labels"]["roost.dev/client"] == "true"
    assert container(job)["image"].split(":")[0] == "roost"


# ------------------------------------------------------------------ network policy


class Pod:
    """A pod (or a stand-in for one) as NetworkPolicies see it."""

    def __init__(
        self,
        name: str,
        labels: dict[str, str],
        namespace: str = NAMESPACE,
        namespace_labels: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.labels = labels
        self.namespace = namespace
        self.namespace_labels = {
            "kubernetes.io/metadata.name": namespace,
            **(namespace_labels or {}),
        }

    def __repr__(self) -> str:
        return f"{self.namespace}/{self.name}"


def peer_matches(peer: dict[str, Any], pod: Pod, policy_namespace: str) -> bool:
    if "ipBlock" in peer:
        return False  # no pod flow in these tests goes through an ipBlock
    if "namespaceSelector" in peer:
        if not selector_matches(peer["namespaceSelector"], pod.namespace_labels):
            return False
    elif pod.namespace != policy_namespace:
        return False
    return "podSelector" not in peer or selector_matches(peer["podSelector"], pod.labels)


def port_matches(rule: dict[str, Any], port: int, protocol: str) -> bool:
    ports = rule.get("ports")
    if not ports:
        return True
    for entry in ports:
        assert isinstance(entry.get("port", 0), int), "named ports are not evaluated here"
        if entry.get("protocol", "TCP") == protocol and entry.get("port") in (None, port):
            return True
    return False


def direction_allows(
    policies: list[Obj], pod: Pod, peer: Pod, port: int, protocol: str, direction: str
) -> bool:
    """Does traffic pass ``pod``'s policies in ``direction`` ("Ingress" or "Egress")?"""
    if pod.namespace != NAMESPACE:
        return True  # other namespaces are not ours to police
    key, peers_key = ("ingress", "from") if direction == "Ingress" else ("egress", "to")
    selecting = [
        p
        for p in policies
        if direction in p["spec"]["policyTypes"]
        and selector_matches(p["spec"]["podSelector"] or {"matchLabels": {}}, pod.labels)
    ]
    if not selecting:
        return True
    for policy in selecting:
        for rule in policy["spec"].get(key) or []:
            peers = rule.get(peers_key)
            if (not peers or any(peer_matches(p, peer, NAMESPACE) for p in peers)) and port_matches(
                rule, port, protocol
            ):
                return True
    return False


def allowed(policies: list[Obj], source: Pod, dest: Pod, port: int, protocol: str = "TCP") -> bool:
    return direction_allows(policies, source, dest, port, protocol, "Egress") and direction_allows(
        policies, dest, source, port, protocol, "Ingress"
    )


@pytest.fixture(scope="module")
def cluster() -> tuple[list[Obj], dict[str, Pod]]:
    objects = rendered("prod")
    pods = {
        w["metadata"]["name"]: Pod(w["metadata"]["name"], pod_template(w)["metadata"]["labels"])
        for w in workloads(objects + rendered("loadtest"))
    }
    pods["prometheus"] = Pod("prometheus", {"app.kubernetes.io/name": "prometheus"}, "monitoring")
    pods["gateway"] = Pod(
        "gateway", {"app": "gateway"}, "ingress", {"roost.dev/client-access": "true"}
    )
    pods["stranger"] = Pod("stranger", {"app": "x"}, "elsewhere")
    pods["stranger-here"] = Pod("stranger-here", {"app": "x"})
    pods["kube-dns"] = Pod("kube-dns", {"k8s-app": "kube-dns"}, "kube-system")
    return of_kind(objects, "NetworkPolicy"), pods


def test_prod_denies_by_default(cluster: tuple[list[Obj], dict[str, Pod]]) -> None:
    policies, _ = cluster
    default = [
        p
        for p in policies
        if p["spec"]["podSelector"] == {}
        and set(p["spec"]["policyTypes"]) == {"Ingress", "Egress"}
        and not p["spec"].get("ingress")
        and not p["spec"].get("egress")
    ]
    assert default, "a default-deny policy for both directions"


def test_prod_allows_every_needed_flow(cluster: tuple[list[Obj], dict[str, Pod]]) -> None:
    policies, pods = cluster
    needed = []
    for name, (port, _) in SERVICES.items():
        needed += [
            ("roost-loadtest", name, port),
            ("gateway", name, port),
            (name, "redis", 6379),
            (name, "archive", 5432),
            ("prometheus", name, port + METRICS_OFFSET),
            ("gateway", name, port + CONNECT_OFFSET),
        ]
    needed += [("matchmaking", game, SERVICES[game][0]) for game in GAMES]
    for source, dest, port in needed:
        assert allowed(policies, pods[source], pods[dest], port), (source, dest, port)
    for pod in pods.values():
        if pod.namespace == NAMESPACE:
            for protocol in ("UDP", "TCP"):
                assert allowed(policies, pod, pods["kube-dns"], 53, protocol), (pod, protocol)


def test_prod_denies_flows_nobody_needs(cluster: tuple[list[Obj], dict[str, Pod]]) -> None:
    policies, pods = cluster
    denied = [
        ("roost-loadtest", "redis", 6379),
        ("gateway", "redis", 6379),
        ("roost-loadtest", "archive", 5432),
        ("gateway", "archive", 5432),
        ("stranger-here", "archive", 5432),
        ("archive", "skygarden", 50051),
        ("redis", "archive", 5432),
        ("stranger", "undertheleaves", 50054),
        ("stranger-here", "matchmaking", 50050),
        ("stranger-here", "redis", 6379),
        ("prometheus", "undertheleaves", 50054),
        ("skygarden", "wingspan", 50052),
        ("undertheleaves", "matchmaking", 50050),
        ("redis", "skygarden", 50051),
        ("matchmaking", "stranger", 443),
        ("matchmaking", "undertheleaves", 51054),
        ("roost-loadtest", "prometheus", 9090),
        ("stranger", "undertheleaves", 52054),
        ("stranger-here", "skygarden", 52051),
        ("prometheus", "matchmaking", 52050),
    ]
    for source, dest, port in denied:
        assert not allowed(policies, pods[source], pods[dest], port), (source, dest, port)


def test_policies_select_existing_pods(cluster: tuple[list[Obj], dict[str, Pod]]) -> None:
    policies, pods = cluster
    ours = [p for p in pods.values() if p.namespace == NAMESPACE and p.name != "stranger-here"]
    for policy in policies:
        selector = policy["spec"]["podSelector"] or {"matchLabels": {}}
        assert any(selector_matches(selector, p.labels) for p in ours), policy["metadata"]["name"]

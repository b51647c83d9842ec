"""The Kubernetes manifests (deploy/kubernetes): valid against the API's schemas, complete, and
with the properties the server needs (gRPC probes, drain time, no root, metrics kept private)."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import kubernetes_validate
import pytest
import yaml

from boardbot.jobs.settings import Limits
from boardbot.service.server import SERVICE_NAME, SHUTDOWN_ANSWER_S, SHUTDOWN_KILL_S
from tests.deploy.manifests import (
    KUBERNETES,
    kubernetes_resources,
    kustomization,
    resource,
    server_container,
    server_env,
)

OLDEST_VERSION = "1.31.0"
"""The oldest Kubernetes the manifests are checked against (gRPC probes are GA since 1.27)."""
VERSIONS = (OLDEST_VERSION, kubernetes_validate.latest_version())


def _validate(doc: dict[str, Any], version: str) -> None:
    """Strict schema validation (unknown fields refused); a kind without a schema fails."""
    name = f"{doc['kind']}/{doc['metadata']['name']}"
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        path = ".".join(str(part) for part in error.path)
        pytest.fail(f"{name} is not valid for Kubernetes {version}: {path}: {error.message}")
    except kubernetes_validate.SchemaNotFoundError as error:
        pytest.fail(f"{name}: {error.message}")


def _pod_spec() -> dict[str, Any]:
    return resource("Deployment", "boardbot")["spec"]["template"]["spec"]


def _pod_labels() -> dict[str, str]:
    return resource("Deployment", "boardbot")["spec"]["template"]["metadata"]["labels"]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_validates_strictly(version: str) -> None:
    resources = kubernetes_resources()
    assert resources
    for doc in resources:
        _validate(doc, version)


def test_the_validation_refuses_a_misspelt_field() -> None:
    deployment = resource("Deployment", "boardbot")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    container["readinessProbe"]["grcp"] = container["readinessProbe"].pop("grpc")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, OLDEST_VERSION, strict=True)


def test_the_kustomization_lists_every_manifest_of_the_folder() -> None:
    listed = kustomization()["resources"]
    on_disk = {
        path.name for path in KUBERNETES.iterdir()
        if path.suffix in (".yaml", ".yml") and path.name != "kustomization.yaml"
    }
    assert sorted(listed) == sorted(on_disk)


def test_the_rendered_kustomization_validates() -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed: the kustomization is not rendered")
    rendered = subprocess.run(
        [kubectl, "kustomize", str(KUBERNETES)],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    docs = [doc for doc in yaml.safe_load_all(rendered) if doc]
    assert len(docs) == len(kubernetes_resources())
    namespace = kustomization()["namespace"]
    for doc in docs:
        for version in VERSIONS:
            _validate(doc, version)
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == namespace, doc["metadata"]["name"]
    [deployment] = [doc for doc in docs if doc["kind"] == "Deployment"]
    [image] = kustomization()["images"]
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == f"{image['name']}:{image['newTag']}"


def test_the_probes_are_grpc_health_checks_on_the_grpc_port() -> None:
    container = server_container()
    [grpc_port] = [p["containerPort"] for p in container["ports"] if p["name"] == "grpc"]
    assert str(grpc_port) == server_env()["BOARDBOT_PORT"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        spec = container[probe]
        assert set(spec) & {"httpGet", "tcpSocket", "exec"} == set(), probe
        assert spec["grpc"]["port"] == grpc_port, probe
        # The server reports "" and its own service name (service/server.py).
        assert spec["grpc"].get("service", "") in ("", SERVICE_NAME), probe
    assert container["readinessProbe"]["grpc"]["service"] == SERVICE_NAME


def test_liveness_waits_for_the_start_and_tolerates_a_busy_server() -> None:
    container = server_container()
    startup, liveness = container["startupProbe"], container["livenessProbe"]
    # Workers start before the server listens: give it half a minute at least.
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 30
    # A restart for one slow answer would cut every call in flight.
    assert liveness["failureThreshold"] >= 3
    assert liveness["timeoutSeconds"] >= 2


def test_the_pod_outlives_the_drain_and_the_grace() -> None:
    env = server_env()
    server_stop_s = (
        float(env["BOARDBOT_DRAIN"]) + float(env["BOARDBOT_GRACE"])
        + SHUTDOWN_ANSWER_S + SHUTDOWN_KILL_S
    )
    assert _pod_spec()["terminationGracePeriodSeconds"] > server_stop_s
    # In-flight searches end within the grace: the longest search plus the watchdog margin.
    limits = Limits()
    longest_search_s = (float(env["BOARDBOT_MAX_TIME_MS"]) + limits.watchdog_margin_ms) / 1000
    assert float(env["BOARDBOT_GRACE"]) >= longest_search_s


def test_no_service_link_variables_reach_the_server() -> None:
    # A Service named boardbot would set BOARDBOT_PORT=tcp://IP:50051, which `boardbot serve`
    # reads as its --port.
    assert _pod_spec()["enableServiceLinks"] is False


def test_the_pod_runs_unprivileged_on_a_read_only_root() -> None:
    pod = _pod_spec()
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] > 0
    assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
    assert pod["automountServiceAccountToken"] is False
    security = server_container()["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"] == {"drop": ["ALL"]}
    assert security.get("privileged", False) is False
    volumes = {volume["name"]: volume for volume in pod["volumes"]}
    for mount in server_container()["volumeMounts"]:
        assert "emptyDir" in volumes[mount["name"]], mount
    assert "/tmp" in {mount["mountPath"] for mount in server_container()["volumeMounts"]}


def test_workers_follow_the_cpu_limit_and_requests_equal_limits() -> None:
    container = server_container()
    [workers] = [var for var in container["env"] if var["name"] == "BOARDBOT_WORKERS"]
    field = workers["valueFrom"]["resourceFieldRef"]
    assert (field["resource"], str(field["divisor"])) == ("limits.cpu", "1")
    assert container["resources"]["requests"] == container["resources"]["limits"]


def test_the_metrics_port_is_on_no_service() -> None:
    container = server_container()
    env = server_env()
    [metrics_port] = [p["containerPort"] for p in container["ports"] if p["name"] == "metrics"]
    assert str(metrics_port) == env["BOARDBOT_METRICS_PORT"]
    annotations = resource("Deployment", "boardbot")["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(metrics_port)
    services = [doc for doc in kubernetes_resources() if doc["kind"] == "Service"]
    assert services
    for service in services:
        for port in service["spec"]["ports"]:
            assert port["port"] != metrics_port, service["metadata"]["name"]
            assert port["targetPort"] not in (metrics_port, "metrics"), service["metadata"]["name"]
    public = resource("Service", "boardbot")
    assert public["spec"]["type"] == "ClusterIP"
    assert [p["port"] for p in public["spec"]["ports"]] == [int(env["BOARDBOT_PORT"])]


def test_the_network_policy_opens_the_metrics_port_to_monitoring_only() -> None:
    policy = resource("NetworkPolicy", "boardbot")
    metrics_port = int(server_env()["BOARDBOT_METRICS_PORT"])
    for rule in policy["spec"]["ingress"]:
        ports = {port["port"] for port in rule["ports"]}
        if metrics_port in ports:
            assert rule.get("from"), "the metrics port must not be open to every pod"


def test_the_headless_service_lists_the_pods_for_round_robin() -> None:
    headless = resource("Service", "boardbot-headless")
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"].get("publishNotReadyAddresses", False) is False
    assert [p["port"] for p in headless["spec"]["ports"]] == [int(server_env()["BOARDBOT_PORT"])]


def test_every_selector_picks_the_server_pods() -> None:
    labels = _pod_labels()
    deployment = resource("Deployment", "boardbot")
    selectors = [deployment["spec"]["selector"]["matchLabels"]]
    for doc in kubernetes_resources():
        if doc["kind"] == "Service":
            selectors.append(doc["spec"]["selector"])
        elif doc["kind"] == "PodDisruptionBudget":
            selectors.append(doc["spec"]["selector"]["matchLabels"])
        elif doc["kind"] == "NetworkPolicy":
            selectors.append(doc["spec"]["podSelector"]["matchLabels"])
    assert len(selectors) >= 5
    for selector in selectors:
        assert selector and selector.items() <= labels.items(), selector


def test_the_autoscaler_owns_the_replicas_and_the_budget_keeps_one() -> None:
    deployment = resource("Deployment", "boardbot")
    assert "replicas" not in deployment["spec"]
    hpa = resource("HorizontalPodAutoscaler", "boardbot")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "boardbot")
    assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"]
    pdb = resource("PodDisruptionBudget", "boardbot")
    assert hpa["spec"]["minReplicas"] > pdb["spec"]["maxUnavailable"]
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0

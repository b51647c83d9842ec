"""The Envoy configuration (deploy/envoy/envoy.yaml): Envoy's API accepts it, and it routes
every method of the proto, retries only the unary ones, and balances over the headless Service."""

from __future__ import annotations

import copy
from typing import Any

import pydantic
import pytest

from boardbot.jobs.settings import Limits
from boardbot.service.server import SERVICE_NAME
from tests.deploy.envoy_schema import DeprecatedFieldError, parse_bootstrap
from tests.deploy.manifests import (
    ENVOY_CONFIG,
    kustomization,
    method_paths,
    resource,
    server_env,
    yaml_documents,
)

HCM = "envoy.filters.network.http_connection_manager"
RETRY_ON_IDEMPOTENT = {"unavailable"}
"""What every unary route retries on: the server's UNAVAILABLE (a worker died and was
replaced, or the replica is shutting down)."""
RETRY_ON_SAFE = {"unavailable", "connect-failure", "refused-stream"}
"""Conditions a unary route may retry on: the request never ran, or ran on a worker that died."""
ENVOY_DNS_REFRESH_S = 5.0
"""How often Envoy looks a STRICT_DNS cluster's name up again when the cluster sets nothing."""


def _config() -> dict[str, Any]:
    [config] = yaml_documents(ENVOY_CONFIG)
    return config


def _connection_manager(config: dict[str, Any]) -> dict[str, Any]:
    [listener] = config["static_resources"]["listeners"]
    [chain] = listener["filter_chains"]
    [hcm] = [f for f in chain["filters"] if f["name"] == HCM]
    typed: dict[str, Any] = hcm["typed_config"]
    return typed


def _virtual_host(config: dict[str, Any]) -> dict[str, Any]:
    [host] = _connection_manager(config)["route_config"]["virtual_hosts"]
    return host


def _routes_by_path(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    routes = _virtual_host(config)["routes"]
    by_path = {
        route["match"]["path"]: route["route"] for route in routes if "path" in route["match"]
    }
    assert len(by_path) == len(routes), "every route matches one exact path"
    return by_path


def _cluster(config: dict[str, Any]) -> dict[str, Any]:
    [cluster] = config["static_resources"]["clusters"]
    return cluster


def _seconds(duration: str) -> float:
    """A protobuf JSON duration ("1.5s") in seconds."""
    assert duration.endswith("s"), duration
    return float(duration[:-1])


def test_envoys_api_accepts_the_config() -> None:
    bootstrap = parse_bootstrap(_config())
    [cluster] = bootstrap.static_resources.clusters
    assert cluster.name == "boardbot"
    assert cluster.outlier_detection is not None
    assert cluster.outlier_detection.consecutive_5xx == 5


@pytest.mark.parametrize(
    ("path", "value", "error"),
    [
        (("static_resources", "clusters", 0, "lb_policy"), "LEAST_REQUESTS", ValueError),
        (("static_resources", "clusters", 0, "connect_timeout"), "1x", ValueError),
        (("static_resources", "clusters", 0, "health_checks", 0, "grpc_health_chek"), {}, KeyError),
        (("static_resources", "listeners", 0, "filter_chains", 0, "filters", 0, "typed_config",
          "route_config", "virtual_hosts", 0, "routes", 0, "route", "retry_policy",
          "per_try_timout"), "1s", KeyError),
        (("static_resources", "listeners", 0, "filter_chains", 0, "filters", 0, "typed_config",
          "http_filters", 0, "typed_config", "@type"),
         "type.googleapis.com/envoy.extensions.filters.http.grpc_webb.v3.GrpcWeb", TypeError),
        (("static_resources", "clusters", 0, "name"), 5, pydantic.ValidationError),
        (("static_resources", "clusters", 0, "dns_refresh_rate"), "5s", DeprecatedFieldError),
    ],
)
def test_the_schema_check_refuses_a_broken_config(
    path: tuple[str | int, ...], value: object, error: type[Exception]
) -> None:
    config = copy.deepcopy(_config())
    node: Any = config
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    with pytest.raises(error):
        parse_bootstrap(config)


def test_the_routes_cover_every_method_of_the_proto_and_nothing_else() -> None:
    config = _config()
    routes = _routes_by_path(config)
    assert set(routes) == method_paths()
    clusters = {cluster["name"] for cluster in config["static_resources"]["clusters"]}
    for path, route in routes.items():
        assert route["cluster"] in clusters, path


def test_only_the_unary_methods_are_retried_and_only_when_safe() -> None:
    routes = _routes_by_path(_config())
    for path in method_paths(streaming=False):
        policy = routes[path]["retry_policy"]
        conditions = set(policy["retry_on"].split(","))
        assert conditions >= RETRY_ON_IDEMPOTENT, path
        assert conditions <= RETRY_ON_SAFE, path
        assert policy["num_retries"] >= 1
        # A retry goes to another replica than the one that failed.
        predicates = [p["name"] for p in policy["retry_host_predicate"]]
        assert predicates == ["envoy.retry_host_predicates.previous_hosts"], path
    for path in method_paths(streaming=True):
        assert "retry_policy" not in routes[path], path
        assert "hedge_policy" not in routes[path], path
        # A review lasts as long as its positions: no route timeout cuts it.
        assert _seconds(routes[path]["timeout"]) == 0, path
    host = _virtual_host(_config())
    assert "retry_policy" not in host and "hedge_policy" not in host
    # Callers cannot ask for retries of their own (x-envoy-retry-on) from outside.
    assert _connection_manager(_config())["use_remote_address"] is True


def test_an_attempt_outlasts_the_servers_own_bounds() -> None:
    routes = _routes_by_path(_config())
    limits = Limits()
    env = server_env()
    search_s = (float(env["BOARDBOT_MAX_TIME_MS"]) + limits.watchdog_margin_ms) / 1000
    rules_s = (limits.max_call_ms + limits.watchdog_margin_ms) / 1000
    for path in method_paths(streaming=False):
        route = routes[path]
        per_try = _seconds(route["retry_policy"]["per_try_timeout"])
        bound = search_s if path.endswith(("/ChooseMove", "/Analyze")) else rules_s
        assert per_try > bound, path
        # The route's timeout spans every attempt.
        assert _seconds(route["timeout"]) >= per_try * (1 + route["retry_policy"]["num_retries"])


def test_the_http_filters_run_grpc_web_and_cors_before_the_router() -> None:
    hcm = _connection_manager(_config())
    names = [f["name"] for f in hcm["http_filters"]]
    assert names == [
        "envoy.filters.http.grpc_web", "envoy.filters.http.cors", "envoy.filters.http.router"
    ]
    assert hcm["codec_type"] == "AUTO"


def test_browsers_at_the_allowed_origin_can_read_grpc_web_answers() -> None:
    policy = _virtual_host(_config())["typed_per_filter_config"]["envoy.filters.http.cors"]
    assert policy["@type"].endswith("envoy.extensions.filters.http.cors.v3.CorsPolicy")
    assert [m["exact"] for m in policy["allow_origin_string_match"]]
    allowed = {h.strip() for h in policy["allow_headers"].split(",")}
    assert {"content-type", "x-grpc-web", "grpc-timeout", "authorization"} <= allowed
    exposed = {h.strip() for h in policy["expose_headers"].split(",")}
    assert {"grpc-status", "grpc-message", "grpc-status-details-bin"} <= exposed
    assert "POST" in policy["allow_methods"]


def test_the_cluster_balances_per_request_over_the_headless_service() -> None:
    cluster = _cluster(_config())
    assert cluster["lb_policy"] == "LEAST_REQUEST"
    assert cluster["type"] == "STRICT_DNS"
    options = cluster["typed_extension_protocol_options"][
        "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"
    ]
    assert "http2_protocol_options" in options["explicit_http_config"]
    [group] = cluster["load_assignment"]["endpoints"]
    [endpoint] = group["lb_endpoints"]
    address = endpoint["endpoint"]["address"]["socket_address"]
    headless = resource("Service", "boardbot-headless")
    assert headless["spec"]["clusterIP"] == "None"
    namespace = kustomization()["namespace"]
    assert address["address"] == f"boardbot-headless.{namespace}.svc.cluster.local"
    assert address["port_value"] == headless["spec"]["ports"][0]["port"]


def test_unhealthy_and_failing_replicas_are_taken_out() -> None:
    cluster = _cluster(_config())
    [check] = cluster["health_checks"]
    assert check["grpc_health_check"]["service_name"] == SERVICE_NAME
    # A draining replica (NOT_SERVING) is out of the balancing, and out of the hosts of the
    # next DNS lookup, before its drain ends and it refuses calls.
    drain_s = float(server_env()["BOARDBOT_DRAIN"])
    out_after_s = (_seconds(check["interval"]) + _seconds(check["interval_jitter"])) * check[
        "unhealthy_threshold"
    ]
    assert out_after_s < drain_s
    assert "dns_refresh_rate" not in cluster
    assert drain_s > ENVOY_DNS_REFRESH_S
    outliers = cluster["outlier_detection"]
    assert outliers["consecutive_5xx"] > 0
    assert outliers["consecutive_gateway_failure"] > 0
    assert outliers["enforcing_consecutive_gateway_failure"] == 100
    assert 0 < outliers["max_ejection_percent"] <= 50

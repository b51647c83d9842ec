"""The alert rules and the dashboard (deploy/prometheus, deploy/grafana): every metric and label
they name is one a running server exports, and every objective of loadtest/slo.toml has its
alert, with the objective's own thresholds."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import tomllib
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

from boardbot.jobs.failures import FailureKind
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.service.metrics import LATENCY_BUCKETS
from tests.deploy.manifests import (
    ALERTS,
    DASHBOARD,
    SERVICE,
    SLO_FILE,
    server_env,
    yaml_documents,
)
from tests.deploy.promql import grouping_labels, metric_names, numbers, selectors
from tests.service.servers import start_server

PREFIX = "boardbot_"
"""The prefix of every metric the server exports."""
EXTERNAL_METRICS = {"container_memory_rss": "the kubelet's cAdvisor: resident memory per container"}
"""Metrics named that the server does not export, and who does."""
TARGET_LABELS = {"instance", "job", "namespace", "pod", "container"}
"""Labels Prometheus and its Kubernetes discovery attach to every series."""
SEVERITIES = {"info", "warning", "critical"}
TOKEN = "deploy-test-token"
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


@dataclass
class Exported:
    """What one scrape of the server's /metrics holds."""

    families: dict[str, str] = field(default_factory=dict)
    """Metric family name -> type (counter, gauge, histogram)."""
    labels: dict[str, set[str]] = field(default_factory=dict)
    """Series name (histograms: with their suffix) -> the label names seen on it."""

    def series_names(self) -> set[str]:
        """Every name a query may select: histograms as their _bucket, _sum and _count."""
        names = set()
        for name, kind in self.families.items():
            if kind == "histogram":
                names.update(name + suffix for suffix in HISTOGRAM_SUFFIXES)
            else:
                names.add(name)
        return names

    def family_of(self, series: str) -> str:
        """The family a series name belongs to."""
        for suffix in HISTOGRAM_SUFFIXES:
            base = series.removesuffix(suffix)
            if base != series and self.families.get(base) == "histogram":
                return base
        return series


def parse_exposition(text: str) -> Exported:
    """The families and label names of a Prometheus text exposition."""
    exported = Exported()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            exported.families[name] = kind
        elif line and not line.startswith("#"):
            match = re.match(r"([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s", line)
            assert match is not None, line
            names = set(re.findall(r'(\w+)="', match.group(2) or ""))
            exported.labels.setdefault(match.group(1), set()).update(names)
    return exported


@pytest.fixture(scope="module")
def exported() -> Iterator[Exported]:
    """One scrape of a real server after a call answered and a call refused for its token,
    so that the labelled series exist."""
    served = start_server(workers=1, token=TOKEN, metrics_port=0)
    try:
        games = served.stub.ListGames(
            pb.ListGamesRequest(), metadata=[("authorization", f"Bearer {TOKEN}")], timeout=30
        )
        assert games.games
        with pytest.raises(grpc.RpcError) as refused:
            served.stub.ListGames(pb.ListGamesRequest(), timeout=30)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        url = f"http://127.0.0.1:{served.server.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            text = response.read().decode()
    finally:
        served.close()
    yield parse_exposition(text)


def _alerts() -> list[dict[str, Any]]:
    [document] = yaml_documents(ALERTS)
    return [rule for group in document["groups"] for rule in group["rules"] if "alert" in rule]


def _dashboard() -> dict[str, Any]:
    with DASHBOARD.open() as handle:
        dashboard: dict[str, Any] = json.load(handle)
    return dashboard


def _expressions() -> list[tuple[str, str]]:
    """(where, PromQL) of every alert and every dashboard query."""
    found = [(f"alert {rule['alert']}", rule["expr"]) for rule in _alerts()]
    for panel in _dashboard()["panels"]:
        for target in panel.get("targets", []):
            found.append((f"panel {panel['title']!r} {target['refId']}", target["expr"]))
    return found


def _objectives() -> dict[str, Any]:
    """Every objective of loadtest/slo.toml as `section.key` -> value."""
    with SLO_FILE.open("rb") as handle:
        slo = tomllib.load(handle)
    return {
        f"{section}.{key}": value for section, table in slo.items() for key, value in table.items()
    }


def _claimed(rule: dict[str, Any]) -> list[str]:
    """The objectives an alert says it watches (its `slo` annotation)."""
    return str(rule["annotations"].get("slo", "")).split()


def test_the_expressions_are_read() -> None:
    # The coarse reading finds what is there, and nothing that is not a metric.
    expr = (
        'histogram_quantile(0.99, sum by (method, le) (rate(boardbot_a_bucket{method!~"X|Y"}[5m])))'
        ' > 1.5 * scalar(min(boardbot_b)) + 0.1 and on (method) boardbot_c offset 6h'
        ' / ignoring (pod) count(other_metric[$__rate_interval])'
    )
    assert metric_names(expr) == {"boardbot_a_bucket", "boardbot_b", "boardbot_c", "other_metric"}
    assert selectors(expr) == [("boardbot_a_bucket", [("method", "!~", "X|Y")])]
    assert grouping_labels(expr) == {"method", "le", "pod"}
    assert {0.99, 1.5, 0.1, 5.0, 6.0} <= set(numbers(expr))


def test_every_metric_named_is_one_the_server_exports(exported: Exported) -> None:
    series = exported.series_names()
    assert f"{PREFIX}requests_total" in series
    for where, expr in _expressions():
        names = metric_names(expr)
        assert names, f"{where} names no metric"
        for name in names:
            if name.startswith(PREFIX):
                assert name in series, f"{where}: {name} is not exported by the server"
            else:
                assert name in EXTERNAL_METRICS, f"{where}: {name} comes from nowhere known"


def test_the_dashboard_shows_every_metric_the_server_exports(exported: Exported) -> None:
    shown = {
        exported.family_of(name)
        for where, expr in _expressions() if where.startswith("panel")
        for name in metric_names(expr)
    }
    assert {name for name in exported.families if name.startswith(PREFIX)} <= shown


def test_every_label_named_is_one_the_series_carry(exported: Exported) -> None:
    server_labels = set().union(*exported.labels.values())
    for where, expr in _expressions():
        for name, matchers in selectors(expr):
            if not name.startswith(PREFIX):
                continue
            for label, _, _ in matchers:
                assert label in exported.labels.get(name, set()), f"{where}: {name} has no {label}"
        for label in grouping_labels(expr):
            assert label in server_labels | TARGET_LABELS, f"{where}: no series has {label}"


def test_every_label_value_is_one_the_server_writes() -> None:
    values = {
        "method": {method.name for method in SERVICE.methods},
        "status": {kind.name for kind in FailureKind} | {"OK"},
        "le": {repr(bound) for bound in LATENCY_BUCKETS} | {"+Inf"},
    }
    for where, expr in _expressions():
        for _, matchers in selectors(expr):
            for label, operator, value in matchers:
                if label not in values:
                    continue
                written = value.split("|") if operator in ("=~", "!~") else [value]
                for one in written:
                    assert one in values[label], f"{where}: {label} is never {one!r}"


def test_every_objective_has_an_alert() -> None:
    objectives = set(_objectives())
    claimed = [key for rule in _alerts() for key in _claimed(rule)]
    assert set(claimed) == objectives, "objectives without an alert, or alerts of none"


@pytest.mark.parametrize("rule", _alerts(), ids=lambda rule: rule["alert"])
def test_an_alert_holds_its_objectives_thresholds(rule: dict[str, Any]) -> None:
    objectives = _objectives()
    text = f"{rule['expr']} for {rule['for']}"
    written = numbers(text)
    for key in _claimed(rule):
        value = objectives[key]
        if isinstance(value, list):
            for code in value:
                assert code in rule["expr"], f"{key}: {code} is not in the expression"
            continue
        expected = value / 1000 if key.endswith("_ms") else value
        assert any(math.isclose(number, expected) for number in written), (
            f"{key} = {value}: {expected} is not in {text!r}"
        )


@pytest.mark.parametrize("rule", _alerts(), ids=lambda rule: rule["alert"])
def test_an_alert_has_a_duration_a_severity_and_words_for_the_operator(
    rule: dict[str, Any]
) -> None:
    assert rule["alert"].startswith("Boardbot")
    assert re.fullmatch(r"\d+[smh]", rule["for"]), rule["for"]
    assert rule["labels"]["severity"] in SEVERITIES
    assert rule["annotations"]["summary"].strip()
    assert rule["annotations"]["description"].strip()


def test_the_alert_names_are_unique() -> None:
    names = [rule["alert"] for rule in _alerts()]
    assert len(names) == len(set(names))


def test_the_accepted_latency_bound_uses_the_deployments_queue() -> None:
    [rule] = [r for r in _alerts() if "overload.accepted_noise_factor" in _claimed(r)]
    [queue] = re.findall(r"ceil\((\d+) / ", rule["expr"])
    assert int(queue) == int(server_env()["BOARDBOT_QUEUE"])


def test_promtool_accepts_the_rules() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed: the rules are not checked by Prometheus itself")
    result = subprocess.run(
        [promtool, "check", "rules", str(ALERTS)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_dashboard_is_well_formed() -> None:
    dashboard = _dashboard()
    [variable] = dashboard["templating"]["list"]
    assert (variable["name"], variable["type"], variable["query"]) == (
        "datasource", "datasource", "prometheus"
    )
    panels = dashboard["panels"]
    ids = [panel["id"] for panel in panels]
    assert len(ids) == len(set(ids))
    for panel in panels:
        grid = panel["gridPos"]
        assert grid["x"] >= 0 and grid["x"] + grid["w"] <= 24, panel["title"]
        if panel["type"] == "row":
            continue
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        refs = [target["refId"] for target in panel["targets"]]
        assert refs and len(refs) == len(set(refs)), panel["title"]
        assert panel["description"].strip(), panel["title"]

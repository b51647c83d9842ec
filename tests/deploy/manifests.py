"""The deployment recipe's files (deploy/) as the tests read them, and the API they serve."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
KUSTOMIZATION = KUBERNETES / "kustomization.yaml"
ENVOY_CONFIG = DEPLOY / "envoy" / "envoy.yaml"
ALERTS = DEPLOY / "prometheus" / "alerts.yaml"
DASHBOARD = DEPLOY / "grafana" / "boardbot.json"
SLO_FILE = ROOT / "loadtest" / "slo.toml"

SERVICE = pb.DESCRIPTOR.services_by_name["BoardBot"]
"""The service the recipe deploys (boardbot.v1.BoardBot)."""


def method_paths(*, streaming: bool | None = None) -> set[str]:
    """`/boardbot.v1.BoardBot/Method` of every method (only the streaming ones, or only the
    unary ones, when `streaming` says which)."""
    return {
        f"/{SERVICE.full_name}/{method.name}"
        for method in SERVICE.methods
        if streaming is None or method.server_streaming == streaming
    }


def yaml_documents(path: Path) -> list[dict[str, Any]]:
    """The non-empty YAML documents of `path`."""
    with path.open() as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def kustomization() -> dict[str, Any]:
    """deploy/kubernetes/kustomization.yaml."""
    return yaml_documents(KUSTOMIZATION)[0]


def kubernetes_resources() -> list[dict[str, Any]]:
    """Every resource of the files the kustomization lists, in its order."""
    return [
        doc
        for name in kustomization()["resources"]
        for doc in yaml_documents(KUBERNETES / name)
    ]


def resource(kind: str, name: str) -> dict[str, Any]:
    """The one resource of `kind` called `name`; LookupError when there is none."""
    found = [
        doc for doc in kubernetes_resources()
        if doc["kind"] == kind and doc["metadata"]["name"] == name
    ]
    if len(found) != 1:
        raise LookupError(f"{len(found)} {kind} resources named {name}")
    return found[0]


def server_container() -> dict[str, Any]:
    """The boardbot container of the Deployment."""
    containers = resource("Deployment", "boardbot")["spec"]["template"]["spec"]["containers"]
    return next(c for c in containers if c["name"] == "boardbot")


def server_env() -> dict[str, str]:
    """The container's environment variables that have a literal value."""
    return {var["name"]: var["value"] for var in server_container()["env"] if "value" in var}

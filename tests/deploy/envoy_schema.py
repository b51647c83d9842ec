"""Envoy's configuration API (the envoy-data-plane package) as a schema check of a config."""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import betterproto2

_FIELD_NAME = re.compile(r"[a-z][a-z0-9_]*")


class DeprecatedFieldError(ValueError):
    """The config sets a field Envoy's API has deprecated."""


def type_urls(node: Any) -> set[str]:
    """Every `@type` of the typed configs inside `node`."""
    if isinstance(node, dict):
        found = {node["@type"]} if "@type" in node else set()
        for key, value in node.items():
            if key != "@type":
                found |= type_urls(value)
        return found
    if isinstance(node, list):
        return set().union(*(type_urls(item) for item in node))
    return set()


def parse_bootstrap(config: dict[str, Any]) -> Any:
    """`config` read as Envoy's Bootstrap message, each typed config as its own message.

    Raises KeyError for a field its message does not have, ValueError for a bad enum value or
    duration, pydantic's ValidationError for a value of the wrong type, TypeError for a typed
    config of a message the API does not have, DeprecatedFieldError for a deprecated field.
    """
    packages = ["envoy.config.bootstrap.v3"]
    packages += [url.split("/", 1)[1].rsplit(".", 1)[0] for url in sorted(type_urls(config))]
    # betterproto2 resolves an Any's @type among the messages of the modules imported. Their
    # classes are built with decorators pydantic has deprecated: that warning is not ours.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for package in packages:
            try:
                importlib.import_module(f"envoy_data_plane.{package}")
            except ModuleNotFoundError:
                raise TypeError(f"no Envoy API package {package}") from None
    bootstrap = importlib.import_module("envoy_data_plane.envoy.config.bootstrap.v3").Bootstrap
    with warnings.catch_warnings(record=True) as caught, _field_names_kept():
        warnings.simplefilter("always", DeprecationWarning)
        parsed = bootstrap.from_dict(config)
    deprecated = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    if deprecated:
        raise DeprecatedFieldError("; ".join(deprecated))
    return parsed


@contextmanager
def _field_names_kept() -> Iterator[None]:
    """betterproto2 re-cases every key it reads, which turns the field consecutive_5xx into
    consecutive_5_xx; a key already in snake_case is the proto's field name, so it is looked up
    as it is while this lasts."""
    original = betterproto2.safe_snake_case

    def keep_snake_case(key: str) -> str:
        return key if _FIELD_NAME.fullmatch(key) else original(key)

    betterproto2.safe_snake_case = keep_snake_case
    try:
        yield
    finally:
        betterproto2.safe_snake_case = original

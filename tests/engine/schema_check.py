"""A minimal JSON Schema checker for the keywords the state and record schemas use."""

from __future__ import annotations

import re
from typing import Any

_TYPES: dict[str, Any] = {
    "object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return _is_number(value)
    return isinstance(value, _TYPES[name])


def resolve(ref: str, root: dict[str, Any]) -> Any:
    """The part of `root` a local `$ref` (`#/a/b`) points at."""
    target: Any = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    return target


def schema_errors(value: Any, schema: dict[str, Any], root: dict[str, Any],
                  path: str = "$") -> list[str]:
    """Every violation of `schema` by `value` (empty when it conforms)."""
    if "$ref" in schema:
        return schema_errors(value, resolve(schema["$ref"], root), root, path)
    errors: list[str] = []
    if "oneOf" in schema:
        matches = [s for s in schema["oneOf"] if not schema_errors(value, s, root, path)]
        if len(matches) != 1:
            errors.append(f"{path}: matches {len(matches)} of oneOf")
    if "anyOf" in schema and all(schema_errors(value, s, root, path) for s in schema["anyOf"]):
        errors.append(f"{path}: matches none of anyOf")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: expected {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in enum")
    if "type" in schema and not _is_type(value, schema["type"]):
        return [*errors, f"{path}: not of type {schema['type']}"]
    if _is_number(value):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: below minimum")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: above maximum")
    if isinstance(value, str):
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than maxLength")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{path}: does not match the pattern")
    if isinstance(value, dict):
        errors += _object_errors(value, schema, root, path)
    if isinstance(value, list):
        errors += _array_errors(value, schema, root, path)
    return errors


def _object_errors(value: dict[str, Any], schema: dict[str, Any], root: dict[str, Any],
                   path: str) -> list[str]:
    errors = []
    props = schema.get("properties", {})
    for key in schema.get("required", []):
        if key not in value:
            errors.append(f"{path}.{key}: required")
    for key, item in value.items():
        if key in props:
            errors += schema_errors(item, props[key], root, f"{path}.{key}")
        elif schema.get("additionalProperties") is False:
            errors.append(f"{path}.{key}: not allowed")
    return errors


def _array_errors(value: list[Any], schema: dict[str, Any], root: dict[str, Any],
                  path: str) -> list[str]:
    errors = []
    if len(value) < schema.get("minItems", 0):
        errors.append(f"{path}: too few items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append(f"{path}: too many items")
    prefix = schema.get("prefixItems", [])
    for i, item in enumerate(value):
        if i < len(prefix):
            errors += schema_errors(item, prefix[i], root, f"{path}[{i}]")
        elif "items" in schema:
            errors += schema_errors(item, schema["items"], root, f"{path}[{i}]")
    return errors

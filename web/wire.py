"""JSON bodies of the page to protobuf requests, and responses back to JSON.

The page speaks the gRPC messages' own field names. A field ending in `_json` is a JSON document
carried as bytes on the wire; here it is the document itself (or its text, for a pasted state
that may not even parse: the server's error then names the place).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import orjson
from google.protobuf import json_format
from google.protobuf.message import Message

from boardbot.engine.errors import BoardbotError

JSON_SUFFIX = "_json"

MAX_BODY_DEPTH = 64
"""Deepest nesting of objects and arrays a request body may have, `_json` documents included
(a state is about ten levels deep; a pasted state sent as text is a string, checked by the
server)."""


class BadBodyError(BoardbotError, ValueError):
    """A request body that is no JSON object of the method's request fields."""


def to_request(body: bytes, message: type[Message]) -> Message:
    """The request message of a JSON body (BadBodyError naming what is wrong)."""
    try:
        data = orjson.loads(body) if body else {}
    except orjson.JSONDecodeError as error:
        raise BadBodyError(f"request body: malformed JSON: {error}") from None
    if not isinstance(data, dict):
        raise BadBodyError("request body: expected a JSON object of request fields")
    _check_depth(data)
    try:
        return json_format.ParseDict(_map_documents(data, _encode_document), message())
    except json_format.ParseError as error:
        raise BadBodyError(f"request body: {error}") from None


def _check_depth(data: dict[str, Any]) -> None:
    """BadBodyError naming the field if `data` nests deeper than MAX_BODY_DEPTH."""
    pending: list[tuple[Any, int, str]] = [(data, 1, "")]
    while pending:
        value, depth, field = pending.pop()
        if depth > MAX_BODY_DEPTH:
            raise BadBodyError(
                f"request body: {field[:64]} is nested deeper than {MAX_BODY_DEPTH} levels"
            )
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(item, dict | list):
                pending.append((item, depth + 1, field or str(key)))


def to_json(message: Message) -> dict[str, Any]:
    """The response message as the page reads it: `_json` fields as documents."""
    data = json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    converted = _map_documents(data, _decode_document)
    assert isinstance(converted, dict)
    return converted


def _map_documents(value: Any, convert: Callable[[Any], Any]) -> Any:
    """`value` with `convert` applied to every `_json` field, at any depth."""
    if isinstance(value, dict):
        return {
            key: convert(item) if key.endswith(JSON_SUFFIX) else _map_documents(item, convert)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_map_documents(item, convert) for item in value]
    return value


def _encode_document(value: Any) -> str:
    try:
        raw = value.encode() if isinstance(value, str) else orjson.dumps(value)
    except (orjson.JSONEncodeError, UnicodeEncodeError) as error:
        raise BadBodyError(f"request body: a JSON document that cannot be sent: {error}") from None
    return base64.b64encode(raw).decode("ascii")


def _decode_document(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    raw = base64.b64decode(value)
    if not raw:
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return raw.decode("utf-8", "replace")

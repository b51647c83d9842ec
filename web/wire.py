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
    try:
        return json_format.ParseDict(_map_documents(data, _encode_document), message())
    except json_format.ParseError as error:
        raise BadBodyError(f"request body: {error}") from None


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
    raw = value.encode() if isinstance(value, str) else orjson.dumps(value)
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

"""Checks of a request's head before the gateway acts on it: path, Host, Origin and body length.

Each check returns what it read, or raises RefusedError with the HTTP status to answer.
"""

from __future__ import annotations

import re
from email.message import Message
from http import HTTPStatus
from urllib.parse import urlsplit

from boardbot.engine.errors import BoardbotError
from boardbot.service.auth import is_loopback

MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body (the server's own message bound by default)."""

_DIGITS = re.compile(r"[0-9]+")


class RefusedError(BoardbotError, ValueError):
    """A request the gateway answers with an error status instead of acting on it."""

    def __init__(self, status: HTTPStatus, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def path_of(target: str) -> str:
    """The path of a request target, without its query or fragment."""
    return target.split("?", 1)[0].split("#", 1)[0]


def check_host(headers: Message, loopback: bool) -> None:
    """Refuse a malformed or repeated Host, and on loopback any name but a loopback one.

    A page elsewhere cannot reach a loopback gateway through a name it controls (DNS rebinding).
    """
    values = headers.get_all("Host") or []
    if len(values) > 1:
        raise RefusedError(HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", "more than one Host header")
    host = _hostname(values[0] if values else "", "Host")
    if loopback and host != "localhost" and not is_loopback(host):
        raise RefusedError(HTTPStatus.FORBIDDEN, "PERMISSION_DENIED", f"host {host[:64]!r}")


def check_origin(headers: Message, allowed: frozenset[str] = frozenset()) -> None:
    """Refuse a call whose Origin is neither the page's own nor one of `allowed` (or is
    malformed)."""
    origin = headers.get("Origin")
    if origin is None or origin in allowed:
        return
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        raise RefusedError(
            HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", f"malformed Origin {origin[:64]!r}"
        ) from None
    if netloc != headers.get("Host"):
        raise RefusedError(
            HTTPStatus.FORBIDDEN, "PERMISSION_DENIED", f"cross-origin call from {origin[:64]}"
        )


def body_length(headers: Message) -> int:
    """The announced length of a request body: one plain Content-Length, no Transfer-Encoding.

    A chunked body would be read as nothing, and two lengths leave the body's end in doubt.
    """
    if headers.get_all("Transfer-Encoding"):
        raise RefusedError(
            HTTPStatus.LENGTH_REQUIRED,
            "INVALID_ARGUMENT",
            "request body: send it with a Content-Length, not a Transfer-Encoding",
        )
    values = headers.get_all("Content-Length") or []
    if len(values) > 1:
        raise RefusedError(
            HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", "more than one Content-Length header"
        )
    text = values[0].strip() if values else "0"
    if not _DIGITS.fullmatch(text):
        raise RefusedError(
            HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", f"malformed Content-Length {text[:32]!r}"
        )
    if len(text.lstrip("0")) > len(str(MAX_BODY_BYTES)) or int(text) > MAX_BODY_BYTES:
        raise RefusedError(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
            "RESOURCE_EXHAUSTED",
            f"request body: at most {MAX_BODY_BYTES} bytes",
        )
    return int(text)


def check_json(headers: Message) -> None:
    """Refuse a body that is not `application/json` (another site's form cannot send one)."""
    if headers.get_content_type() != "application/json":
        raise RefusedError(
            HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
            "INVALID_ARGUMENT",
            "request body: send Content-Type: application/json",
        )


def _hostname(value: str, header: str) -> str:
    try:
        return urlsplit("//" + value).hostname or ""
    except ValueError:
        raise RefusedError(
            HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", f"malformed {header} {value[:64]!r}"
        ) from None

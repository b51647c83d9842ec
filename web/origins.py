"""Origins as a browser writes them in its `Origin` header: the values of `--allow-origin`.

There is no wildcard, because the gateway adds its own token to every call it forwards: any page
it let in could use the server.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from boardbot.engine.errors import BoardbotError

MAX_ORIGINS = 32
"""Most origins one gateway allows."""

MAX_ORIGIN_CHARS = 300
"""Longest origin accepted (a host name is at most 253 characters)."""

DEFAULT_PORTS = {"http": 80, "https": 443}
"""Schemes an origin may have, each with the port a browser leaves out."""

_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_NUMERIC_LABEL = re.compile(r"[0-9]+|0x[0-9a-f]*")


class OriginError(BoardbotError, ValueError):
    """An `--allow-origin` value that is no origin a browser would send."""


def parse_origin(text: str) -> str:
    """`text` if it is an origin as a browser writes it (`scheme://host[:port]`), else
    OriginError saying how to write it."""
    if len(text) > MAX_ORIGIN_CHARS:
        raise OriginError(f"origin longer than {MAX_ORIGIN_CHARS} characters")
    if text in ("*", "null"):
        raise OriginError(
            f"{text!r} is refused: name each origin (scheme://host[:port]); the gateway adds "
            "its token to every call, so any page it allowed could use the server"
        )
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise OriginError(f"{text[:64]!r}: {error}") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise OriginError(f"{text[:64]!r}: the scheme must be http or https")
    if parts.username is not None or parts.password is not None:
        raise OriginError(f"{text[:64]!r}: an origin has no user name or password")
    if parts.path or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise OriginError(f"{text[:64]!r}: an origin has no path, query or fragment, not even '/'")
    host = parts.hostname or ""
    if not _is_host(host):
        raise OriginError(
            f"{text[:64]!r}: no host name, nor an IP address written in full (as 127.0.0.1)"
        )
    if port is not None and not 0 < port < 65536:
        raise OriginError(f"{text[:64]!r}: port out of range")
    written = _canonical(parts.scheme, host, port)
    if written != text:
        raise OriginError(f"{text[:64]!r}: a browser sends it as {written!r}; give that")
    return text


def _is_host(host: str) -> bool:
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    name = host.removesuffix(".")
    if _NUMERIC_LABEL.fullmatch(name.rsplit(".", 1)[-1]):
        return False  # a browser reads it as an IPv4 address, written otherwise
    return len(name) <= 253 and all(_LABEL.fullmatch(label) for label in name.split("."))


def _canonical(scheme: str, host: str, port: int | None) -> str:
    """The origin's serialization: lower case, IPv6 in brackets, no default port."""
    try:
        address = ipaddress.ip_address(host)
        shown = f"[{address.compressed}]" if address.version == 6 else address.compressed
    except ValueError:
        shown = host.lower()
    if port is None or port == DEFAULT_PORTS[scheme]:
        return f"{scheme}://{shown}"
    return f"{scheme}://{shown}:{port}"


def parse_origins(values: list[str]) -> frozenset[str]:
    """The allowed origins of a list of values (OriginError on the first bad one)."""
    if len(values) > MAX_ORIGINS:
        raise OriginError(f"at most {MAX_ORIGINS} origins may be allowed, got {len(values)}")
    return frozenset(parse_origin(value) for value in values)

"""Pages at other origins allowed to call the gateway's /api routes (`--allow-origin`).

Each allowed origin is named exactly, as a browser writes it in its `Origin` header
(web/origins.py). For an allowed origin the gateway answers the browser's preflight and adds
`Access-Control-Allow-Origin` to its answers on /api routes; every other origin is refused as
before.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus

from boardbot.web import component_data
from boardbot.web.request_checks import RefusedError

API_PREFIX = "/api/"
"""The routes a page at an allowed origin may call; static files are never shared."""

ALLOWED_HEADERS = ("content-type",)
"""Request headers a page may send: the gateway reads only its body's type (its token is its
own, never the page's)."""

MAX_AGE_S = 600
"""How long a browser may keep a preflight's answer."""


@dataclass(frozen=True)
class CorsPolicy:
    """The origins, besides the page's own, whose pages may call the /api routes."""

    allowed: frozenset[str] = frozenset()

    def answer_headers(self, headers: Message, path: str) -> dict[str, str]:
        """Headers to add to any answer to this request: none off /api or with no origin
        allowed; `Vary: Origin` on /api, with `Access-Control-Allow-Origin` for an allowed one."""
        if not self.allowed or not path.startswith(API_PREFIX):
            return {}
        origin = headers.get("Origin")
        if origin is not None and origin in self.allowed:
            return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
        return {"Vary": "Origin"}

    def preflight(self, headers: Message, path: str, methods: tuple[str, ...]) -> dict[str, str]:
        """The headers of the answer to a preflight of a route accepting `methods`, or
        RefusedError (403) for an origin, method or header not allowed."""
        origin = headers.get("Origin")
        if origin is None or origin not in self.allowed:
            where = "no Origin" if origin is None else f"origin {origin[:64]}"
            raise RefusedError(
                HTTPStatus.FORBIDDEN, "PERMISSION_DENIED", f"cross-origin call from {where}"
            )
        method = headers.get("Access-Control-Request-Method", "")
        if method not in methods:
            raise RefusedError(
                HTTPStatus.FORBIDDEN,
                "PERMISSION_DENIED",
                f"method {method[:16]!r} not allowed on {path[:64]}: {', '.join(methods)} only",
            )
        asked = headers.get("Access-Control-Request-Headers", "")
        names = [name.strip().lower() for name in asked.split(",") if name.strip()]
        refused = [name for name in names if name not in ALLOWED_HEADERS]
        if refused:
            raise RefusedError(
                HTTPStatus.FORBIDDEN,
                "PERMISSION_DENIED",
                f"request header {refused[0][:64]!r} not allowed: "
                f"{', '.join(ALLOWED_HEADERS)} only",
            )
        return {
            "Access-Control-Allow-Origin": origin,
            "Access-Control-Allow-Methods": ", ".join(methods),
            "Access-Control-Allow-Headers": ", ".join(ALLOWED_HEADERS),
            "Access-Control-Max-Age": str(MAX_AGE_S),
            "Vary": "Origin",
        }


def route_methods(path: str, calls: frozenset[str]) -> tuple[str, ...] | None:
    """The methods an /api route accepts (`POST` for a call, `GET` for component data), or
    None when the path is no route."""
    if component_data.find(path) is not None:
        return ("GET",)
    if path.startswith(API_PREFIX) and path.removeprefix(API_PREFIX) in calls:
        return ("POST",)
    return None

"""Bounds on every field of a request, checked before any work is done on it."""

from __future__ import annotations

from boardbot.engine.errors import echo
from boardbot.jobs.failures import Reason, RequestError, invalid_argument

MAX_NAME_CHARS = 64
"""Longest game or preset name (every real one is far shorter)."""
MAX_NOTATION_CHARS = 256
"""Longest move notation."""
MAX_STATE_BYTES = 256 * 1024
"""Largest state document (a full LEDA state is about 6 KB, Legend Raiders about 3 KB)."""
MAX_OPTIONS_BYTES = 16 * 1024
"""Largest options document."""
MAX_MOVE_BYTES = 16 * 1024
"""Largest move document."""
MAX_TOP_K = 1000
"""Most moves an analysis may ask for (0 asks for all)."""
MAX_STREAM_EVERY_MS = 60_000
"""Longest period between two partial analyses."""
MAX_EXPLORATION = 100.0
"""Largest UCB exploration constant a request may set."""
MAX_TEMPERATURE = 100.0
"""Largest move-choice temperature a request may set."""
MAX_SESSION_KEY_CHARS = 128
"""Longest `session_key` (tree reuse between requests)."""


def check_session_key(key: str) -> None:
    """INVALID_ARGUMENT (INVALID_SESSION_KEY) unless `key` is at most MAX_SESSION_KEY_CHARS
    printable characters (empty is fine: no tree reuse)."""
    if len(key) > MAX_SESSION_KEY_CHARS:
        raise invalid_argument(
            f"session_key: {len(key)} characters, at most {MAX_SESSION_KEY_CHARS} allowed",
            Reason.INVALID_SESSION_KEY,
            "session_key",
        )
    if not key.isprintable():
        raise invalid_argument(
            f"session_key: only printable characters are allowed, got {echo(key)}",
            Reason.INVALID_SESSION_KEY,
            "session_key",
        )


def check_size(field: str, value: bytes | str, limit: int) -> None:
    """INVALID_ARGUMENT (FIELD_TOO_LARGE) when `value` is longer than `limit`."""
    if len(value) > limit:
        unit = "bytes" if isinstance(value, bytes) else "characters"
        raise invalid_argument(
            f"{field}: {len(value)} {unit}, at most {limit} allowed",
            Reason.FIELD_TOO_LARGE,
            field,
        )


def check_range(field: str, value: int, low: int, high: int) -> None:
    """INVALID_ARGUMENT (INVALID_FIELD) unless `low <= value <= high`."""
    if not low <= value <= high:
        raise invalid_argument(
            f"{field}: must be in {low}..{high}, got {echo(value)}", Reason.INVALID_FIELD, field
        )


def check_document(field: str, raw: bytes, limit: int) -> None:
    """INVALID_ARGUMENT unless the JSON document field `raw` is present and within `limit`."""
    required(field, raw)
    check_size(field, raw, limit)


def required(field: str, value: bytes | str) -> None:
    """INVALID_ARGUMENT (MISSING_FIELD) when `value` is empty."""
    if not value:
        raise _missing(field)


def _missing(field: str) -> RequestError:
    what = "a JSON document" if field.endswith("_json") else "a value"
    return invalid_argument(f"{field}: required ({what}), got nothing", Reason.MISSING_FIELD, field)

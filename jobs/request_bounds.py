"""Bounds on every field of a request, checked before any work is done on it."""

from __future__ import annotations

from typing import Any

from boardbot.engine.errors import EngineError, InvalidActionError, InvalidStateError, echo
from boardbot.engine.jsonread import MAX_JSON_DEPTH, check_depth, nesting_error, text_depth_path
from boardbot.jobs.failures import Reason, RequestError, from_engine_error, invalid_argument

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
MAX_DOCUMENT_DEPTH = MAX_JSON_DEPTH
"""Most levels of lists and objects nested in a JSON document (the engines' own bound)."""
MAX_TOP_K = 1000
"""Most moves an analysis may ask for (0 asks for all)."""
MAX_STREAM_EVERY_MS = 60_000
"""Longest period between two partial analyses."""
MAX_EXPLORATION = 100.0
"""Largest UCB exploration constant a request may set."""
MAX_TEMPERATURE = 100.0
"""Largest move-choice temperature a request may set."""
MAX_PUCT = 100.0
"""Largest PUCT constant a request may set (with a model)."""
MAX_FPU = 1.0
"""Largest first-play urgency, either way, a request may set (values lie in [0, 1])."""
MAX_REVIEW_DECISIONS = 2_000
"""Most decisions one review searches (a LEDA game has about 150)."""
MAX_REVIEW_SEATS = 16
"""Most entries in a review's `seats`."""
MAX_REVIEW_POSITION_MS = 10_000.0
"""Longest search of one reviewed position (each of its at most two searches)."""
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


def check_nesting(field: str, document: Any) -> None:
    """INVALID_ARGUMENT (the field's bad-document reason, at the JSON path) when the parsed
    document of `field` is nested deeper than MAX_DOCUMENT_DEPTH."""
    try:
        check_depth(document, (), _document_error(field))
    except EngineError as error:
        raise from_engine_error(field, error) from None


def check_text_nesting(field: str, raw: bytes) -> None:
    """As `check_nesting`, on the text of a document that did not parse (a parser stops at its
    own recursion limit, so a deep document must be refused before it is blamed for that)."""
    found = text_depth_path(raw)
    if found is not None:
        raise from_engine_error(field, nesting_error(found, _document_error(field)))


def _document_error(field: str) -> type[EngineError]:
    """The engines' error for a bad document of `field`: a move's, or a state's or options'."""
    return InvalidActionError if field == "move_json" else InvalidStateError


def required(field: str, value: bytes | str) -> None:
    """INVALID_ARGUMENT (MISSING_FIELD) when `value` is empty."""
    if not value:
        raise _missing(field)


def _missing(field: str) -> RequestError:
    what = "a JSON document" if field.endswith("_json") else "a value"
    return invalid_argument(f"{field}: required ({what}), got nothing", Reason.MISSING_FIELD, field)

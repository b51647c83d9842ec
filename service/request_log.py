"""Structured request logs: one JSON line per request."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

import orjson

LOGGER_NAME = "boardbot.requests"


def request_logger(stream: Any = None) -> logging.Logger:
    """The logger that writes one JSON object per line (to stderr unless `stream` is given)."""
    logger = logging.getLogger(LOGGER_NAME)
    if not logger.handlers:
        handler = logging.StreamHandler(stream or sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def log_request(logger: logging.Logger, fields: dict[str, Any]) -> None:
    """Write one request record, timestamped, as a JSON line."""
    record = {"ts": round(time.time(), 3), **fields}
    logger.info(orjson.dumps(record, default=str).decode())

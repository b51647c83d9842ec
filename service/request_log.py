"""Structured request logs: one JSON line per request, written off the request path."""

from __future__ import annotations

import atexit
import logging
import queue
import sys
import time
from logging.handlers import QueueHandler, QueueListener
from typing import Any

import orjson

LOGGER_NAME = "boardbot.requests"


def request_logger(stream: Any = None) -> logging.Logger:
    """The logger that writes one JSON object per line (to stderr unless `stream` is given).

    A request only queues its line; a background thread writes it, so a slow log stream never
    delays an answer. Lines still queued are written when the process exits."""
    logger = logging.getLogger(LOGGER_NAME)
    if not logger.handlers:
        writer = logging.StreamHandler(stream or sys.stderr)
        writer.setFormatter(logging.Formatter("%(message)s"))
        pending: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
        listener = QueueListener(pending, writer)
        listener.start()
        atexit.register(listener.stop)
        logger.addHandler(QueueHandler(pending))
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def log_request(logger: logging.Logger, fields: dict[str, Any]) -> None:
    """Write one request record, timestamped, as a JSON line."""
    record = {"ts": round(time.time(), 3), **fields}
    logger.info(orjson.dumps(record, default=str).decode())


def log_refused_call(logger: logging.Logger, rpc: str, peer: str, status: str, reason: str) -> None:
    """Write the line of a call refused before its method ran (token, bad bytes, busy)."""
    log_request(
        logger,
        {
            "method": rpc.rsplit("/", 1)[-1],
            "rpc": rpc,
            "peer": peer,
            "status": status,
            "reason": str(reason),
        },
    )

"""The request log: JSON lines written by a background thread, none lost at exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

SCRIPT = """
from boardbot.service.request_log import log_request, request_logger
logger = request_logger()
for i in range(50):
    log_request(logger, {"method": "ChooseMove", "status": "OK", "n": i})
"""


def test_queued_lines_are_written_in_order_before_exit() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
        check=True,
    )
    records = [orjson.loads(line) for line in done.stderr.splitlines()]
    assert [r["n"] for r in records] == list(range(50))
    assert all(r["method"] == "ChooseMove" and r["ts"] > 0 for r in records)

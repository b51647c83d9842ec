"""Chromium driven by Playwright for the board's tests: found, or the tests skip saying why."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM_VARIABLE = "BOARDBOT_CHROMIUM"
"""Path of the Chromium to drive (default: `chromium` on PATH, Debian's package)."""


def chromium_path() -> Path | None:
    """The Chromium executable the tests drive, or None when there is none."""
    chosen = os.environ.get(CHROMIUM_VARIABLE)
    if chosen:
        return Path(chosen)
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return Path(found) if found else None


def skip_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return (
            "no Chromium found: install Debian's package (apt-get install chromium) or set "
            f"{CHROMIUM_VARIABLE} to a Chromium executable"
        )
    return None

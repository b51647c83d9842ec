"""Chromium driven by Playwright for the board's tests: found, or the tests skip saying why."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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


@contextmanager
def launched_chromium() -> Iterator[Browser]:
    """A headless Chromium for one test module, closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(chromium_path()), headless=True)
        try:
            yield launched
        finally:
            launched.close()

"""The board opened in a fresh browser context, failing the test if the page throws."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@contextmanager
def opened_board(
    browser: Browser, url: str, width: int = 1280, height: int = 800, **context: Any
) -> Iterator[Page]:
    """The board at `url` in a `width` x `height` window (more context options as given),
    loaded; closed afterwards, and an error if the page threw meanwhile."""
    from playwright.sync_api import expect

    opened = browser.new_context(viewport={"width": width, "height": height}, **context)
    page = opened.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        expect(page.locator("[data-board]")).to_be_visible(timeout=20_000)
        yield page
    finally:
        opened.close()
    assert errors == [], f"the page threw: {errors}"

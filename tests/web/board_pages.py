"""The board opened in a fresh browser context, failing the test if the page throws or breaks a
rule of its Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
"""Run before the page's own scripts: every rule of the policy the page breaks is kept."""


@contextmanager
def opened_board(
    browser: Browser, url: str, width: int = 1280, height: int = 800, **context: Any
) -> Iterator[Page]:
    """The board at `url` in a `width` x `height` window (more context options as given),
    loaded; closed afterwards, and an error if the page threw or broke its policy meanwhile."""
    from playwright.sync_api import expect

    opened = browser.new_context(viewport={"width": width, "height": height}, **context)
    page = opened.new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(url)
        expect(page.locator("[data-board]")).to_be_visible(timeout=20_000)
        yield page
        violations = page.evaluate("window.__violations")
    finally:
        opened.close()
    assert errors == [], f"the page threw: {errors}"
    assert violations == [], f"the page broke its policy: {violations}"

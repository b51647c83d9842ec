"""The board under its Content-Security-Policy: it works, breaks no rule, and cannot be framed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.browser import launched_chromium, skip_reason
from tests.web.gateways import RunningGateway

REASON = skip_reason()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}"),
    pytest.mark.xdist_group("browser_and_ray"),
]

if REASON is None:
    from playwright.sync_api import Browser, Page, expect

    from tests.web.board_steps import new_game, tab

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""
"""Run before the page's own scripts: every rule of the policy the page breaks is kept."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    opened.add_init_script(RECORD_VIOLATIONS)
    yield opened
    context.close()


def test_the_board_breaks_no_rule_of_its_policy(page: Page, gateway: RunningGateway) -> None:
    page.goto(gateway.url)
    expect(page.locator("[data-board=leda]")).to_be_visible(timeout=20_000)
    new_game(page, "legend_raiders", players=3, seed=4)
    tab(page, "analysis")
    page.locator("#analysis-iterations").fill("2000")
    page.get_by_test_id("analysis-start").click()
    expect(page.get_by_test_id("analysis-stats")).to_have_attribute(
        "data-final", "true", timeout=20_000
    )
    bar = page.get_by_test_id("candidate").first.locator(".bar")
    assert bar.evaluate("node => node.getBoundingClientRect().width") > 0  # its style applied
    assert page.evaluate("window.__violations") == []


def test_another_site_cannot_frame_the_board(page: Page, gateway: RunningGateway) -> None:
    page.set_content(f'<iframe id="board" src="{gateway.url}/"></iframe>')
    page.wait_for_timeout(1_000)
    framed = [frame for frame in page.frames if frame is not page.main_frame]
    assert len(framed) == 1
    assert framed[0].locator("[data-board]").count() == 0
    assert "boardbot" not in framed[0].title()

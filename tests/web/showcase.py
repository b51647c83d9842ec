"""Screenshots of the board for the docs, and the analysis figures, measured in Chromium.

`python -m tests.web.showcase [--out docs/images] [--runs 5]` starts a server and the gateway,
opens the board at 1280x800, takes a screenshot of a LEDA and a Legend Raiders game under
analysis (and one at phone size), and measures over a few analyses the time from the click on
"Analyse" to the first streamed candidates and the updates per second that follow.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from tests.service.servers import start_server
from tests.web.board_steps import new_game, tab
from tests.web.browser import chromium_path
from tests.web.gateways import RunningGateway

ANALYSIS_SECONDS = 3.0


def analyse(page: Page, preset: str, seconds: float) -> tuple[float, float]:
    """Run an analysis of at most `seconds`; (ms from the click to the first candidates,
    updates per second from the first update to the last)."""
    tab(page, "analysis")
    page.get_by_test_id("analysis-preset").select_option(preset)
    # A budget past the time bound, so each analysis streams for the whole time.
    page.locator("#analysis-iterations").fill("1000000")
    page.locator("#analysis-time").fill(str(int(seconds * 1000)))
    page.get_by_test_id("analysis-start").click()
    stats = page.get_by_test_id("analysis-stats")
    expect(stats).to_have_attribute("data-final", "true", timeout=(seconds + 20) * 1000)
    first = float(stats.get_attribute("data-first-ms") or "nan")
    return first, float(stats.get_attribute("data-rate") or "nan")


def main() -> None:
    """Take the screenshots and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    served = start_server(workers=1)
    gateway = RunningGateway(served.address)
    firsts: list[float] = []
    rates: list[float] = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=str(chromium_path()))
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(gateway.url)
            expect(page.locator("[data-board]")).to_be_visible(timeout=20_000)
            shots = [
                ("leda", 2, 8, "web-leda.png"),
                ("legend_raiders", 3, 4, "web-legend-raiders.png"),
            ]
            for game, players, seed, name in shots:
                new_game(page, game, players=players, seed=seed)
                tab(page, "moves")
                # A few moves in, so the board has something on it, to a real choice.
                played = 0
                while played < 6 or page.get_by_test_id("move").count() < 4:
                    page.get_by_test_id("move").first.click()
                    played += 1
                    page.wait_for_timeout(150)
                for _ in range(args.runs):
                    first, rate = analyse(page, "expert", ANALYSIS_SECONDS)
                    print(f"{game}: first candidates after {first:.0f} ms, {rate:.1f} updates/s")
                    firsts.append(first)
                    rates.append(rate)
                page.get_by_test_id("candidate").first.hover()
                page.evaluate("() => window.scrollTo(0, 0)")
                page.screenshot(path=str(args.out / name), full_page=True)
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(gateway.url)
            expect(phone.locator("[data-board]")).to_be_visible(timeout=20_000)
            phone.screenshot(path=str(args.out / "web-phone.png"), full_page=True)
            browser.close()
    finally:
        gateway.close()
        served.close()
    print(f"analyses: {len(firsts)} of {ANALYSIS_SECONDS:g} s (expert, one search worker)")
    print(f"click to first candidates: median {statistics.median(firsts):.0f} ms, "
          f"max {max(firsts):.0f} ms")
    print(f"updates per second: median {statistics.median(rates):.1f}")


if __name__ == "__main__":
    main()

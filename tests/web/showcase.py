"""Screenshots of the board for the docs, and the analysis and review figures, measured in Chromium.

`python -m tests.web.showcase [--out docs/images] [--runs 5]` starts a server with one search
worker and the gateway, opens the board at 1280x800 and:

- analyses a LEDA and a three-player Legend Raiders position a few times, measuring the time from
  the click on "Analyse" to the first streamed candidates and the updates per second that follow,
  then follows the analysis along a few moves and takes a screenshot of each game (the best move
  outlined, the bars, the graph);
- has two `beginner` bots play a LEDA game to its end, reviews it at 200 ms per position,
  measuring the time from the click on "Review the game" to the first judged move on screen and
  to the end, and takes a screenshot of the review (the graph with its marks, the judged moves);
- takes one at phone size.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from tests.service.servers import start_server
from tests.web.board_steps import new_game, tab, wait_analysed
from tests.web.browser import chromium_path
from tests.web.gateways import RunningGateway

ANALYSIS_SECONDS = 3.0
FOLLOWED_MOVES = 8
REVIEW_MS = 200


def stop_following(page: Page) -> None:
    """Turn the analysis off if it is on."""
    tab(page, "analysis")
    if page.get_by_test_id("analysis-stop").is_enabled():
        page.get_by_test_id("analysis-stop").click()


def analyse(page: Page, preset: str, seconds: float) -> tuple[float, float]:
    """Run an analysis of at most `seconds`; (ms from the click to the first candidates,
    updates per second from the first update to the last)."""
    stop_following(page)
    page.get_by_test_id("analysis-preset").select_option(preset)
    page.get_by_test_id("analysis-budget").select_option("preset")
    # A budget past the time bound, so each analysis streams for the whole time.
    page.locator("#analysis-iterations").fill("1000000")
    page.locator("#analysis-time").fill(str(int(seconds * 1000)))
    index = page.evaluate("() => window.boardbot.index")
    page.evaluate("i => { window.boardbot.history[i].analysis = null; }", index)
    page.get_by_test_id("analysis-start").click()
    wait_analysed(page, index, (seconds + 20) * 1000)
    timing = page.evaluate("i => window.boardbot.history[i].analysis.timing", index)
    stop_following(page)
    seconds_streamed = float(timing["seconds"])
    rate = (timing["frames"] - 1) / seconds_streamed if seconds_streamed > 0 else float("nan")
    return float(timing["firstMs"]), rate


def follow_a_few_moves(page: Page, moves: int) -> None:
    """Follow the analysis (1 s per position) while playing the best candidate `moves` times."""
    page.locator("#analysis-iterations").fill("")
    page.locator("#analysis-time").fill("")
    page.get_by_test_id("analysis-preset").select_option("hard")
    page.get_by_test_id("analysis-budget").select_option("1000")
    page.get_by_test_id("analysis-start").click()
    for _ in range(moves):
        index = page.evaluate("() => window.boardbot.index")
        if page.get_by_test_id("result").inner_text():
            break
        wait_analysed(page, index)
        page.get_by_test_id("candidate").first.click()
        expect(page.get_by_test_id("ply")).not_to_have_text(f"move {index} of {index}")
    page.wait_for_timeout(600)  # the last position's search under way, its best move outlined


def watch_to_the_end(page: Page, game: str, seed: int) -> int:
    """Two beginner bots play a game to its end; the number of positions."""
    new_game(page, game, seed=seed)
    tab(page, "play")
    page.locator("#watch-delay").fill("0")
    page.get_by_test_id("watch-seat-0").select_option("beginner")
    page.get_by_test_id("watch-seat-1").select_option("beginner")
    page.get_by_test_id("watch-start").click()
    expect(page.get_by_test_id("result")).not_to_be_empty(timeout=600_000)
    page.get_by_test_id("mode-stop").click()
    positions: int = page.evaluate("() => window.boardbot.history.length")
    return positions


def review(page: Page, ms: int) -> tuple[float, float, int]:
    """Review the shown game at `ms` per position; (ms to the first judged move on screen, ms to
    the end, moves judged)."""
    tab(page, "history")
    page.get_by_test_id("review-time").fill(str(ms))
    page.get_by_test_id("review-start").click()
    progress = page.get_by_test_id("review-progress")
    expect(progress).to_have_attribute("data-state", "done", timeout=900_000)
    first = float(progress.get_attribute("data-first-ms") or "nan")
    total = float(progress.get_attribute("data-total-ms") or "nan")
    return first, total, int(progress.get_attribute("data-done") or 0)


def main() -> None:
    """Take the screenshots and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--review-seed", type=int, default=2)
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
                follow_a_few_moves(page, FOLLOWED_MOVES)
                page.mouse.move(1275, 795)  # no candidate hovered: the best one outlined alone
                page.evaluate("() => window.scrollTo(0, 0)")
                page.screenshot(path=str(args.out / name), full_page=True)
                stop_following(page)
            positions = watch_to_the_end(page, "leda", args.review_seed)
            first, total, judged = review(page, REVIEW_MS)
            page.get_by_test_id("graph-mark").first.click()
            page.locator("#review-marked").check()
            page.screenshot(path=str(args.out / "web-review.png"))
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(gateway.url)
            expect(phone.locator("[data-board]")).to_be_visible(timeout=20_000)
            phone.locator("#analysis-iterations").fill("3000")
            phone.get_by_test_id("analysis-start").click()
            expect(phone.get_by_test_id("analysis-stats")).to_have_attribute(
                "data-final", "true", timeout=20_000
            )
            phone.screenshot(path=str(args.out / "web-phone.png"))
            browser.close()
    finally:
        gateway.close()
        served.close()
    print(f"analyses: {len(firsts)} of {ANALYSIS_SECONDS:g} s (expert, one search worker)")
    print(f"click to first candidates: median {statistics.median(firsts):.0f} ms, "
          f"max {max(firsts):.0f} ms")
    print(f"updates per second: median {statistics.median(rates):.1f}")
    print(f"review of a LEDA game of {positions - 1} moves ({judged} decisions judged) at "
          f"{REVIEW_MS} ms per position: first judged move on screen after {first:.0f} ms, "
          f"done after {total / 1000:.1f} s")


if __name__ == "__main__":
    main()

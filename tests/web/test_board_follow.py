"""The analysis that follows the game, the best move on the board and the per-seat bars, in
Chromium against a real server through the gateway."""

from __future__ import annotations

import pytest

from boardbot.jobs.settings import Limits
from tests.service.servers import start_server
from tests.web.browser import skip_reason
from tests.web.gateways import RunningGateway

REASON = skip_reason()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}"),
    pytest.mark.xdist_group("browser_and_ray"),
]

if REASON is None:
    from playwright.sync_api import Browser, Page, expect

    from tests.web.board_pages import opened_board
    from tests.web.board_steps import (
        follow_analysis,
        new_game,
        play_first_moves,
        ply,
        tab,
        wait_analysed,
    )

ITERATIONS = 300
"""Per position: enough for a few candidates, a few milliseconds of search."""


def analysed_notations(page: Page, index: int) -> list[str]:
    """The candidates the page keeps for history[index], best first."""
    found: list[str] = page.evaluate(
        "i => window.boardbot.history[i].analysis.moves.map((m) => m.move.notation)", index
    )
    return found


def test_the_analysis_follows_steps_moves_and_a_move_taken_back(page: Page) -> None:
    new_game(page, "legend_raiders", seed=5)
    follow_analysis(page, ITERATIONS)
    wait_analysed(page, 0)
    expect(page.get_by_test_id("candidate").first).to_be_visible()
    # Playing a move: the new position is analysed without a click.
    play_first_moves(page, 2)
    assert ply(page) == "move 2 of 2"
    wait_analysed(page, 2)
    shown = page.get_by_test_id("candidate").first.get_attribute("data-notation")
    assert shown == analysed_notations(page, 2)[0]
    # Stepping back: the position shown is analysed again.
    page.evaluate("() => { window.boardbot.history[1].analysis = null; }")
    page.get_by_test_id("back").click()
    expect(page.get_by_test_id("ply")).to_have_text("move 1 of 2")
    wait_analysed(page, 1)
    # Taking the move back and playing another: the new line's position is analysed.
    tab(page, "moves")
    other = page.get_by_test_id("move").last
    notation = other.get_attribute("data-notation")
    other.click()
    expect(page.get_by_test_id("ply")).to_have_text("move 2 of 2")
    assert page.evaluate("() => window.boardbot.history[2].move.notation") == notation
    wait_analysed(page, 2)
    # Stopped: no more searches, whatever is shown.
    tab(page, "analysis")
    page.get_by_test_id("analysis-stop").click()
    expect(page.get_by_test_id("follow-line")).to_have_attribute("data-following", "false")
    page.get_by_test_id("back").click()
    page.wait_for_timeout(600)
    assert page.evaluate("() => window.boardbot.history[1].analysis?.final") is True
    assert page.evaluate("() => window.boardbot.follower.run") is None


def test_a_time_per_position_and_infinite_run_until_stopped(page: Page) -> None:
    new_game(page, "leda", seed=3)
    tab(page, "analysis")
    page.get_by_test_id("analysis-budget").select_option("infinite")
    page.get_by_test_id("analysis-start").click()
    stats = page.get_by_test_id("analysis-stats")
    page.wait_for_function(
        "() => Number(document.getElementById('analysis-stats').dataset.frames) >= 3",
        timeout=20_000,
    )
    expect(page.get_by_test_id("follow-line")).to_have_attribute("data-running", "true")
    assert page.evaluate("() => window.boardbot.follower.run.key").startswith("board-")
    page.get_by_test_id("analysis-stop").click()
    expect(page.get_by_test_id("follow-line")).to_have_attribute("data-running", "false")
    frames = stats.get_attribute("data-frames")
    page.wait_for_timeout(500)
    assert stats.get_attribute("data-frames") == frames


def test_the_best_move_stays_on_the_board_without_hovering(page: Page) -> None:
    new_game(page, "legend_raiders", seed=5)
    follow_analysis(page, ITERATIONS)
    wait_analysed(page, 0)
    best = analysed_notations(page, 0)[0]
    expect(page.get_by_test_id("board")).to_have_attribute("data-best", best)
    expect(page.locator("[data-board=legend_raiders] .rb-best").first).to_be_visible()
    page.get_by_test_id("show-best").uncheck()
    expect(page.locator(".rb-best")).to_have_count(0)


def test_the_bars_are_every_seats_value_from_one_search(page: Page) -> None:
    new_game(page, "legend_raiders", players=3, seed=4)
    follow_analysis(page, ITERATIONS)
    wait_analysed(page, 0)
    values: list[float] = page.evaluate("() => window.boardbot.history[0].analysis.seat_values")
    assert len(values) == 3
    best = page.evaluate("() => window.boardbot.history[0].analysis.moves[0].value")
    mover = page.evaluate("() => window.boardbot.history[0].summary.current_player")
    assert values[mover] == pytest.approx(best)
    expect(page.get_by_test_id("eval-bars")).to_have_attribute("data-source", "analysis")
    for seat, value in enumerate(values):
        bar = page.get_by_test_id(f"eval-{seat}")
        assert float(bar.get_attribute("data-value") or "nan") == pytest.approx(value, abs=5e-4)
        title = bar.get_attribute("title") or ""
        assert "expected return" in title and "iterations" in title and "same root" in title
        assert "to win" not in title.replace("not a chance to win", "")


def test_a_forced_move_is_shown_as_forced_not_zero(page: Page) -> None:
    # LEDA, seed 1: the first legal move six times in a row leaves one legal move.
    new_game(page, "leda", seed=1)
    play_first_moves(page, 6)
    assert page.get_by_test_id("move").count() == 1
    tab(page, "play")
    page.get_by_test_id("play-seat").select_option("seat 0")
    page.get_by_test_id("watch-seat-0").select_option("beginner")
    page.get_by_test_id("watch-seat-1").select_option("beginner")
    page.locator("#watch-delay").fill("0")
    page.get_by_test_id("watch-start").click()
    expect(page.get_by_test_id("ply")).not_to_have_text("move 6 of 6", timeout=20_000)
    page.get_by_test_id("mode-stop").click()
    tab(page, "history")
    forced = page.get_by_test_id("history-entry").nth(7)
    expect(forced).to_contain_text("forced")
    assert "0.0%" not in forced.inner_text()


def test_infinite_grows_the_same_tree_when_the_servers_bound_ends_a_search(
    browser: Browser,
) -> None:
    # This server ends every search after 400 ms: an infinite analysis starts the next one on
    # the tree the last one grew.
    served = start_server(workers=1, limits=Limits(max_workers=1, max_time_ms=400))
    running = RunningGateway(served.address)
    try:
        with opened_board(browser, running.url) as page:
            tab(page, "analysis")
            page.get_by_test_id("analysis-budget").select_option("infinite")
            page.get_by_test_id("analysis-start").click()
            # Both fields are read in the one evaluation that finds the reuse: the next
            # continuation's first partial answer replaces these stats (without `tree_reused`).
            reused = page.wait_for_function(
                "() => { const s = window.boardbot.history[0].analysis?.stats;"
                " return s?.tree_reused === true ? [Number(s.reused_visits)] : null; }",
                timeout=20_000,
            ).json_value()[0]
            key = page.evaluate("() => window.boardbot.follower.run.key")
            assert reused > 0
            page.wait_for_timeout(500)
            assert page.evaluate("() => window.boardbot.follower.run.key") == key
            tab(page, "analysis")
            page.get_by_test_id("analysis-stop").click()
    finally:
        running.close()
        served.close()

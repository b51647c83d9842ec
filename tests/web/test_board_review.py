"""The review in one click and the evaluation graph under the board: judged moves streaming in,
mistakes marked on the graph and jumping to their position when clicked, cancelling."""

from __future__ import annotations

import pytest

from tests.web.browser import skip_reason

REASON = skip_reason()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}"),
    pytest.mark.xdist_group("browser_and_ray"),
]

if REASON is None:
    from playwright.sync_api import Page, expect

    from tests.web.board_steps import (
        follow_analysis,
        new_game,
        play_first_moves,
        ply,
        tab,
        wait_analysed,
    )


def review(page: Page, ms_per_position: int) -> None:
    """Start the review of the shown game from the Game tab."""
    tab(page, "history")
    page.get_by_test_id("review-time").fill(str(ms_per_position))
    page.get_by_test_id("review-start").click()


def test_the_review_fills_the_graph_and_marks_mistakes_that_jump_when_clicked(page: Page) -> None:
    # The first legal move every time: a game full of mistakes.
    new_game(page, "leda", seed=3)
    play_first_moves(page, 14)
    review(page, 5)
    progress = page.get_by_test_id("review-progress")
    expect(progress).to_have_attribute("data-state", "done", timeout=60_000)
    decisions = page.evaluate(
        "() => window.boardbot.history.slice(1).filter((h, i) =>"
        " window.boardbot.history[i].summary.current_player >= 0).length"
    )
    assert page.get_by_test_id("review-entry").count() == decisions
    expect(progress).to_contain_text(f"{decisions} of {decisions} moves judged")
    assert page.get_by_test_id("review-seat").count() == 2
    # Every reviewed position is on the graph, one line per seat.
    graph = page.get_by_test_id("graph").locator("svg")
    assert int(graph.get_attribute("data-valued") or 0) >= decisions
    expect(page.get_by_test_id("graph-line-0")).to_be_attached()
    expect(page.get_by_test_id("graph-line-1")).to_be_attached()
    judged = page.get_by_test_id("review-entry").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.judgement)"
    )
    marked = [j for j in judged if j in ("inaccuracy", "mistake", "blunder")]
    marks = page.get_by_test_id("graph-mark")
    assert marks.count() == len(marked) > 0
    # A mark jumps to the position its move was played from.
    mark = marks.last
    position = int(mark.get_attribute("data-position") or -1)
    mark.click()
    expect(page.get_by_test_id("ply")).to_have_text(f"move {position} of 14")
    expect(page.get_by_test_id("graph-now")).to_have_attribute("data-position", str(position))
    # The review's search of that position is shown: its candidates and the best move.
    tab(page, "analysis")
    expect(page.get_by_test_id("analysis-stats")).to_contain_text("from the review")
    expect(page.get_by_test_id("eval-bars")).to_have_attribute("data-source", "review")
    # And an entry of the list jumps too.
    tab(page, "history")
    page.get_by_test_id("review-entry").first.click()
    first = page.get_by_test_id("review-entry").first.get_attribute("data-position")
    expect(page.get_by_test_id("ply")).to_have_text(f"move {first} of 14")


def test_a_review_can_be_cancelled(page: Page) -> None:
    new_game(page, "leda", seed=4)
    play_first_moves(page, 40)
    review(page, 2000)
    expect(page.get_by_test_id("review-entry").first).to_be_attached(timeout=20_000)
    page.get_by_test_id("review-stop").click()
    progress = page.get_by_test_id("review-progress")
    expect(progress).to_have_attribute("data-state", "cancelled")
    done = progress.get_attribute("data-done")
    page.wait_for_timeout(1_000)
    assert progress.get_attribute("data-done") == done
    assert int(done or 0) < 40
    assert page.get_by_test_id("review-entry").count() == int(done or 0)
    expect(page.get_by_test_id("review-start")).to_be_enabled()


def test_the_graph_draws_the_analysed_positions_and_a_click_goes_there(page: Page) -> None:
    new_game(page, "legend_raiders", players=3, seed=4)
    follow_analysis(page, 300)
    for played in range(3):
        wait_analysed(page, played)
        play_first_moves(page, 1)
    wait_analysed(page, 3)
    graph = page.get_by_test_id("graph").locator("svg")
    expect(graph).to_have_attribute("data-valued", "4", timeout=10_000)
    for seat in range(3):
        expect(page.get_by_test_id(f"graph-line-{seat}")).to_be_attached()
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": 31, "y": box["height"] / 2})  # the left edge: the first position
    expect(page.get_by_test_id("ply")).to_have_text("move 0 of 3")
    assert ply(page) == "move 0 of 3"

"""What the board shows where: the seat to move, its candidates and the step buttons in view at
1280x800 for both games and every player count; the analysis at hand at phone size; tap instead
of hover on touch screens; and play mode hiding what the player may not see."""

from __future__ import annotations

import random

import pytest

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
        fully_in_view,
        new_game,
        play_until_over,
        tab,
        wait_analysed,
    )

SEAT_TOP_PX = 240
"""Of a seat's board taller than the window, at least this much from its top must show."""


def seat_to_move(page: Page) -> str:
    """The selector of the seat to move's board."""
    seat = page.evaluate(
        "() => window.boardbot.history[window.boardbot.index].summary.current_player"
    )
    assert seat >= 0
    return f"[data-board] [data-seat='{seat}']"


def seat_shows(page: Page, selector: str) -> bool:
    """True when the seat's board is in view, or its top part when it is taller than the room
    left by what is fixed on screen, and nothing covers its top."""
    found = page.evaluate(
        """selector => {
          const part = document.querySelector(selector);
          const box = part.getBoundingClientRect();
          const style = getComputedStyle(document.documentElement);
          const room = window.innerHeight - (parseFloat(style.scrollPaddingBottom) || 0);
          const x = box.left + Math.min(40, box.width / 2), y = box.top + 12;
          const top = document.elementFromPoint(x, y);
          return {top: box.top, bottom: box.bottom, room, uncovered: part.contains(top)};
        }""",
        selector,
    )
    visible_to = min(found["bottom"], found["top"] + SEAT_TOP_PX)
    return bool(found["top"] >= -0.5 and visible_to <= found["room"] + 0.5 and found["uncovered"])


@pytest.mark.parametrize(
    ("game", "players"),
    [("leda", 2), ("legend_raiders", 2), ("legend_raiders", 3), ("legend_raiders", 4)],
)
def test_at_1280x800_the_seat_to_move_its_candidates_and_the_steps_are_in_view(
    browser: Browser, gateway: RunningGateway, game: str, players: int
) -> None:
    with opened_board(browser, gateway.url) as page:
        new_game(page, game, players=players, seed=8)
        follow_analysis(page, 200)
        for played in range(players + 2):
            wait_analysed(page, played)
            expect(page.get_by_test_id("candidate").first).to_be_visible()
            where = f"{game} {players}p, move {played}"
            assert seat_shows(page, seat_to_move(page)), where
            assert fully_in_view(page, "[data-testid=candidate]"), where
            assert fully_in_view(page, "[data-testid=back]"), where
            assert fully_in_view(page, "[data-testid=forward]"), where
            page.get_by_test_id("candidate").first.click()
            expect(page.get_by_test_id("ply")).to_have_text(f"move {played + 1} of {played + 1}")


@pytest.mark.parametrize(("game", "players"), [("leda", 2), ("legend_raiders", 4)])
def test_at_phone_size_the_analysis_is_at_hand_beside_the_seat_to_move(
    browser: Browser, gateway: RunningGateway, game: str, players: int
) -> None:
    with opened_board(browser, gateway.url, 390, 844) as page:
        if game != "leda":
            new_game(page, game, players=players, seed=8)
        height = page.evaluate("() => document.documentElement.scrollHeight")
        assert height > 844  # the board alone is taller than the window
        assert fully_in_view(page, "[data-testid=analysis-start]")
        page.get_by_test_id("analysis-start").click()
        expect(page.get_by_test_id("candidate").first).to_be_visible(timeout=20_000)
        assert fully_in_view(page, "[data-testid=candidate]")
        assert seat_shows(page, seat_to_move(page))
        assert fully_in_view(page, "[data-testid=forward]")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_on_a_touch_screen_a_tap_shows_a_candidate_and_a_second_plays_it(
    browser: Browser, gateway: RunningGateway
) -> None:
    with opened_board(browser, gateway.url, 390, 844, has_touch=True, is_mobile=True) as page:
        new_game(page, "legend_raiders", seed=5)
        expect(page.locator("#analysis-hint")).to_contain_text("Tap a candidate")
        page.locator("#analysis-iterations").fill("300")
        page.get_by_test_id("analysis-start").tap()
        wait_analysed(page, 0)
        page.get_by_test_id("show-best").set_checked(False)
        candidate = page.get_by_test_id("candidate").nth(1)
        notation = candidate.get_attribute("data-notation")
        candidate.tap()
        expect(page.get_by_test_id("ply")).to_have_text("move 0 of 0")
        expect(page.locator(".rb-hl").first).to_be_attached()
        expect(page.locator(f"[data-testid=candidate][data-notation='{notation}']")).to_have_class(
            "playable selected"
        )
        page.locator(f"[data-testid=candidate][data-notation='{notation}']").tap()
        expect(page.get_by_test_id("ply")).to_have_text("move 1 of 1")
        assert page.evaluate("() => window.boardbot.history[1].move.notation") == notation


def test_play_mode_locks_the_other_views_until_the_game_is_over(
    browser: Browser, gateway: RunningGateway
) -> None:
    with opened_board(browser, gateway.url) as page:
        new_game(page, "legend_raiders", seed=11)
        tab(page, "play")
        page.get_by_test_id("play-seat").select_option("seat 0")
        page.get_by_test_id("play-preset").select_option("beginner")
        page.get_by_test_id("play-start").click()
        pov = page.get_by_test_id("pov-select")
        expect(pov).to_be_disabled()
        expect(pov).to_have_value("0")
        expect(page.get_by_test_id("pov-lock")).to_be_visible()
        expect(page.get_by_test_id("lock-line")).to_contain_text("until the game is over")
        # Even set behind the page's back, the referee's view does not show.
        page.evaluate(
            "() => { const s = document.getElementById('pov-select'); s.disabled = false;"
            " s.value = 'all'; s.dispatchEvent(new Event('change')); }"
        )
        expect(pov).to_have_value("0")
        assert page.evaluate("() => window.boardbot.pov") == 0
        tab(page, "state")
        expect(page.get_by_test_id("state-locked")).to_be_visible()
        expect(page.get_by_test_id("state-text")).to_be_hidden()
        assert page.get_by_test_id("state-text").input_value() == ""
        tab(page, "history")
        expect(page.get_by_test_id("record-export")).to_be_disabled()
        expect(page.get_by_test_id("review-start")).to_be_disabled()
        tab(page, "moves")
        play_until_over(page, random.Random(11))
        expect(pov).to_be_enabled()
        expect(page.get_by_test_id("pov-lock")).to_be_hidden()
        pov.select_option("all")
        assert page.evaluate("() => window.boardbot.pov") == "all"
        tab(page, "state")
        expect(page.get_by_test_id("state-text")).to_be_visible()


def test_a_bots_turn_is_not_analysed_while_a_seat_is_played(
    browser: Browser, gateway: RunningGateway
) -> None:
    with opened_board(browser, gateway.url) as page:
        new_game(page, "leda", seed=4)
        tab(page, "play")
        page.get_by_test_id("play-seat").select_option("seat 0")
        page.get_by_test_id("play-preset").select_option("beginner")
        page.get_by_test_id("play-start").click()
        follow_analysis(page, 200)
        wait_analysed(page, 0)
        tab(page, "moves")
        page.get_by_test_id("move").first.click()
        expect(page.get_by_test_id("ply")).to_have_text("move 2 of 2", timeout=20_000)
        page.get_by_test_id("back").click()
        expect(page.get_by_test_id("ply")).to_have_text("move 1 of 2")
        # The bot's candidates at its turn are kept, but not shown, nor searched again.
        assert page.evaluate("() => window.boardbot.history[1].analysis.moves.length") > 0
        expect(page.get_by_test_id("moves-hidden")).to_be_visible()
        expect(page.get_by_test_id("move")).to_have_count(0)
        tab(page, "analysis")
        expect(page.get_by_test_id("follow-line")).to_contain_text("the bot's turn")
        expect(page.get_by_test_id("candidate")).to_have_count(0)

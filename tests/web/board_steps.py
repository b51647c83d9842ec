"""Steps on the board page that several browser tests and the showcase share."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Page, expect

PLAYABLE = "[data-testid=move]:enabled, [data-testid=chance-roll]:enabled"
"""The buttons a human may press to move on: a legal move, or the roll of a chance step."""


def new_game(
    page: Page, game: str, players: int = 2, seed: int = 1, manual_chance: bool = False
) -> None:
    """Start a game from the setup dialog."""
    page.get_by_test_id("new-game").click()
    page.get_by_test_id("setup-game").select_option(game)
    if page.get_by_test_id("setup-players").is_enabled():
        page.get_by_test_id("setup-players").fill(str(players))
    page.get_by_test_id("setup-seed").fill(str(seed))
    page.get_by_test_id("setup-manual-chance").set_checked(manual_chance)
    page.get_by_test_id("setup-start").click()
    expect(page.locator(f"[data-board={game}]")).to_be_visible()
    expect(page.get_by_test_id("ply")).to_have_text("move 0 of 0")


def tab(page: Page, name: str) -> None:
    """Open a tab of the side panel."""
    page.locator(f"[data-tab={name}]").click()


def visits_of_best(page: Page) -> int:
    """The visits shown for the best candidate."""
    cell = page.get_by_test_id("candidate").first.locator("td").nth(2)
    return int(cell.inner_text().replace(",", ""))


def play_until_over(page: Page, rng: random.Random, limit_s: float = 300.0) -> int:
    """Press a random playable button whenever there is one, until the game is over; the
    number of presses."""
    presses = 0
    deadline = time.monotonic() + limit_s
    result = page.get_by_test_id("result")
    while not result.inner_text():
        assert time.monotonic() < deadline, (
            f"the game did not end within {limit_s} s ({presses} presses): {board_state(page)}"
        )
        buttons = page.locator(PLAYABLE)
        count = buttons.count()
        if count == 0:
            page.wait_for_timeout(30)  # the bot is moving
            continue
        try:
            buttons.nth(rng.randrange(count)).click(timeout=1_000)
            presses += 1
        except Exception:  # the list was redrawn under the click: look again
            continue
    return presses


def board_state(page: Page) -> str:
    """What the page shows of where the game stands: the position, the turn, any error."""
    error = page.get_by_test_id("error")
    shown = error.inner_text() if error.is_visible() else "none"
    return f"{ply(page)}; turn: {page.get_by_test_id('turn-line').inner_text()!r}; error: {shown!r}"


def ply(page: Page) -> str:
    """The position shown, as the page says it: "move i of n"."""
    return page.get_by_test_id("ply").inner_text()


def follow_analysis(page: Page, iterations: int) -> None:
    """Turn on the analysis that follows the game, with `iterations` per position."""
    tab(page, "analysis")
    page.locator("#analysis-iterations").fill(str(iterations))
    page.get_by_test_id("analysis-start").click()
    expect(page.get_by_test_id("follow-line")).to_have_attribute("data-following", "true")


def wait_analysed(page: Page, index: int, timeout_ms: float = 20_000) -> None:
    """Wait until the search of history[index] has ended (the page's own record of it)."""
    page.wait_for_function(
        "i => window.boardbot.history[i]?.analysis?.final === true", arg=index, timeout=timeout_ms
    )


def fully_in_view(page: Page, selector: str) -> bool:
    """True when the first element matching `selector` lies wholly inside the window (measured
    in one go in the page, as the candidates are redrawn ten times a second)."""
    inside: bool = page.evaluate(
        """selector => {
          const box = document.querySelector(selector).getBoundingClientRect();
          return box.height > 0 && box.top >= -0.5 && box.left >= -0.5
            && box.bottom <= window.innerHeight + 0.5 && box.right <= window.innerWidth + 0.5;
        }""",
        selector,
    )
    return inside


def play_first_moves(page: Page, count: int) -> None:
    """Play the first legal move `count` times (from the Moves tab)."""
    tab(page, "moves")
    for _ in range(count):
        before = ply(page)
        page.get_by_test_id("move").first.click()
        expect(page.get_by_test_id("ply")).not_to_have_text(before)

"""The analysis board in a real Chromium, against a real server through `boardbot web`'s gateway."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.jobs.settings import Limits
from tests.service.servers import start_server
from tests.web.browser import launched_chromium, skip_reason
from tests.web.gateways import RunningGateway

REASON = skip_reason()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}"),
    # One test worker runs these and the Ray test, one after the other (tests/tools).
    pytest.mark.xdist_group("browser_and_ray"),
]

if REASON is None:
    from playwright.sync_api import Browser, Page, Route, expect

    from tests.web.board_steps import new_game, play_until_over, ply, tab, visits_of_best


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Browser, gateway: RunningGateway) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(gateway.url)
    expect(opened.locator("[data-board]")).to_be_visible(timeout=20_000)
    yield opened
    context.close()
    assert errors == [], f"the page threw: {errors}"


def test_the_page_opens_on_a_leda_game(page: Page) -> None:
    expect(page.locator("[data-board=leda]")).to_be_visible()
    expect(page.get_by_test_id("turn-line")).to_contain_text("to move")
    assert page.locator("[data-board=leda] [data-seat]").count() >= 2


def test_a_legend_raiders_game_with_three_players(page: Page) -> None:
    new_game(page, "legend_raiders", players=3, seed=4)
    assert page.locator("[data-board=legend_raiders] [data-seat]").count() >= 3
    expect(page.get_by_test_id("pov-select").locator("option")).to_have_count(4)


def component_data(game: str) -> dict[str, Any]:
    """The component data file a game declares (the one its engines read)."""
    data_file = get_game(game).game_type.components
    assert data_file is not None
    data: dict[str, Any] = orjson.loads(data_file.read_bytes())
    return data


def test_the_board_draws_with_each_games_component_data_fetched_once(
    browser: Browser, gateway: RunningGateway
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    fetched: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/components" in r.url else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(gateway.url)
        expect(page.locator("[data-board=leda]")).to_be_visible(timeout=20_000)
        kinds = [kind["name"] for kind in component_data("leda")["tile_kinds"]]
        squares = page.locator("[data-board=leda] .lb-sqtile-name").all_inner_texts()
        assert len(squares) == 32
        assert all(any(name.startswith(kind) for kind in kinds) for name in squares), squares
        for game, seed in (("legend_raiders", 3), ("leda", 4), ("legend_raiders", 5)):
            new_game(page, game, seed=seed)
        tiles = {tile["name"] for tile in component_data("legend_raiders")["tiles"]}
        columns = page.locator("[data-board=legend_raiders] .rb-column .rb-tile-name")
        shown = columns.all_inner_texts()
        assert len(shown) == 4 and set(shown) <= tiles, shown
        assert sorted(urlsplit(url).path for url in fetched) == [
            "/api/games/leda/components",
            "/api/games/legend_raiders/components",
        ]
    finally:
        context.close()
    assert errors == [], f"the page threw: {errors}"


def run_analysis(page: Page, iterations: int) -> None:
    """Start an analysis of `iterations` and wait until candidates stream in."""
    tab(page, "analysis")
    page.locator("#analysis-iterations").fill(str(iterations))
    page.get_by_test_id("analysis-start").click()
    expect(page.get_by_test_id("candidate").first).to_be_visible(timeout=20_000)


@pytest.mark.parametrize("game", ["leda", "legend_raiders"])
def test_an_analysis_streams_candidates_and_stops(page: Page, game: str) -> None:
    new_game(page, game, seed=7)
    run_analysis(page, 1_000_000)
    stats = page.get_by_test_id("analysis-stats")
    page.wait_for_function(
        "() => Number(document.getElementById('analysis-stats').dataset.frames) >= 3",
        timeout=20_000,
    )
    first_visits = visits_of_best(page)
    page.wait_for_timeout(400)
    assert visits_of_best(page) >= first_visits
    assert page.get_by_test_id("candidate").count() >= 2
    expect(page.get_by_test_id("pv").locator(".pv-move").first).to_be_visible()
    page.get_by_test_id("analysis-stop").click()
    expect(page.get_by_test_id("analysis-start")).to_be_enabled()
    assert "first candidates after" in stats.inner_text()
    frames = int(stats.get_attribute("data-frames") or 0)
    page.wait_for_timeout(500)
    assert int(stats.get_attribute("data-frames") or 0) == frames  # stopped: no more updates


def test_hovering_a_candidate_highlights_it_and_clicking_plays_it(page: Page) -> None:
    new_game(page, "legend_raiders", seed=5)
    run_analysis(page, 3000)
    expect(page.get_by_test_id("analysis-stats")).to_have_attribute("data-final", "true")
    best = page.get_by_test_id("candidate").first
    notation = best.get_attribute("data-notation")
    best.hover()
    expect(page.locator(".rb-hl").first).to_be_visible()
    best.click()
    expect(page.get_by_test_id("ply")).to_have_text("move 1 of 1")
    tab(page, "history")
    expect(page.get_by_test_id("history-entry").nth(1)).to_contain_text(str(notation))
    page.get_by_test_id("back").click()
    expect(page.get_by_test_id("ply")).to_have_text("move 0 of 1")
    page.get_by_test_id("forward").click()
    expect(page.get_by_test_id("ply")).to_have_text("move 1 of 1")


def test_leda_candidates_light_up_their_squares_and_cards(page: Page) -> None:
    new_game(page, "leda", seed=2)
    tab(page, "moves")
    moves = page.get_by_test_id("move")
    lit = 0
    for i in range(min(moves.count(), 6)):
        moves.nth(i).hover()
        lit += page.locator(".lb-hl").count()
    assert lit > 0


def test_a_full_game_against_beginner(page: Page) -> None:
    new_game(page, "legend_raiders", seed=11)
    tab(page, "play")
    page.get_by_test_id("play-seat").select_option("seat 0")
    page.get_by_test_id("play-preset").select_option("beginner")
    page.get_by_test_id("play-start").click()
    tab(page, "moves")
    clicks = play_until_over(page, random.Random(11))
    assert clicks > 10
    expect(page.get_by_test_id("turn-line")).to_contain_text("Game over")
    tab(page, "history")
    entries = page.get_by_test_id("history-entry")
    assert entries.count() > 2 * clicks - 5
    texts = entries.all_inner_texts()
    assert any("beginner:" in text for text in texts) and any("you:" in text for text in texts)


def test_a_bots_failed_move_is_offered_again(page: Page) -> None:
    failed: list[str] = []

    def unavailable_once(route: Route) -> None:
        if failed:
            route.continue_()
            return
        failed.append(route.request.url)
        error = {"code": "UNAVAILABLE", "message": "the server is restarting", "reason": ""}
        body = orjson.dumps({"error": error})
        route.fulfill(status=503, content_type="application/json", body=body)

    page.route("**/api/ChooseMove", unavailable_once)
    new_game(page, "leda", seed=3)
    tab(page, "play")
    page.get_by_test_id("play-seat").select_option("seat 1")
    page.get_by_test_id("play-preset").select_option("beginner")
    page.get_by_test_id("play-start").click()
    expect(page.get_by_test_id("error")).to_contain_text("the server is restarting")
    expect(page.get_by_test_id("turn-line")).to_contain_text("could not move")
    assert ply(page) == "move 0 of 0" and len(failed) == 1
    page.get_by_test_id("error-retry").click()
    expect(page.get_by_test_id("turn-line")).to_contain_text("You (seat 1)", timeout=30_000)
    expect(page.get_by_test_id("error")).to_be_hidden()
    expect(page.get_by_test_id("error-retry")).to_be_hidden()
    assert ply(page) == "move 1 of 1"


def test_watching_two_bots(page: Page) -> None:
    new_game(page, "leda", seed=3)
    tab(page, "play")
    page.locator("#watch-delay").fill("0")
    page.get_by_test_id("watch-seat-0").select_option("beginner")
    page.get_by_test_id("watch-seat-1").select_option("easy")
    page.get_by_test_id("watch-start").click()
    page.wait_for_function(
        "() => /move ([6-9]|\\d\\d+) of/"
        ".test(document.querySelector('[data-testid=ply]').textContent)",
        timeout=60_000,
    )
    page.get_by_test_id("mode-stop").click()
    tab(page, "history")
    texts = page.get_by_test_id("history-entry").all_inner_texts()
    assert any("beginner:" in text for text in texts) and any("easy:" in text for text in texts)
    # Each bot move keeps what the bot weighed: its candidates, shown again on review.
    page.get_by_test_id("history-entry").nth(2).click()
    tab(page, "analysis")
    expect(page.get_by_test_id("candidate").first).to_be_visible()
    played = texts[3].split(": ", 1)[1].split(" · ")[0]
    expect(page.get_by_test_id("analysis-stats")).to_contain_text(f"the bot played {played}")


def test_chance_outcomes_picked_on_the_board(page: Page) -> None:
    new_game(page, "legend_raiders", seed=6, manual_chance=True)
    panel = page.get_by_test_id("chance-panel")
    # Play until a chance step comes up (the opening one, or after a move that rolls).
    tab(page, "moves")
    for _ in range(40):
        if panel.is_visible():
            break
        page.get_by_test_id("move").first.click()
        page.wait_for_timeout(100)
    expect(panel).to_be_visible()
    outcomes = page.get_by_test_id("chance-outcome")
    assert outcomes.count() >= 2
    assert "%" in outcomes.first.inner_text()
    chosen = outcomes.last.get_attribute("data-notation")
    ply = page.get_by_test_id("ply").inner_text()
    outcomes.last.click()
    expect(page.get_by_test_id("ply")).not_to_have_text(ply)
    tab(page, "history")
    expect(page.get_by_test_id("history-entry").last).to_contain_text(str(chosen))


def test_a_leda_shuffle_given_in_notation(page: Page) -> None:
    new_game(page, "leda", seed=2, manual_chance=True)
    tab(page, "moves")
    page.locator("[data-testid=move][data-notation='mulligan:yes']").click()
    panel = page.get_by_test_id("chance-panel")
    expect(panel).to_contain_text("permutation of 0..")
    found = re.search(r"permutation of 0\.\.(\d+)", panel.inner_text())
    assert found, panel.inner_text()
    top = int(found.group(1))
    order = list(range(top, -1, -1))
    page.get_by_test_id("chance-text").fill("shuffle:" + ",".join(map(str, order)))
    page.get_by_test_id("chance-apply").click()
    expect(page.get_by_test_id("ply")).to_have_text("move 2 of 2")
    expect(panel).to_be_hidden()
    tab(page, "history")
    expect(page.get_by_test_id("history-entry").last).to_contain_text("shuffle:" + str(top))


def test_a_bad_pasted_state_shows_the_servers_error(page: Page) -> None:
    tab(page, "state")
    state: dict[str, Any] = orjson.loads(page.get_by_test_id("state-text").input_value())
    state["players"][0]["food"] = -5
    page.get_by_test_id("state-text").fill(orjson.dumps(state).decode())
    page.get_by_test_id("state-load").click()
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("INVALID_ARGUMENT")
    expect(error).to_contain_text("$.players[0].food")
    page.get_by_test_id("state-text").fill("{not json")
    page.get_by_test_id("state-load").click()
    expect(error).to_contain_text("MALFORMED_JSON")


def test_a_phone_sized_window_has_no_sideways_scrolling(
    browser: Browser, gateway: RunningGateway
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        for game in ("leda", "legend_raiders"):
            page.goto(gateway.url)
            expect(page.locator("[data-board=leda]")).to_be_visible(timeout=20_000)
            if game != "leda":
                new_game(page, game, players=4)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, f"{game}: the page is {width} px wide"
    finally:
        context.close()


def test_a_server_that_went_away_is_reported(browser: Browser) -> None:
    served = start_server()
    running = RunningGateway(served.address)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(running.url)
        expect(page.locator("[data-board]")).to_be_visible(timeout=20_000)
        served.close()
        tab(page, "moves")
        page.get_by_test_id("move").first.click()
        expect(page.get_by_test_id("error")).to_contain_text("UNAVAILABLE")
    finally:
        context.close()
        running.close()


def test_a_call_past_its_deadline_is_reported(browser: Browser) -> None:
    # This server keeps 5 s of every deadline back for its answer, so the gateway's 3 s
    # deadline leaves a search no time at all while the rules calls that draw the board have
    # ample time, however loaded the machine.
    limits = Limits(max_workers=1, max_time_ms=60_000, deadline_margin_ms=5000.0)
    served = start_server(workers=1, limits=limits)
    running = RunningGateway(served.address, timeout_s=3.0)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(running.url)
        expect(page.locator("[data-board]")).to_be_visible(timeout=20_000)
        page.get_by_test_id("analysis-start").click()
        expect(page.get_by_test_id("error")).to_contain_text("DEADLINE_EXCEEDED")
    finally:
        context.close()
        running.close()
        served.close()

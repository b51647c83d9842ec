"""A page served at another origin calls the gateway from Chromium: allowed, and not."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.service.servers import Served
from tests.web.browser import skip_reason
from tests.web.gateways import RunningGateway

REASON = skip_reason()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}"),
    pytest.mark.xdist_group("browser_and_ray"),
]

GAME_PAGE = """<!doctype html>
<title>a game elsewhere</title>
<p id="out">waiting</p>
<script>
const gateway = new URLSearchParams(location.search).get("gateway");
const out = document.getElementById("out");
async function call(method, request) {
  const response = await fetch(`${gateway}/api/${method}`, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(request),
  });
  return [response.status, response];
}
async function play() {
  const [status, response] = await call("NewGame", {game: "leda", seed: "3"});
  const started = await response.json();
  const seat = started.summary.current_player;
  const [, chosen] = await call("ChooseMove", {
    game: "leda", state_json: started.state_json, seat, preset: "beginner",
    settings: {iterations: 200},
  });
  const move = (await chosen.json()).move.notation;
  const [, stream] = await call("AnalyzeStream", {
    analysis: {game: "leda", state_json: started.state_json, seat, settings: {iterations: 400}},
    every_iterations: 200,
  });
  const events = (await stream.text()).split("\\n\\n").filter((block) => block.trim());
  out.textContent = `ok ${status} ${started.state_json.game} move ${move} ` +
    `events ${events.length} last ${events[events.length - 1].split("\\n")[0]}`;
}
play().catch((error) => { out.textContent = `failed: ${error}`; });
</script>
"""
"""The game's page: a new game, a bot move and an analysis stream, each from the gateway."""


class _PageHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = GAME_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def page_origin() -> Iterator[str]:
    """The origin of a plain HTTP server on a free port serving GAME_PAGE."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _PageHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def sharing(served: Served, page_origin: str) -> Iterator[RunningGateway]:
    """A gateway that lets the game's page call it."""
    running = RunningGateway(served.address, allow_origins=(page_origin,))
    yield running
    running.close()


def _outcome(browser: Any, page_origin: str, gateway_url: str) -> tuple[str, list[str]]:
    """What the game's page wrote, and what Chromium logged, once its calls have ended."""
    context = browser.new_context()
    try:
        page = context.new_page()
        logged: list[str] = []
        page.on("console", lambda message: logged.append(message.text))
        page.goto(f"{page_origin}/?gateway={gateway_url}")
        page.wait_for_function(
            "document.getElementById('out').textContent !== 'waiting'", timeout=60_000
        )
        return page.locator("#out").inner_text(), logged
    finally:
        context.close()


def test_a_page_at_an_allowed_origin_calls_the_gateway(
    browser: Any, page_origin: str, sharing: RunningGateway
) -> None:
    assert page_origin != sharing.url
    written, _ = _outcome(browser, page_origin, sharing.url)
    assert written.startswith("ok 200 leda move "), written
    assert written.endswith("last event: end"), written


def test_a_page_at_another_origin_is_blocked_without_it(
    browser: Any, page_origin: str, gateway: RunningGateway
) -> None:
    written, logged = _outcome(browser, page_origin, gateway.url)
    assert written.startswith("failed: TypeError"), written
    assert any("CORS policy" in line for line in logged), logged

"""Fixtures of the board's tests: a test server and a gateway in front of it, per module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.servers import Served, start_server
from tests.web.gateways import RunningGateway


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    server = start_server()
    yield server
    server.close()


@pytest.fixture(scope="module")
def gateway(served: Served) -> Iterator[RunningGateway]:
    running = RunningGateway(served.address)
    yield running
    running.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for the module's browser tests (they skip before this when it is missing)."""
    from tests.web.browser import launched_chromium

    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Any, gateway: RunningGateway) -> Iterator[Any]:
    """The board at 1280x800, opened on the gateway (a page error fails the test)."""
    from tests.web.board_pages import opened_board

    with opened_board(browser, gateway.url) as opened:
        yield opened

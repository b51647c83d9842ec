"""Fixtures of the board's tests: a test server and a gateway in front of it, per module."""

from __future__ import annotations

from collections.abc import Iterator

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

"""Fixtures of the service tests (helpers live in `servers` and `positions`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.positions import GAME_CASES, GAME_IDS
from tests.service.servers import Served, start_server


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    """The shared test server (two workers)."""
    s = start_server()
    yield s
    s.close()


@pytest.fixture(params=GAME_CASES, ids=GAME_IDS)
def game_case(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """One real game with its options."""
    name, options = request.param
    return name, dict(options)

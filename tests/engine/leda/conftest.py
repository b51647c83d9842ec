"""The engine under test: every LEDA scenario runs on the Python and native engines."""

from __future__ import annotations

import pytest

from tests.engine.leda.builders import Engine
from tests.native.native_game import ENGINE_PARAMS


@pytest.fixture(scope="session", params=ENGINE_PARAMS)
def engine(request: pytest.FixtureRequest) -> Engine:
    """The engine a test runs on (session-scoped: engines are stateless, and hypothesis
    tests may use it)."""
    return Engine(request.param)

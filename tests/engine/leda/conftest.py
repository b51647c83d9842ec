"""The engine under test: every LEDA scenario runs on the Python and native engines."""

from __future__ import annotations

import pytest

from tests.engine.leda.builders import Engine
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

ENGINES = [
    pytest.param("python", id="python"),
    pytest.param(
        "native", id="native", marks=pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
    ),
]


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Engine:
    """The engine a test runs on (session-scoped: engines are stateless, and hypothesis
    tests may use it)."""
    return Engine(request.param)

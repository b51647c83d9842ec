"""The native engines (boardbot_native) behind the Python `Game` protocol, for the rule tests.

`native_game(name)` is the service's `NativeGame` (`boardbot.search.native_game`) of a game, so
the rule tests run on the very adapter that serves requests: states are native `State` handles,
actions the Python engine's values (Legend Raiders: numbers; LEDA: tuples, a shuffle's order a
nested tuple), the binding's errors the engine's by type, path and reason, setups and chance
draws from CPython's stream as the Python engine draws them.

What differs from the Python engine is made explicit there and here:

* `determinize(view, rng)` uses the native stream (its seed drawn from `rng`);
* the native `apply` checks the action is legal (the Python LEDA engine trusts it): an illegal
  one is an `IllegalActionError` here, where the Python engine may apply it anyway (once the
  game is over both refuse with "the game is over");
* there is no native text picture: `render` is the Python engine's, over the native JSON.
"""

from __future__ import annotations

import pytest

from boardbot.search.native_game import NativeGame
from tests.native.parity import boardbot_native

NOT_BUILT = "boardbot_native is not built (run `make native`, which needs a Rust toolchain)"
"""The skip reason of native tests on a machine without the module."""

ENGINE_PARAMS = [
    pytest.param("python", id="python"),
    pytest.param(
        "native", id="native", marks=pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
    ),
]
"""The engines a game's rule tests run on (the `engine` fixtures' params): Python, and the
native twin where it is built."""


def native_game(name: str) -> NativeGame:
    """The service's native twin of the game `name` (RuntimeError when the core is not built)."""
    twin = NativeGame.of(name)
    if twin is None:
        raise RuntimeError(NOT_BUILT)
    return twin

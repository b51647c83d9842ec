"""A bounded slice of the RPC differential (`tests/native/rpc_parity.py`): the same rules calls to
a Python-engine server and a native one, every reply identical byte for byte."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.native.rpc_parity import (
    ServerPair,
    Tally,
    corpus_moves,
    deals,
    fuzz,
)

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)


@pytest.fixture(scope="module")
def pair() -> Iterator[ServerPair]:
    """A Python-engine server and a native one."""
    servers = ServerPair()
    yield servers
    servers.close()


def _assert_same(tally: Tally, least: int) -> None:
    assert tally.total >= least, tally.compared
    assert not tally.differences, "\n".join(tally.differences[:5])


def test_corpus_positions_answer_alike(pair: ServerPair) -> None:
    tally = Tally()
    corpus_moves(pair, tally, limit=40, seed=11)
    _assert_same(tally, 40 * 8)


def test_recorded_deals_play_alike(pair: ServerPair) -> None:
    tally = Tally()
    deals(pair, tally, limit=6, seed=12)
    _assert_same(tally, 6 * 20)
    assert {"NewGame", "LegalMoves", "ApplyMove"} <= set(tally.compared)


def test_fuzzer_requests_answer_alike(pair: ServerPair) -> None:
    tally = Tally()
    fuzz(pair, tally, count=1_500, seed=13)
    _assert_same(tally, 1_500)
    assert tally.refused > 500  # hostile requests: most are refused, and alike

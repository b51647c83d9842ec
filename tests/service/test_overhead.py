"""The overhead benchmark command runs end to end (its figures are not asserted: no timing
assertions in tests)."""

from __future__ import annotations

import orjson
import pytest

from boardbot.cli.main import main
from boardbot.tools.overhead import percentile


def test_percentile() -> None:
    assert percentile([5.0], 0.99) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5) == 3.0
    assert percentile([0.0, 10.0], 0.99) == pytest.approx(9.9)


@pytest.mark.parametrize("sent", [[], ["--view"]], ids=["full-state", "seat-view"])
def test_overhead_command(capsys: pytest.CaptureFixture[str], sent: list[str]) -> None:
    argv = ["overhead", "--game", "legend_raiders", "--players", "2", "--iterations", "5",
            "--requests", "3", "--warmup", "1", "--json", *sent]
    assert main(argv) == 0
    figures = orjson.loads(capsys.readouterr().out)
    assert figures["requests"] == 3 and figures["iterations"] == 5
    assert figures["latency_p50_ms"] > 0 and figures["search_p50_ms"] > 0
    assert "overhead_p50_ms" in figures and "outside_search_p99_ms" in figures

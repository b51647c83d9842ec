"""Progress lines: done / total, elapsed, estimate, at most one line per interval."""

from __future__ import annotations

import io

from boardbot.tools.progress import Progress, clock_text


def test_lines_are_throttled_and_estimate_the_rest() -> None:
    now = [100.0]
    stream = io.StringIO()
    progress = Progress(10, done=2, every=5.0, stream=stream, clock=lambda: now[0])
    now[0] = 102.0
    progress.advance("a")  # first line: always printed
    now[0] = 104.0
    progress.advance("b")  # 2 s after the last line: not yet
    now[0] = 108.0
    progress.advance("c")
    assert stream.getvalue().splitlines() == [
        "ladder: 3/10 games, 0:00:02 elapsed, about 0:00:14 left (a)",
        "ladder: 5/10 games, 0:00:08 elapsed, about 0:00:13 left (c)",
    ]
    for _ in range(5):
        progress.advance()
    assert stream.getvalue().splitlines()[-1].startswith("ladder: 10/10 games")
    assert clock_text(3725.4) == "1:02:05"

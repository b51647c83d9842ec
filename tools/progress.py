"""Progress lines for long runs: done / total, elapsed time and an estimate of what is left."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def clock_text(seconds: float) -> str:
    """Seconds as H:MM:SS."""
    whole = round(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class Progress:
    """Counts finished items and prints a line at most every `every` seconds (and the last)."""

    def __init__(
        self,
        total: int,
        done: int = 0,
        every: float = 1.0,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        label: str = "ladder",
    ) -> None:
        self.total = total
        self.done = done
        self.start_done = done
        self.every = every
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.label = label
        self.started = clock()
        self.last_line: float | None = None

    def line(self, note: str = "") -> str:
        """The progress line as it stands."""
        elapsed = self.clock() - self.started
        finished = self.done - self.start_done
        left = self.total - self.done
        estimate = clock_text(elapsed / finished * left) if finished else "?"
        text = (f"{self.label}: {self.done}/{self.total} games, {clock_text(elapsed)} elapsed, "
                f"about {estimate} left")
        return f"{text} ({note})" if note else text

    def advance(self, note: str = "") -> None:
        """Count one finished item and print the line when it is due."""
        self.done += 1
        now = self.clock()
        due = self.last_line is None or now - self.last_line >= self.every
        if due or self.done >= self.total:
            print(self.line(note), file=self.stream, flush=True)
            self.last_line = now

"""The losses of many reviewed games per player name: how the judgement thresholds are set
(docs/review.md, "Thresholds")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from boardbot.jobs.review_judgement import (
    BLUNDER,
    FORCED,
    INACCURACY,
    MISTAKE,
    move_accuracy,
)
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb

QUANTILES = (0.5, 0.75, 0.9, 0.95)


@dataclass
class PlayerLosses:
    """The judged, not forced, moves of one player name."""

    losses: list[float] = field(default_factory=list)
    judgements: list[str] = field(default_factory=list)


@dataclass
class LossTable:
    """Losses gathered per player name over several reviews."""

    players: dict[str, PlayerLosses] = field(default_factory=dict)

    def add(self, names: Sequence[str], positions: Sequence[pb.PositionReview]) -> None:
        """Add one review's judged moves, by the name of the seat that played them."""
        for p in positions:
            if p.judgement in ("", FORCED):
                continue
            name = names[p.seat] if p.seat < len(names) else f"seat {p.seat}"
            entry = self.players.setdefault(name, PlayerLosses())
            entry.losses.append(p.loss)
            entry.judgements.append(p.judgement)

    def text(self) -> str:
        """A table: moves, mean loss, quantiles, accuracy and the share of each class."""
        head = "".join(f"{'q' + format(q * 100, 'g'):>7}" for q in QUANTILES)
        lines = [
            f"{'player':<12}{'moves':>6}{'mean':>7}{head}{'acc.':>7}"
            f"{'inacc.':>8}{'mistake':>8}{'blunder':>8}"
        ]
        for name, entry in sorted(self.players.items()):
            losses = sorted(entry.losses)
            n = len(losses)
            quantiles = "".join(f"{losses[min(n - 1, int(q * n))]:>7.3f}" for q in QUANTILES)
            accuracy = sum(move_accuracy(x) for x in losses) / n
            shares = "".join(
                f"{entry.judgements.count(j) / n:>8.1%}" for j in (INACCURACY, MISTAKE, BLUNDER)
            )
            lines.append(
                f"{name:<12}{n:>6}{sum(losses) / n:>7.3f}{quantiles}{accuracy:>6.1f}%{shares}"
            )
        return "\n".join(lines)

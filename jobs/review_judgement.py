"""How a game review judges a move: the classes of a loss in expected return, and accuracy.

A move's loss is the mover's expected return of the best move less that of the move played
(both in [0, 1], from the mover's view; docs/review.md). The thresholds are per game, set from
the losses measured on bot games of known strength (docs/review.md, "Thresholds").
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

BEST = "best"
GOOD = "good"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
FORCED = "forced"
JUDGEMENTS = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER, FORCED)
"""Every judgement a reviewed move can get (the wire's `PositionReview.judgement`)."""


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss of each class (an inaccuracy < a mistake < a blunder)."""

    inaccuracy: float
    mistake: float
    blunder: float


GAME_THRESHOLDS: dict[str, Thresholds] = {
    "leda": Thresholds(inaccuracy=0.05, mistake=0.08, blunder=0.15),
    "legend_raiders": Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.15),
}
"""Per game, from the losses of bots of known strength reviewed at 200 ms a position
(docs/review.md, "Thresholds"): an inaccuracy is a loss the strongest bot reaches on about one
move in twenty (the reviewer's own noise included), a mistake one it rarely reaches while the
uniformly random bot does four to nine times as often, a blunder the far tail."""

DEFAULT_THRESHOLDS = Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.15)
"""For a game without its own measurement."""


def thresholds_for(game: str) -> Thresholds:
    """The thresholds of `game` (the default ones for a game not measured)."""
    return GAME_THRESHOLDS.get(game, DEFAULT_THRESHOLDS)


def judge(loss: float, played_is_best: bool, forced: bool, thresholds: Thresholds) -> str:
    """The class of a move: forced (one legal move), best (the search's best move), else by
    its loss: good below the inaccuracy threshold, then inaccuracy, mistake, blunder."""
    if forced:
        return FORCED
    if played_is_best:
        return BEST
    if loss >= thresholds.blunder:
        return BLUNDER
    if loss >= thresholds.mistake:
        return MISTAKE
    if loss >= thresholds.inaccuracy:
        return INACCURACY
    return GOOD


def move_accuracy(loss: float) -> float:
    """A move's accuracy in percent from its loss: lichess's curve of the win-percentage
    drop, `103.1668 · exp(-0.04354 · 100 · loss) - 3.1669`, clipped to [0, 100]: 100 for no
    loss, about 64 for a loss of 0.10, about 40 for 0.20."""
    value = 103.1668 * math.exp(-0.04354 * 100.0 * max(0.0, loss)) - 3.1669
    return min(100.0, max(0.0, value))


@dataclass(frozen=True)
class SeatReview:
    """One seat's figures over the moves reviewed (the wire's SeatReview)."""

    seat: int
    moves: int
    """Decisions of the seat reviewed, forced ones included."""
    average_loss: float
    """Mean loss over its moves that were not forced (0 when every one was)."""
    accuracy: float
    """Mean `move_accuracy` over the same moves (100 when every one was forced)."""
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class JudgedMove:
    """What the summary needs of one reviewed move."""

    seat: int
    loss: float
    judgement: str


def summarise(seats: Iterable[int], moves: Iterable[JudgedMove]) -> tuple[SeatReview, ...]:
    """The figures of each of `seats` over its `moves` (forced moves counted, not averaged)."""
    listed = list(moves)
    reviews = []
    for seat in seats:
        own = [m for m in listed if m.seat == seat]
        chosen = [m for m in own if m.judgement != FORCED]
        losses = [m.loss for m in chosen]
        reviews.append(
            SeatReview(
                seat=seat,
                moves=len(own),
                average_loss=sum(losses) / len(losses) if losses else 0.0,
                accuracy=(
                    sum(move_accuracy(x) for x in losses) / len(losses) if losses else 100.0
                ),
                inaccuracies=sum(m.judgement == INACCURACY for m in own),
                mistakes=sum(m.judgement == MISTAKE for m in own),
                blunders=sum(m.judgement == BLUNDER for m in own),
            )
        )
    return tuple(reviews)

"""The ladder's schedule: which games a round robin of bots plays, in an interleaved order.

A table is a set of bots that play a match together: every unordered pair of bots for two
players, every combination of k bots for k players. Each table plays the same match
`run_match` would (`match_job`: seats rotated game by game, each deal played from every seat,
option sets cycled every full rotation), with one seed for the whole ladder, so deal d is the
same deal at every table. The order runs deal after deal and, within a deal, table after table:
a run stopped early has played about as many deals at every table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from boardbot.engine.api import Game
from boardbot.search.engines import Engine
from boardbot.tools.match import GameJob, match_job


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the ladder: its table and its index in that table's match."""

    table: tuple[str, ...]
    """The bots at the table, in the order of the table's match (seat 0 of game 0 first)."""
    index: int
    deal: int
    """The deal the game replays (`index // players`), shared by every table."""
    job: GameJob

    @property
    def key(self) -> tuple[tuple[str, ...], int]:
        """What identifies the game in the games file: table and index."""
        return self.table, self.index


def tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every combination of `players` bots, in the order of the bot list."""
    return list(combinations(bots, players))


def build_schedule(
    game: Game,
    bots: Sequence[str],
    players: int,
    games_per_table: int,
    seed: int,
    option_sets: Sequence[Mapping[str, Any]],
    engine: Engine = Engine.AUTO,
) -> list[ScheduledGame]:
    """All games of the ladder, deal by deal, each deal at every table in turn."""
    scheduled = []
    deals = -(-games_per_table // players)
    for deal in range(deals):
        for table in tables(bots, players):
            for index in range(deal * players, min((deal + 1) * players, games_per_table)):
                job = match_job(game, table, index, seed, option_sets, True, engine)
                scheduled.append(ScheduledGame(table, index, deal, job))
    return scheduled

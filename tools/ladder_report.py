"""The ladder's report: `ratings.json`, `ratings.md` and the ratings table for the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from boardbot.tools.ratings import LadderRatings

JSON_FILE = "ratings.json"
MARKDOWN_FILE = "ratings.md"


def ratings_table(ratings: LadderRatings) -> list[str]:
    """Markdown rows: bot, Elo, 95% interval, games."""
    rows = ["| bot | Elo | 95% interval | games |", "|---|---:|---|---:|"]
    for r in ratings.ratings:
        rows.append(f"| `{r.bot}` | {r.elo:.0f} | [{r.low:.0f}, {r.high:.0f}] | {r.games} |")
    return rows


def steps_table(ratings: LadderRatings) -> list[str]:
    """Markdown rows: each adjacent step of the bot order with its Elo difference."""
    rows = ["| step | Elo difference | 95% interval |", "|---|---:|---|"]
    for s in ratings.steps:
        span = f"[{s.low:+.0f}, {s.high:+.0f}]"
        rows.append(f"| `{s.upper}` over `{s.lower}` | {s.difference:+.0f} | {span} |")
    return rows


def win_rate_table(ratings: LadderRatings) -> list[str]:
    """Markdown rows: the row bot's win rate against the column bot, with the games played."""
    bots = ratings.bots
    rows = ["| row beats column | " + " | ".join(f"`{b}`" for b in bots) + " |",
            "|---|" + "---:|" * len(bots)]
    for i, bot in enumerate(bots):
        cells = []
        for j in range(len(bots)):
            games = ratings.meetings[i][j]
            cells.append("—" if i == j or not games else
                         f"{ratings.wins[i][j] / games:.2f} ({games})")
        rows.append(f"| `{bot}` | " + " | ".join(cells) + " |")
    return rows


def markdown(ratings: LadderRatings, title: str) -> str:
    """The whole markdown report."""
    lines = [
        f"# {title}",
        "",
        f"{ratings.games} games over {ratings.deals} deals; model {ratings.model} "
        f"(prior: {ratings.prior_wins:g} virtual win each way per pair); Elo anchored at "
        f"`{ratings.anchor}` = 0; 95% percentile intervals from {ratings.bootstrap} bootstrap "
        f"resamples of whole deals (seed {ratings.bootstrap_seed}).",
        *(
            [
                "",
                f"{ratings.unfinished} game(s) stopped unfinished at the step limit, left out "
                "of the fit (the bots never ended them).",
            ]
            if ratings.unfinished
            else []
        ),
        "",
        *ratings_table(ratings),
        "",
        "Adjacent steps in the given bot order:",
        "",
        *steps_table(ratings),
        "",
        "Win rate of the row bot against the column bot (finished ahead, ties half), "
        "games in brackets:",
        "",
        *win_rate_table(ratings),
        "",
    ]
    return "\n".join(lines)


def write_report(
    ratings: LadderRatings, directory: Path, title: str, about: Mapping[str, Any]
) -> list[Path]:
    """Write `ratings.json` (`about`, e.g. game and players, then the ratings) and
    `ratings.md` into `directory`; return their paths."""
    json_path, md_path = directory / JSON_FILE, directory / MARKDOWN_FILE
    document = {**about, **ratings.to_json()}
    json_path.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")
    md_path.write_text(markdown(ratings, title))
    return [json_path, md_path]


def terminal_table(ratings: LadderRatings) -> str:
    """The ratings as aligned text for stdout."""
    width = max(len("bot"), *(len(r.bot) for r in ratings.ratings)) + 2
    lines = [f"{'bot':<{width}}{'Elo':>7}{'95% interval':>18}{'games':>8}"]
    for r in ratings.ratings:
        span = f"[{r.low:.0f}, {r.high:.0f}]"
        lines.append(f"{r.bot:<{width}}{r.elo:>7.0f}{span:>18}{r.games:>8}")
    return "\n".join(lines)

"""The corpus of mid-game states the load tests send: one JSON file per game setup."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
"""Where `record_corpus.py` writes the corpus and the load tests read it."""


@dataclass(frozen=True)
class Setup:
    """A game and its options, e.g. Legend Raiders with three players."""

    label: str
    game: str
    options: dict[str, Any]


SETUPS: tuple[Setup, ...] = (
    Setup("leda", "leda", {}),
    Setup("legend_raiders-2p", "legend_raiders", {"players": 2}),
    Setup("legend_raiders-3p", "legend_raiders", {"players": 3}),
    Setup("legend_raiders-4p", "legend_raiders", {"players": 4}),
)
"""Every game setup the corpus covers."""


@dataclass(frozen=True)
class Position:
    """One recorded mid-game state, ready to send: the seat to move and the state JSON bytes."""

    setup: str
    game: str
    options: dict[str, Any]
    seat: int
    ply: int
    game_seed: int
    state_json: bytes


def position_to_json(position: Position) -> dict[str, Any]:
    """The JSON object stored for `position`."""
    return {
        "setup": position.setup,
        "game": position.game,
        "options": position.options,
        "seat": position.seat,
        "ply": position.ply,
        "game_seed": position.game_seed,
        "state": json.loads(position.state_json),
    }


def position_from_json(data: dict[str, Any], where: str) -> Position:
    """A position read back from its stored JSON object; ValueError naming `where` if broken."""
    try:
        return Position(
            setup=str(data["setup"]),
            game=str(data["game"]),
            options=dict(data["options"]),
            seat=int(data["seat"]),
            ply=int(data["ply"]),
            game_seed=int(data["game_seed"]),
            state_json=json.dumps(data["state"], separators=(",", ":")).encode(),
        )
    except (KeyError, TypeError, ValueError) as error:
        kind = type(error).__name__
        raise ValueError(f"{where}: not a corpus position ({kind}: {error})") from None


def corpus_file(directory: Path, setup: str) -> Path:
    """The file holding the positions of `setup`."""
    return directory / f"{setup}.json"


def write_positions(directory: Path, setup: str, positions: list[Position]) -> Path:
    """Store the positions of one setup; returns the file written."""
    directory.mkdir(parents=True, exist_ok=True)
    path = corpus_file(directory, setup)
    body = [position_to_json(p) for p in positions]
    path.write_text(json.dumps(body, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def load_corpus(directory: Path = CORPUS_DIR) -> dict[str, list[Position]]:
    """Every stored position by setup label; ValueError if a setup is missing or empty."""
    corpus: dict[str, list[Position]] = {}
    for setup in SETUPS:
        path = corpus_file(directory, setup.label)
        if not path.is_file():
            raise ValueError(f"{path}: missing; run `python -m loadtest.record_corpus`")
        items = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(items, list) or not items:
            raise ValueError(f"{path}: expected a non-empty JSON list of positions")
        corpus[setup.label] = [
            position_from_json(item, f"{path}[{i}]") for i, item in enumerate(items)
        ]
    return corpus

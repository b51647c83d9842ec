"""The recorded corpus: valid mid-game states with the seat to move, small, reproducible."""

from __future__ import annotations

import json

from boardbot.engine import get_game
from loadtest.corpus import CORPUS_DIR, SETUPS, load_corpus
from loadtest.record_corpus import record_setup


def test_every_position_decodes_with_its_seat_to_move() -> None:
    corpus = load_corpus()
    assert set(corpus) == {s.label for s in SETUPS}
    for label, positions in corpus.items():
        assert len(positions) >= 12, label
        for p in positions:
            game = get_game(p.game)
            state = game.state_from_json(json.loads(p.state_json))
            assert game.current_player(state) == p.seat, (label, p.game_seed, p.ply)
            assert len(game.legal_actions(state)) >= 2, (label, p.game_seed, p.ply)
            assert game.num_players(state) == p.options.get("players", 2)


def test_corpus_stays_small() -> None:
    total = sum(path.stat().st_size for path in CORPUS_DIR.glob("*.json"))
    assert total < 1024 * 1024


def test_recording_is_reproducible_from_its_seed() -> None:
    setup = SETUPS[1]
    first = record_setup(setup, games=1, per_game=2, first_seed=5, random_share=0.25)
    again = record_setup(setup, games=1, per_game=2, first_seed=5, random_share=0.25)
    assert first == again
    assert len(first) == 2 and first[0].ply < first[1].ply

"""A game record replays identically on the native twin, and records the same moves."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.engine.record import RecordBuilder, RecordedMove, RecordError, replay
from boardbot.search.native_game import NativeGame
from tests.engine.records import random_record
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)


@pytest.mark.parametrize(("name", "options"), [
    ("leda", {"clans": ["pandas", "scorpions"]}),
    ("legend_raiders", {"players": 2}),
    ("legend_raiders", {"players": 4, "variant": "diceless"}),
])
def test_a_record_replays_identically_on_both_engines(name: str, options: dict[str, Any]) -> None:
    python = get_game(name)
    native = NativeGame.of(name)
    assert native is not None
    record, _ = random_record(name, options, 31)
    on_python, on_native = replay(python, record), replay(native, record)
    assert [python.state_to_json(p.state) for p in on_python] == [
        native.state_to_json(p.state) for p in on_native]
    # Built on the native engine, the record says the same moves in the same words.
    builder = RecordBuilder(native, on_native[0].state, record.options, record.seed,
                            record.players)
    for position in on_native[:-1]:
        assert position.move is not None
        builder.add(position.state, position.action, position.move.clock_ms,
                    position.move.comment)
    rebuilt = builder.finish(on_native[-1].state, record.date, record.event, record.comment)
    assert rebuilt == record


def test_a_bad_move_is_refused_at_the_same_path_on_both_engines() -> None:
    record, _ = random_record("legend_raiders", {"players": 3}, 8, steps=40)
    moves = list(record.moves)
    index = next(i for i, m in enumerate(moves) if m.seat >= 0)
    moves[index] = RecordedMove(moves[index].seat, {"type": "complete", "tile": "olympus"})
    bad = dataclasses.replace(record, moves=tuple(moves))
    native = NativeGame.of("legend_raiders")
    assert native is not None
    paths = []
    for game in (get_game("legend_raiders"), native):
        with pytest.raises(RecordError) as caught:
            replay(game, bad)
        paths.append(caught.value.json_path)
    assert paths == [f"$.moves[{index}].move"] * 2

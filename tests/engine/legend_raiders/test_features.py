"""Features of a seat's view and of its decisions: sizes, meaning, and that a seat's features
depend only on its view (every world of the view gives the same vector)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardbot.engine import CHANCE, TERMINAL
from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders import features as F
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.heuristics import estimate
from boardbot.engine.legend_raiders.state import ACTION, COMPLETE, ROLL
from tests.engine.legend_raiders.builders import GAME, Engine, P, Table, build, tile, tools

CONFIGS = [(players, variant) for players in (2, 3, 4) for variant in ("dice", "diceless")]


def f32(x: float) -> float:
    """`x` as the native engine stores it."""
    return float(np.float32(x))


def seat_at(seat: int, k: int) -> int:
    """Offset of block `k` (seat `(viewer + k) % P`) in a view vector."""
    return F.GLOBAL_SIZE + k * F.SEAT_SIZE + seat


def features(engine: Engine, state: Any, seat: int) -> list[float]:
    """The engine's features as f32 values (the native ones already are)."""
    return [f32(x) for x in engine.game.features(state, seat)]


def playout(engine: Engine, players: int, variant: str, seed: int) -> list[Any]:
    """Every state of one seeded random game, the last one included."""
    rng = random.Random(seed)
    game = engine.game
    state = game.new_state({"players": players, "variant": variant}, seed)
    states = [state]
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            return states
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        state = game.apply(state, action)
        states.append(state)


HQ = ("lancea-longini", "mater", "pandora", "babylon")


def _table_state(engine: Engine) -> Any:
    return engine.build(
        [
            P(1, tools=tools(rope=2, map=1), prepared=("horus",), completed=("atlantis",),
              points=5, known=("die-1",), blind=("mission-book-book", "discovery-book-2")),
            P(2, torch=False, blind=("mission-place-place",)),
            P(3, known=("mission-idol-idol",), blind=("die-3",)),
        ],
        Table(hq=HQ),
        seat=1,
        phase=ACTION,
        die=2,
        coin_bonus=1,
    )


def test_the_sizes_and_version(engine: Engine) -> None:
    game = engine.game
    assert [game.feature_size(n) for n in (2, 3, 4)] == [317, 376, 435]
    assert game.action_feature_size() == 228 == F.ACTION_FEATURE_SIZE
    assert game.features_version == 1 == F.FEATURES_VERSION
    assert F.GLOBAL_SIZE == 199 and F.SEAT_SIZE == 59
    for n in (2, 3, 4):
        state = game.new_state({"players": n}, 3)
        for seat in range(n):
            assert len(game.features(state, seat)) == game.feature_size(n)


def test_a_seat_s_holdings_appear_in_its_rotated_block(engine: Engine) -> None:
    state = _table_state(engine)
    rope, map_ = C.tool_ids.index("rope"), C.tool_ids.index("map")
    for viewer in range(3):
        x = features(engine, state, viewer)
        k = (0 - viewer) % 3  # seat 0's block in the viewer's vector
        assert x[seat_at(F.POINTS_AT, k)] == f32(5 / 50)
        assert x[seat_at(F.TOOLS_AT + rope, k)] == f32(2 / 6)
        assert x[seat_at(F.TOOLS_AT + map_, k)] == f32(1 / 6)
        assert x[seat_at(F.TOOLS_TOTAL_AT, k)] == f32(3 / 6)
        assert x[seat_at(F.FAVOURITE_AT + C.board_favourite[0], k)] == 1.0
        assert x[seat_at(F.PREPARED_AT, k)] == f32(1 / 3)
        assert x[seat_at(F.COMPLETED_AT, k)] == f32(1 / 6)
        place = C.symbols.index("place")
        assert x[seat_at(F.COMPLETED_SYMBOLS_AT + place, k)] == f32(1 / 6)
        # Coins: two empty discovery spaces, the uncovered 6th space and the Place's back.
        assert x[seat_at(F.COINS_AT, k)] == f32(4 / 10)
        assert x[seat_at(F.BLIND_AT, k)] == f32(2 / 8)
        assert x[seat_at(F.DIE_CARDS_AT, k)] == f32(1 / 4)  # the known Die card, for everyone
        assert x[seat_at(F.TORCH_AT, k)] == 1.0
        assert x[seat_at(F.TORCH_AT, (1 - viewer) % 3)] == 0.0  # seat 1's torch is out
        assert x[seat_at(F.POINTS_AT, (1 - viewer) % 3)] == 0.0
        # Seat to play (seat 1) and first player (seat 0), relative to the viewer.
        assert x[F.CURRENT_AT + (1 - viewer) % 3] == 1.0
        assert x[F.FIRST_AT + (0 - viewer) % 3] == 1.0
        assert sum(x[F.CURRENT_AT:F.CURRENT_AT + 4]) == 1.0
        assert x[F.PHASE_AT + ACTION] == 1.0 and sum(x[F.PHASE_AT:F.PHASE_AT + 13]) == 1.0
        assert x[F.DIE_AT + 2] == 1.0 and x[F.DICE_AT] == 1.0
        assert x[F.COIN_BONUS_AT] == f32(1 / 3)
        assert x[F.PLAYERS_AT + 1] == 1.0


def test_blind_cards_show_to_their_owner_only(engine: Engine) -> None:
    state = _table_state(engine)
    book_book = F.MISSIONS.index(C.card_ids.index("mission-book-book"))
    idol_idol = F.MISSIONS.index(C.card_ids.index("mission-idol-idol"))
    mine = features(engine, state, 0)
    theirs = features(engine, state, 1)
    # Seat 0 sees its blind Mission in its own block; seat 1 sees only seat 0's card count.
    assert mine[seat_at(F.MISSION_CARDS_AT + book_book, 0)] == 1.0
    assert theirs[seat_at(F.MISSION_CARDS_AT + book_book, 2)] == 0.0
    assert theirs[F.UNSEEN_AT + 3 + book_book] == 1.0
    assert mine[F.UNSEEN_AT + 3 + book_book] == 0.0
    # A Mission taken from the row is public.
    assert mine[seat_at(F.MISSION_CARDS_AT + idol_idol, 2)] == 1.0
    assert theirs[seat_at(F.MISSION_CARDS_AT + idol_idol, 1)] == 1.0
    # Seat 0's Discovery card counts for its own Missions only in its own eyes.
    book = C.symbols.index("book")
    assert mine[seat_at(F.MISSION_SYMBOLS_AT + book, 0)] == f32(1 / 6)
    assert theirs[seat_at(F.MISSION_SYMBOLS_AT + book, 2)] == 0.0
    # The viewer's estimate is the heuristics' estimate of its player.
    p0 = engine.py(state).players[0]
    assert mine[seat_at(F.ESTIMATE_AT, 0)] == pytest.approx(estimate(p0) / 60, abs=1e-6)


def test_the_headquarters_and_the_row_appear_by_column(engine: Engine) -> None:
    state = _table_state(engine)
    x = features(engine, state, 0)
    hq_tools = Table().hq_tools
    for c, name in enumerate(HQ):
        at = F.HQ_AT + c * F.HQ_SIZE
        i = tile(name)
        assert x[at] == 1.0
        assert x[at + 1 + C.tile_symbol[i]] == 1.0
        assert x[at + F.HQ_COST:at + F.HQ_COINS] == [f32(n / 2) for n in C.tile_cost[i]]
        assert x[at + F.HQ_COINS] == float(C.tile_coins[i])
        assert x[at + F.HQ_TOOLS:at + F.HQ_SIZE] == [f32(n / 2) for n in hq_tools[c]]
    # Row slot 0 is the 8-point Mission book-weapon-idol-treasure; seat 0 holds a book (its
    # blind Discovery card) and an idol (prepared Horus) of it.
    at = F.ROW_AT
    assert x[at] == 1.0 and x[at + 3] == 1.0  # a Mission
    assert x[at + F.ROW_POINTS] == 1.0
    assert x[at + F.ROW_SHARE] == f32(2 / 4)


def test_features_follow_the_game(engine: Engine) -> None:
    states = playout(engine, 3, "dice", seed=11)
    vectors = [tuple(features(engine, s, 0)) for s in states]
    assert len(set(vectors)) > len(states) // 3
    points = [v[seat_at(F.POINTS_AT, 0)] for v in vectors]
    completed = [v[seat_at(F.COMPLETED_AT, 0)] for v in vectors]
    assert points[0] == 0.0 and max(points) > 0.0
    assert completed[0] == 0.0 and max(completed) > 0.0
    assert vectors[-1][F.PHASE_AT + 12] == 1.0  # over
    assert vectors[0][F.PHASE_AT + ROLL] == 1.0
    for v in vectors:
        assert all(0.0 <= x <= 2.0 for x in v)


def test_action_features(engine: Engine) -> None:
    game = engine.game
    state = engine.build(
        [P(1, tools=tools(compass=1, map=1, rope=1), prepared=("horus", "excalibur"),
           known=("die-1",)), P(2)],
        Table(hq=HQ),
        phase=COMPLETE,
        die=0,
    )
    legal = list(game.legal_actions(state))
    horus = tile("horus")
    plain = A.complete_action(horus)
    assert plain in legal
    assert tuple(game.action_features(state, plain)) == (
        plain, F.KIND_AT + A.COMPLETE, F.COMPLETE_SYMBOL_AT + C.tile_symbol[horus]
    )
    torch = A.complete_action(horus, 1 + C.tool_ids.index("compass"))
    assert torch in legal
    assert game.action_features(state, torch)[-1] == F.COMPLETE_TORCH_AT
    stop = A.STOP_ACTION
    assert tuple(game.action_features(state, stop)) == (stop, F.KIND_AT + A.STOP)
    # Chance outcomes: only their kind; ids outside the numbering: nothing.
    assert tuple(game.action_features(state, A.ROLL_BASE + 1)) == (F.KIND_AT + A.ROLL_FACE,)
    assert tuple(game.action_features(state, A.CARD_BASE)) == (F.KIND_AT + A.REVEAL_CARD,)
    if not engine.native:  # the binding refuses an id outside the numbering itself
        assert tuple(game.action_features(state, A.N_ACTIONS)) == ()
    # Prepare: the column's tile symbol; the Die card: the face, by variant.
    start = engine.build([P(1, known=("die-1",)), P(2)], phase=ACTION, dice=False)
    pandora = tile("pandora")
    assert F.PREPARE_SYMBOL_AT + C.tile_symbol[pandora] in game.action_features(start, 2)
    assert F.DIE_EFFECT_AT + 3 + 0 in game.action_features(start, A.DIE_BASE + 0)
    assert F.TAKE_KIND_AT + 2 in game.action_features(start, A.ROW_BASE + 0)  # a Mission


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_every_world_of_a_view_has_the_view_s_features(
    engine: Engine, players: int, variant: str
) -> None:
    game = engine.game
    rng = random.Random(players * 10 + len(variant))
    differed = 0
    for index, state in enumerate(playout(engine, players, variant, seed=players + 40)):
        if index % 3:
            continue
        current = game.current_player(state)
        for seat in range(players):
            view = game.observe(state, seat)
            one = game.determinize(view, random.Random(rng.getrandbits(32)))
            two = game.determinize(view, random.Random(rng.getrandbits(32)))
            differed += one != two
            truth = game.features(state, seat)
            where = f"state {index}, seat {seat}"
            assert game.features(one, seat) == truth, where
            assert game.features(two, seat) == truth, where
            if current == seat:
                for action in game.legal_actions(state):
                    expected = game.action_features(state, action)
                    assert game.action_features(one, action) == expected, where
                    assert game.action_features(two, action) == expected, where
    assert differed > 10, differed


def test_the_python_features_are_python_floats() -> None:
    state = build([P(1), P(2)])
    values = GAME.features(state, 0)
    assert all(type(x) is float for x in values)
    assert all(type(i) is int for i in GAME.action_features(state, 0))


def _tables(doc: str) -> list[list[tuple[int, int]]]:
    """The (offset, size) rows of every layout table of a docstring, table by table."""
    tables: list[list[tuple[int, int]]] = []
    rows: list[tuple[int, int]] = []
    for line in [*doc.splitlines(), ""]:
        cells = [c.strip() for c in line.split("|")[1:3]]
        if line.startswith("| ") and all(c.isdigit() for c in cells):
            rows.append((int(cells[0]), int(cells[1])))
        elif rows:
            tables.append(rows)
            rows = []
    return tables


def test_the_documented_layout_is_the_layout() -> None:
    tables = _tables(F.__doc__ or "")
    sizes = [F.GLOBAL_SIZE, F.HQ_SIZE, F.ROW_SIZE, F.SEAT_SIZE, F.ACTION_FEATURE_SIZE]
    assert len(tables) == len(sizes)
    for rows, size in zip(tables, sizes, strict=True):
        at = 0
        for offset, width in rows:
            assert offset == at, rows
            at += width
        assert at == size, rows
    named = [(F.HQ_AT, 42), (F.ROW_AT, 112), (F.UNSEEN_AT, 178), (F.REMOVED_AT, 197),
             (F.MISSION_CARDS_AT, 42), (F.ESTIMATE_AT, 58), (F.DIE_EFFECT_AT, 222),
             (F.HQ_TOOLS, 11), (F.ROW_SHARE, 15)]
    assert [at for at, _ in named] == [doc for _, doc in named]


def test_the_native_module_documents_the_same_layout() -> None:
    root = Path(__file__).resolve().parents[3]
    source = (root / "core/rules/src/legend_raiders/features.rs").read_text(encoding="utf-8")
    native_doc = [line[4:] if line != "//!" else "" for line in source.splitlines()
                  if line.startswith("//!")]
    python_doc = (F.__doc__ or "").strip().splitlines()
    assert native_doc[1:] == python_doc[1:]

"""Game records on the board: the shown game exported as a record that the rules replay, and a
record imported (pasted or picked as a file) giving back the same game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.engine.record import record_from_json, replay
from tests.web.browser import skip_reason

REASON = skip_reason()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"browser tests skipped: {REASON}"),
    pytest.mark.xdist_group("browser_and_ray"),
]

if REASON is None:
    from playwright.sync_api import Page, expect

    from tests.web.board_steps import new_game, play_first_moves, tab


def exported(page: Page, folder: Path) -> tuple[dict[str, Any], Path]:
    """The record the Export button downloads, and the file it was saved as."""
    tab(page, "history")
    with page.expect_download() as download:
        page.get_by_test_id("record-export").click()
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    record: dict[str, Any] = json.loads(path.read_text())
    return record, path


def shown_game(page: Page) -> list[Any]:
    """Each position of the page's history: its state, the move that led to it and the chance
    outcomes that followed (those of the setup are part of the first state)."""
    found: list[Any] = page.evaluate(
        "() => window.boardbot.history.map((h, i) => [h.state, h.move?.notation ?? null,"
        " i ? h.events : []])"
    )
    return found


@pytest.mark.parametrize(("game", "players", "moves"), [("legend_raiders", 3, 9), ("leda", 2, 8)])
def test_an_exported_record_replays_to_the_shown_game_and_imports_back(
    page: Page, tmp_path: Path, game: str, players: int, moves: int
) -> None:
    new_game(page, game, players=players, seed=6)
    play_first_moves(page, moves)
    before = shown_game(page)
    record, path = exported(page, tmp_path)
    assert record["format"] == "boardbot-record" and record["version"] == 1
    assert record["game"] == game and record["seed"] == 6
    assert record["options"]["players"] == players
    # The rules replay it, chance outcomes included, to the position the page shows.
    rules = get_game(game)
    positions = replay(rules, record_from_json(record))
    assert rules.state_to_json(positions[-1].state) == before[-1][0]
    decisions = [m for m in record["moves"] if m["seat"] >= 0]
    assert [m["notation"] for m in decisions] == [h[1] for h in before[1:]]
    if game == "legend_raiders":
        assert any(m["seat"] == -1 for m in record["moves"])  # the dice and draws are in it
    # Pasted into another game's page: the same game again.
    new_game(page, "leda", seed=9)
    tab(page, "history")
    page.locator("summary", has_text="Paste a record").click()
    page.get_by_test_id("record-text").fill(json.dumps(record))
    page.get_by_test_id("record-load").click()
    expect(page.get_by_test_id("ply")).to_have_text(f"move {moves} of {moves}")
    assert shown_game(page) == before
    # Picked as a file, then exported again: the same record.
    new_game(page, "leda", seed=9)
    tab(page, "history")
    page.get_by_test_id("record-file").set_input_files(str(path))
    expect(page.get_by_test_id("ply")).to_have_text(f"move {moves} of {moves}")
    assert shown_game(page) == before
    again, _ = exported(page, tmp_path)
    assert again["moves"] == record["moves"]
    assert again["initial_state"] == record["initial_state"]


def test_a_record_with_an_illegal_move_names_its_place(page: Page, tmp_path: Path) -> None:
    new_game(page, "legend_raiders", seed=6)
    play_first_moves(page, 4)
    record, _ = exported(page, tmp_path)
    decision = next(i for i, m in enumerate(record["moves"]) if m["seat"] >= 0)
    record["moves"][decision]["move"] = {"type": "no such move"}
    page.locator("summary", has_text="Paste a record").click()
    page.get_by_test_id("record-text").fill(json.dumps(record))
    page.get_by_test_id("record-load").click()
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(f"moves[{decision}].move")
    page.get_by_test_id("record-text").fill('{"format": "boardbot-record", "version": 2}')
    page.get_by_test_id("record-load").click()
    expect(error).to_contain_text("version")


def test_a_game_with_chance_outcomes_picked_and_rolled_on_the_board(
    page: Page, tmp_path: Path
) -> None:
    new_game(page, "legend_raiders", seed=6, manual_chance=True)
    panel = page.get_by_test_id("chance-panel")
    tab(page, "moves")
    picked = rolled = 0
    for press in range(14):
        before = page.get_by_test_id("ply").inner_text()
        if panel.is_visible():
            if press % 2:
                page.get_by_test_id("chance-outcome").last.click()
                picked += 1
            else:
                page.get_by_test_id("chance-roll").click()
                rolled += 1
        else:
            page.get_by_test_id("move").first.click()
        expect(page.get_by_test_id("ply")).not_to_have_text(before)
    assert picked and rolled
    last_state = page.evaluate("() => window.boardbot.history.at(-1).state")
    record, _ = exported(page, tmp_path)
    rules = get_game("legend_raiders")
    assert rules.state_to_json(replay(rules, record_from_json(record))[-1].state) == last_state
    page.locator("summary", has_text="Paste a record").click()
    page.get_by_test_id("record-text").fill(json.dumps(record))
    page.get_by_test_id("record-load").click()
    expect(page.get_by_test_id("record-status")).to_contain_text("loaded")
    assert page.evaluate("() => window.boardbot.history.at(-1).state") == last_state
    again, _ = exported(page, tmp_path)
    assert again["moves"] == record["moves"]


def test_the_documented_example_record_imports_and_exports_the_same_moves(
    page: Page, tmp_path: Path
) -> None:
    example = Path(__file__).resolve().parents[2] / "docs" / "example-record.json"
    record = json.loads(example.read_text())
    rules = get_game(record["game"])
    final = rules.state_to_json(replay(rules, record_from_json(record))[-1].state)
    tab(page, "history")
    page.get_by_test_id("record-file").set_input_files(str(example))
    expect(page.get_by_test_id("record-status")).to_contain_text("loaded")
    decisions = sum(1 for m in record["moves"] if m["seat"] >= 0)
    opening = 1 if record["moves"][0]["seat"] == -1 else 0  # a chance step before any decision
    shown = decisions + opening
    expect(page.get_by_test_id("ply")).to_have_text(f"move {shown} of {shown}")
    assert page.evaluate("() => window.boardbot.history.at(-1).state") == final
    # The players' names say who played each move.
    texts = " ".join(page.get_by_test_id("history-entry").all_inner_texts())
    assert all(f"{p['name']}: " in texts for p in record["players"])
    again, _ = exported(page, tmp_path)
    assert again["moves"] == record["moves"]
    assert again["players"] == record["players"]

"""The models shipped in the package: each fits its game as defined now, matches its card,
and all of them stay small."""

from __future__ import annotations

import json

import pytest

from boardbot.engine.registry import get_game
from boardbot.search.models import MODELS_DIR, check_fits, load_network, shipped_models
from boardbot.search.network import file_sha256

SHIPPED = ["leda-2p", "legend_raiders-2p", "legend_raiders-3p", "legend_raiders-4p"]


def test_every_game_and_seat_count_has_its_model() -> None:
    assert shipped_models() == SHIPPED


def test_the_models_are_two_megabytes_at_most() -> None:
    total = sum((MODELS_DIR / f"{name}.bbnet").stat().st_size for name in SHIPPED)
    assert total <= 2 * 1024 * 1024


@pytest.mark.parametrize("name", SHIPPED)
def test_a_model_fits_its_game_and_matches_its_card(name: str) -> None:
    network = load_network(name)
    game_name, players = name.rsplit("-", 1)
    check_fits(network, get_game(game_name), int(players.removesuffix("p")))
    card = json.loads((MODELS_DIR / f"{name}.card.json").read_text())
    assert card["sha256"] == file_sha256(MODELS_DIR / f"{name}.bbnet")
    assert card["command"].startswith(f"boardbot train --data data/{name} ")
    assert card["selfplay_command"].startswith("boardbot selfplay ")
    assert card["selfplay"]["players"] == network.players

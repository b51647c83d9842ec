"""The JSON state format: round trips, observer views, and every kind of rejected state."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.engine.leda.data import EFFECTS
from boardbot.engine.leda.frames import (
    F_OR,
    F_ORG,
    F_PAY,
    F_ROTATE_CARD,
    F_ROUND_END,
    F_SPY_PILE,
    F_UPGRADE,
)
from tests.engine.json_edits import setter
from tests.engine.leda.builders import (
    Engine,
    activation_stack,
    base_json,
    make_player,
    make_state,
    org_stack,
)

GAME = get_game("leda")


def _dup_card(data: dict[str, Any]) -> None:
    data["players"][0]["hand"].append(data["players"][0]["deck"][0])


def _missing_card(data: dict[str, Any]) -> None:
    data["players"][0]["deck"].pop()


def _wrong_clan(data: dict[str, Any]) -> None:
    data["players"][0]["deck"][0] = "panda-1"


def _too_many_tokens(data: dict[str, Any]) -> None:
    for square in data["players"][0]["grid"][:10]:
        square["shark_token"] = True


def _dup_tile(data: dict[str, Any]) -> None:
    data["players"][1]["grid"][1]["tile"] = data["players"][1]["grid"][0]["tile"]


def _dup_mv(data: dict[str, Any]) -> None:
    data["players"][0]["mv_tokens"] = ["mv-4"]


def _dup_action(data: dict[str, Any]) -> None:
    data["action_pile"][0] = data["revealed_actions"][0]


def _knows_own_hand(data: dict[str, Any]) -> None:
    data["players"][0]["knows"] = [data["players"][0]["hand"][0]]


def _mulligan_mid_game(data: dict[str, Any]) -> None:
    data["pending"].insert(1, {"frame": "mulligan", "seat": 0, "args": []})


def _automatic_on_top(data: dict[str, Any]) -> None:
    data["pending"].append({"frame": "conflict", "seat": 0, "args": []})


def _bad_frame_arg(data: dict[str, Any]) -> None:
    data["pending"][-1]["args"] = [1 << 16]


def _zone_choice_with_zone(data: dict[str, Any]) -> None:
    data["pending"].append({"frame": "zone", "seat": 0, "args": [46]})


def _counts_without_observer(data: dict[str, Any]) -> None:
    data["players"][1]["hand"] = {"count": 2, "known": ["panda-3"]}


def _winner_with_work(data: dict[str, Any]) -> None:
    data["winner"] = 0


def _rotated_shark(data: dict[str, Any]) -> None:
    data["players"][0]["rotated"] = ["shark-4"]


def _no_revealed(data: dict[str, Any]) -> None:
    data["action_pile"] += data["revealed_actions"]
    data["revealed_actions"] = []


BAD = [
    ("duplicated card", _dup_card, "$.players[0].deck[0]"),
    ("missing card", _missing_card, "$.players[0]"),
    ("card of another clan", _wrong_clan, "$.players[0].deck[0]"),
    ("bad coordinates", setter(["players", 0, "grid"], []), "$.players[0].grid"),
    ("negative food", setter(["players", 1, "food"], -1), "$.players[1].food"),
    ("too many shark tokens", _too_many_tokens, "$.players[0].grid"),
    ("token on a Panda grid", setter(["players", 1, "grid", 3, "shark_token"], True),
     "$.players[1].grid[3].shark_token"),
    ("tile twice", _dup_tile, "$.players[1].grid[1].tile"),
    ("MV token twice", _dup_mv, "$.players[1].mv_tokens[0]"),
    ("Action tile twice", _dup_action, "$.action_pile[0]"),
    ("unknown field", setter(["players", 0, "colour"], "red"), "$.players[0].colour"),
    ("unknown top field", setter(["turn"], 3), "$.turn"),
    ("unknown clan", setter(["players", 0, "clan"], "owls"), "$.players[0].clan"),
    ("same clans", setter(["players", 1, "clan"], "sharks"), "$.players[1].clan"),
    ("not leda", setter(["game"], "chess"), "$.game"),
    ("bad face", setter(["players", 0, "grid", 0, "face"], "side"), "$.players[0].grid[0].face"),
    ("knows own hand", _knows_own_hand, "$.players[0].knows"),
    ("mulligan mid-game", _mulligan_mid_game, "$.pending[1]"),
    ("automatic frame on top", _automatic_on_top, "$.pending[7]"),
    ("frame argument out of range", _bad_frame_arg, "$.pending[6].args[0]"),
    ("zone chosen while choosing", _zone_choice_with_zone, "$.zone"),
    ("zone not of the revealed tile", setter(["zone"], "row3"), "$.zone"),
    ("counts without observer", _counts_without_observer, "$.players[1].hand"),
    ("winner with pending work", _winner_with_work, "$.pending"),
    ("rotated non-Cat card", _rotated_shark, "$.players[0].rotated[0]"),
    ("unknown frame", setter(["pending", 0, "frame"], "nap"), "$.pending[0].frame"),
    ("negative military", setter(["players", 0, "military"], -2), "$.players[0].military"),
    ("empty action pile", setter(["action_pile"], []), "$.action_pile"),
    ("specials outside a step", setter(["players", 1, "specials"], 1), "$.players[1].specials"),
    ("round without a revealed tile", _no_revealed, "$.revealed_actions"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "edit", "path"), BAD, ids=[b[0] for b in BAD])
def test_bad_states_are_rejected_with_their_path(
    engine: Engine, what: str, edit: Callable[[dict[str, Any]], None], path: str
) -> None:
    data = base_json()
    engine.game.state_from_json(copy.deepcopy(data))  # the unedited state is fine
    edit(data)
    engine.rejects(data, path)


def test_round_trip_and_observer_view_counts(engine: Engine) -> None:
    data = base_json()
    state = engine.game.state_from_json(data)
    assert engine.game.state_to_json(state) == data
    view = engine.game.state_to_json(state, 0)
    assert view["players"][1]["hand"] == {"count": 2, "known": []}
    assert view["players"][0]["deck"]["count"] == len(engine.py(state).players[0].deck)
    assert view["mv_pile"]["count"] == 17 and "knows" not in view["players"][0]


def test_view_with_known_items_decodes_with_placeholders(engine: Engine) -> None:
    state = engine.game.state_from_json(base_json())
    view = engine.game.state_to_json(state, 1)
    view["players"][0]["hand"]["known"] = ["shark-1"]
    view["mv_pile"]["known"] = [{"index": 16, "item": "mv-18"}]
    decoded = engine.game.state_from_json(view)
    assert engine.game.state_to_json(decoded, 1) == view
    decoded = engine.py(decoded)
    assert decoded.known[1] >= {GAME_ITEM("shark-1"), GAME_ITEM("mv-18")}
    assert decoded.mv_pile[16] == GAME_ITEM("mv-18")


def GAME_ITEM(name: str) -> int:
    from boardbot.engine.leda.data import ITEM_BY_NAME

    return ITEM_BY_NAME[name]


def test_placeholders_are_canonical_and_known_to_nobody(engine: Engine) -> None:
    state = engine.game.state_from_json(base_json())
    decoded = engine.py(engine.game.state_from_json(engine.game.state_to_json(state, 0)))
    opp = decoded.players[1]
    assert list(opp.hand) + list(opp.deck) == sorted(opp.hand + opp.deck)
    assert not decoded.known[1]


def test_view_position_given_twice_is_rejected(engine: Engine) -> None:
    state = engine.game.state_from_json(base_json())
    view = engine.game.state_to_json(state, 0)
    view["mv_pile"]["known"] = [{"index": 0, "item": "mv-1"}, {"index": 0, "item": "mv-2"}]
    engine.rejects(view, "$.mv_pile.known[1].index")


def test_organization_state_round_trips(engine: Engine) -> None:
    state = make_state(make_player("cats"), make_player("scorpions"), stack=org_stack())
    assert engine.py(engine.checked(engine.state(state))) == state


def test_known_cards_in_the_observers_own_hand_are_rejected_at_that_player(
    engine: Engine,
) -> None:
    state = engine.game.state_from_json(base_json())
    view = engine.game.state_to_json(state, 0)
    hand = view["players"][0]["hand"]
    view["players"][0]["hand"] = {"count": len(hand), "known": hand}
    engine.rejects(view, "$.players[0]", "not in a zone hidden from this seat")


@pytest.mark.parametrize("key", ["rotated", "knows"])
def test_an_item_listed_twice_is_rejected_not_merged(engine: Engine, key: str) -> None:
    state = engine.game.new_state({"clans": ["cats", "sharks"], "first_player": 0}, 3)
    data = engine.game.state_to_json(state)
    data["players"][0][key] = ["cat-3", "cat-3"]  # a rotating Cat card, named twice
    err = engine.rejects(data, f"$.players[0].{key}[1]")
    assert err.reason == "listed twice"


def test_a_choice_no_effect_offers_is_refused(engine: Engine) -> None:
    food_or_military = (F_OR, 0, 0, 2, -1)
    fine = make_state(
        make_player("pandas"),
        make_player("sharks"),
        stack=(*activation_stack(0, 0), food_or_military),
    )
    data = GAME.state_to_json(fine)
    data["pending"][-1]["args"] = [0, 14, -1]  # "1 Food or" an effect no card pairs with it
    engine.rejects(data, f"$.pending[{len(data['pending']) - 1}].args")


def test_an_action_tile_known_in_a_view_and_revealed_names_the_known_entry(
    engine: Engine,
) -> None:
    data = engine.game.state_to_json(engine.game.state_from_json(base_json()), 0)
    revealed = data["revealed_actions"]
    assert revealed, "the base state has a revealed tile"
    data["action_pile"]["known"] = [{"index": 0, "item": revealed[0]}]
    engine.rejects(data, "$.action_pile.known[0].item")


def _pending_refused(engine: Engine, state_json: dict[str, Any], index: int, fragment: str) -> None:
    engine.rejects(state_json, f"$.pending[{index}]", fragment)


def test_a_card_to_turn_must_be_on_the_players_grid(engine: Engine) -> None:
    cats = make_player("cats", cards={"r1c1": ["cat-3"]})
    spy = (F_SPY_PILE, 0, -1, 0)
    fine = make_state(
        cats, make_player("pandas"), stack=(*activation_stack(0, 0), (F_ROTATE_CARD, 0, 2), spy)
    )
    data = GAME.state_to_json(fine)
    assert engine.decode(data) == fine
    index = len(data["pending"]) - 2
    data["pending"][index]["args"] = [4]  # cat-5 is in the deck, not on the grid
    _pending_refused(engine, data, index, "not on that player's grid")


def test_an_activation_belongs_to_the_players_activation_step(engine: Engine) -> None:
    scorpions = make_player("scorpions")
    org = ((F_ROUND_END, 0), (F_ORG, 1), (F_ORG, 0))
    upgrade_only = make_state(scorpions, make_player("sharks"), stack=(*org, (F_UPGRADE, 0, 0)))
    data = GAME.state_to_json(upgrade_only)
    assert engine.decode(data) == upgrade_only  # an MV token's upgrade, say
    data["pending"][-1]["args"] = [1]  # "upgrade, then activate that tile"
    _pending_refused(engine, data, len(data["pending"]) - 1, "activation step")


def test_one_card_play_is_paid_at_a_time(engine: Engine) -> None:
    cats = make_player("cats", hand=("cat-5", "cat-8", "cat-9"))
    fine = make_state(cats, make_player("pandas"), stack=(*activation_stack(0, 0), (F_PAY, 0, 3)))
    data = GAME.state_to_json(fine)
    assert engine.decode(data) == fine
    twice = {**data, "pending": [*data["pending"], data["pending"][-1]]}
    _pending_refused(engine, twice, len(data["pending"]) - 1, "one card play")
    short = {
        **data,
        "pending": [*data["pending"][:-1], {"frame": "pay-cards", "seat": 0, "args": [3]}],
    }
    short["players"] = [dict(data["players"][0]), data["players"][1]]
    short["players"][0]["hand"] = ["cat-5", "cat-8"]
    short["players"][0]["deck"] = [*data["players"][0]["deck"], "cat-9"]
    _pending_refused(engine, short, len(data["pending"]) - 1, "one card play")


def _view() -> dict[str, Any]:
    """Seat 0's view of `base_json()` (hidden parts as counts)."""
    view: dict[str, Any] = GAME.state_to_json(GAME.state_from_json(base_json()), 0)
    return orjson.loads(orjson.dumps(view))


def _effect_beyond_its_ops(data: dict[str, Any]) -> None:
    fx = next(i for i, ops in enumerate(EFFECTS) if 1 <= len(ops) <= 10)
    data["pending"].append({"frame": "effect", "seat": 0, "args": [fx, len(EFFECTS[fx]), -1]})


def _more_known_than_held(data: dict[str, Any]) -> None:
    data["players"][1]["hand"] = {"count": 1, "known": ["panda-3", "panda-7"]}


def _known_position_past_the_end(data: dict[str, Any]) -> None:
    data["mv_pile"]["known"] = [{"index": data["mv_pile"]["count"], "item": "mv-1"}]


def _mv_token_of_both_players(data: dict[str, Any]) -> None:
    data["players"][0]["mv_tokens"] = ["mv-7"]
    data["players"][1]["mv_tokens"] = ["mv-7"]


REASONS = [
    (_effect_beyond_its_ops, "$.pending[7].args[1]", "op index beyond the effect"),
    (_more_known_than_held, "$.players[1].hand.known", "more known cards than the hand holds"),
    (_known_position_past_the_end, "$.mv_pile.known[0].index", "must be at most 16, got 17"),
    (setter(["revealed_actions"], ["action-1", "action-2", "action-3", "action-4", "action-5"]),
     "$.revealed_actions", "expected 0..4 items, got 5"),
    (_mv_token_of_both_players, "$.players[1].mv_tokens[0]",
     "MV token 'mv-7' appears more than once"),
    (setter(["pending", 0, "seat"], True), "$.pending[0].seat",
     "expected an integer, got a boolean"),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "path", "reason"), REASONS, ids=[r[1] for r in REASONS])
def test_a_bad_view_names_the_field_and_the_reason(
    engine: Engine, edit: Callable[[dict[str, Any]], None], path: str, reason: str
) -> None:
    data = _view()
    engine.game.state_from_json(copy.deepcopy(data))
    edit(data)
    assert engine.rejects(data, path).reason == reason

"""Diceless: once the deck has run out, it holds only the Die cards players used since."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.engine.errors import InvalidStateError
from boardbot.engine.legend_raiders.components import CARD_DIE
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from tests.engine.legend_raiders.builders import Engine, P, Table, card

DIE = [c for c, kind in zip(C.card_ids, C.card_kind, strict=True) if kind == CARD_DIE]
OTHERS = [c for c, kind in zip(C.card_ids, C.card_kind, strict=True) if kind != CARD_DIE]


def _ran_out(engine: Engine) -> Any:
    """A diceless game whose deck ran out (a face-up slot is empty) and got one Die back.

    Seat 1 holds two blind cards, one a Die card: from seat 0's view the deck and that hand
    are hidden, and the deck's card must be a Die card.
    """
    row = (OTHERS[0], OTHERS[1], None, OTHERS[2])
    rest = OTHERS[3:]
    return engine.build(
        [
            P(1, known=(*rest[:12], DIE[2], DIE[3])),
            P(2, known=tuple(rest[12:-1]), blind=(DIE[1], rest[-1])),
        ],
        Table(row=row, deck=(DIE[0],)),
        dice=False,
    )


def test_a_view_decodes_with_a_die_card_in_the_deck(engine: Engine) -> None:
    state = _ran_out(engine)
    view = engine.game.state_to_json(state, 0)
    assert view["deck"] == 1 and view["players"][1]["cards_blind"] == 2
    decoded = engine.game.state_from_json(view)
    (only,) = [j for j in range(len(C.card_ids)) if engine.py(decoded).deck >> j & 1]
    assert C.card_kind[only] == CARD_DIE
    assert engine.game.state_from_json(engine.game.state_to_json(decoded)) == decoded


def test_determinize_deals_only_die_cards_to_the_deck(engine: Engine) -> None:
    decoded = engine.game.state_from_json(engine.game.state_to_json(_ran_out(engine), 0))
    dealt = set()
    for seed in range(40):
        world = engine.game.determinize(engine.game.observe(decoded, 0), random.Random(seed))
        (only,) = [j for j in range(len(C.card_ids)) if engine.py(world).deck >> j & 1]
        assert C.card_kind[only] == CARD_DIE
        dealt.add(only)
        assert engine.game.state_from_json(engine.game.state_to_json(world)) == world
    assert dealt == {card(DIE[0]), card(DIE[1])}  # either unseen Die card, never another card


def test_a_full_state_with_another_card_in_such_a_deck_is_refused(engine: Engine) -> None:
    data = engine.game.state_to_json(_ran_out(engine))
    hand = data["players"][1]["cards_blind"]
    swapped = [c for c in hand if c not in DIE]
    data["players"][1]["cards_blind"] = sorted([DIE[0], *[c for c in hand if c in DIE]])
    data["deck"] = swapped
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == "$.deck[0]"
    assert "only used Die cards" in err.value.reason


def test_a_view_whose_own_hand_leaves_too_few_die_cards_for_the_deck_is_refused(
    engine: Engine,
) -> None:
    view = engine.game.state_to_json(_ran_out(engine), 1)  # seat 1 sees its own blind Die card
    assert engine.game.state_from_json(view)
    # Hide one more card in the deck: it would need a second Die card, and the only other
    # unseen one is in seat 1's own hand.
    known = view["players"][0]["cards_face_up"]
    view["players"][0]["cards_face_up"] = [c for c in known if c not in DIE][1:] + [
        c for c in known if c in DIE
    ]
    view["deck"] = 2
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(view)
    assert err.value.path == "$.deck"
    assert "at most 1" in err.value.reason

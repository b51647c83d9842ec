"""High Card's JSON state, its actions as JSON and text.

A state: {"game": "high_card", "cards": 6, "hands": [5, 2], "deck": [1, 3, 4, 6],
"discards": [], "turn": 0, "drawing": false}; `turn` is null at the end, a hand is null while
its redraw is pending. A seat's view (with "observer") shows the other hand as "hidden" and the
deck as a count; decoding deals the hidden cards canonically (see `knowledge`).
"""

from __future__ import annotations

from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import IllegalActionError, InvalidActionError
from boardbot.engine.jsonread import JsonReader
from tests.games.high_card.rules import KEEP, REDRAW, legal_actions
from tests.games.high_card.state import MAX_CARDS, MIN_CARDS, NO_CARD, OVER, HighCardState

GAME_NAME = "high_card"
HIDDEN = "hidden"
_KEYS = {"game", "observer", "cards", "hands", "deck", "discards", "turn", "drawing"}


def state_to_json(state: HighCardState, observer: int | None = None) -> JsonDict:
    """The JSON form; with `observer`, the other hand and the deck hidden until the end."""
    hide = observer is not None and state.turn != OVER
    hands: list[Any] = [card if card != NO_CARD else None for card in state.hands]
    if hide and observer is not None and hands[1 - observer] is not None:
        hands[1 - observer] = HIDDEN
    out: JsonDict = {"game": GAME_NAME}
    if observer is not None:
        out["observer"] = observer
    out.update({
        "cards": state.cards,
        "hands": hands,
        "deck": len(state.deck) if hide else list(state.deck),
        "discards": list(state.discards),
        "turn": None if state.turn == OVER else state.turn,
        "drawing": state.drawing,
    })
    return out


def state_from_json(data: Any) -> HighCardState:
    """Decode and validate a state or a seat's view; errors name the JSON path."""
    root = JsonReader(data).obj(_KEYS)
    root.get("game").as_str([GAME_NAME])
    observer_r = root.opt("observer", None)
    observer = None if observer_r.value is None else observer_r.as_int(0, 1)
    cards = root.get("cards").as_int(MIN_CARDS, MAX_CARDS)
    seen: set[int] = set()

    def card(reader: JsonReader) -> int:
        value = reader.as_int(1, cards)
        if value in seen:
            raise reader.fail(f"card {value} is listed twice")
        seen.add(value)
        return value

    hands: list[int | None] = []
    for seat, hand in enumerate(root.get("hands").as_list(2, 2)):
        if hand.value is None:
            hands.append(NO_CARD)
        elif hand.value == HIDDEN:
            if observer is None or observer == seat:
                raise hand.fail("only the other seat's hand is hidden, in a view with an observer")
            hands.append(None)
        else:
            hands.append(card(hand))
    deck_r = root.get("deck")
    if isinstance(deck_r.value, list):
        deck = [card(c) for c in deck_r.as_list(0, cards)]
        hidden_in_deck = 0
    else:
        if observer is None:
            raise deck_r.fail("a deck given as a count needs an observer")
        deck, hidden_in_deck = [], deck_r.as_int(0, cards)
    discards = tuple(card(c) for c in root.get("discards").as_list(0, 2))
    turn_r = root.get("turn")
    turn = OVER if turn_r.value is None else turn_r.as_int(0, 1)
    drawing = root.get("drawing").as_bool()
    unknown = sorted(set(range(1, cards + 1)) - seen)
    holes = hidden_in_deck + hands.count(None)
    if len(unknown) != holes:
        raise root.fail(f"{len(unknown)} cards are not listed but the hidden parts hold {holes}")
    _check_turn(root, hands, discards, turn, drawing)
    filled = [unknown.pop(0) if hand is None else hand for hand in hands]
    return HighCardState(
        cards, (filled[0], filled[1]), tuple(sorted(deck + unknown)), discards, turn, drawing
    )


def _check_turn(
    root: JsonReader, hands: list[int | None], discards: tuple[int, ...], turn: int, drawing: bool
) -> None:
    """A hand is empty only while its own redraw is pending; one discard per redraw so far."""
    for seat, hand in enumerate(hands):
        if (hand == NO_CARD) != (drawing and turn == seat):
            raise root.get("hands").child(seat).fail(
                "a hand is empty exactly while its redraw is pending"
            )
    decided = turn + (1 if drawing else 0)
    if len(discards) > decided:
        raise root.get("discards").fail("more discards than seats that have decided")
    if drawing and turn == OVER:
        raise root.get("drawing").fail("nothing is drawn once the game is over")


def action_to_json(state: HighCardState, action: Any) -> JsonDict:
    """{"type": "keep"} / {"type": "redraw"} / {"type": "draw", "card": 3}."""
    return {"type": "draw", "card": action} if isinstance(action, int) else {"type": action}


def action_to_str(state: HighCardState, action: Any) -> str:
    """`keep`, `redraw` or `draw:3`."""
    return f"draw:{action}" if isinstance(action, int) else str(action)


def _legal(state: HighCardState, action: Any) -> Any:
    allowed = list(state.deck) if state.drawing else legal_actions(state)
    if action not in allowed:
        raise IllegalActionError("$", f"{action_to_str(state, action)} is not legal now")
    return action


def action_from_json(state: HighCardState, data: Any) -> Any:
    """Parse a JSON action and check it is legal in `state`."""
    root = JsonReader(data, error=InvalidActionError).obj({"type", "card"})
    kind = root.get("type").as_str([KEEP, REDRAW, "draw"])
    return _legal(state, root.get("card").as_int(1, MAX_CARDS) if kind == "draw" else kind)


def action_from_str(state: HighCardState, text: str) -> Any:
    """Parse `keep`, `redraw` or `draw:N` and check it is legal in `state`."""
    kind, _, number = text.partition(":")
    if kind == "draw" and number.isdigit() and len(number) <= 2:
        return _legal(state, int(number))
    if text in (KEEP, REDRAW):
        return _legal(state, text)
    raise InvalidActionError("$", f"not a High Card move: {text[:20]!r}")

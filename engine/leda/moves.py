"""Primitive state changes (Food, draws, tiles, cards, MV tokens), keeping knowledge in step."""

from __future__ import annotations

from boardbot.engine.leda.bounds import FOOD_MAX, MILITARY_MAX
from boardbot.engine.leda.data import CARD_CLAN, MV_FX, SHARKS
from boardbot.engine.leda.frames import F_EFFECT
from boardbot.engine.leda.state import (
    Frame,
    LedaState,
    Player,
    Square,
    set_player,
    set_square,
    set_stack,
)


def push(state: LedaState, *frames: Frame) -> LedaState:
    """`state` with frames pushed in order (the last one ends on top)."""
    return set_stack(state, state.stack + frames)


def pop(state: LedaState) -> LedaState:
    """`state` without its top frame."""
    return set_stack(state, state.stack[:-1])


def forget(state: LedaState, items: frozenset[int] | set[int] | tuple[int, ...]) -> LedaState:
    """Both seats lose track of `items` (they moved somewhere hidden, or became public)."""
    k0, k1 = state.known
    if k0.isdisjoint(items) and k1.isdisjoint(items):
        return state
    return state._replace(known=(k0.difference(items), k1.difference(items)))


def learn(state: LedaState, seat: int, item: int) -> LedaState:
    """`seat` now knows where `item` is."""
    known = state.known
    if item in known[seat]:
        return state
    if seat == 0:
        return state._replace(known=(known[0] | {item}, known[1]))
    return state._replace(known=(known[0], known[1] | {item}))


def unlearn(state: LedaState, seat: int, item: int) -> LedaState:
    """`seat` no longer tracks `item` (e.g. it is now in its own hand, known implicitly)."""
    known = state.known
    if item not in known[seat]:
        return state
    if seat == 0:
        return state._replace(known=(known[0] - {item}, known[1]))
    return state._replace(known=(known[0], known[1] - {item}))


def gain_food(state: LedaState, seat: int, n: int) -> LedaState:
    """Seat gains n Food, holding at most FOOD_MAX (the rest is lost: a Ruling)."""
    p = state.players[seat]
    food = min(p.food + n, FOOD_MAX)
    if food == p.food:
        return state
    return set_player(state, seat, p._replace(food=food))


def gain_military(state: LedaState, seat: int, n: int) -> LedaState:
    """Seat gains n Military symbols for this round's conflict, up to MILITARY_MAX (a Ruling)."""
    p = state.players[seat]
    military = min(p.military + n, MILITARY_MAX)
    if military == p.military:
        return state
    return set_player(state, seat, p._replace(military=military))


def draw(state: LedaState, seat: int, n: int) -> LedaState:
    """Seat draws n cards (an empty deck gives nothing)."""
    for _ in range(n):
        p = state.players[seat]
        if not p.deck:
            break
        card = p.deck[0]
        state = set_player(state, seat, p._replace(hand=(*p.hand, card), deck=p.deck[1:]))
        state = unlearn(state, seat, card)
    return state


def steal_food(state: LedaState, seat: int) -> LedaState:
    """Seat takes 1 Food from the opponent, if they have any."""
    other = state.players[1 - seat]
    if other.food <= 0:
        return state
    state = set_player(state, 1 - seat, other._replace(food=other.food - 1))
    return gain_food(state, seat, 1)


def set_tile_face(state: LedaState, seat: int, sq: int, face: int) -> LedaState:
    """Turn the tile of a square to a face (0 front, 1 back: upgraded or Desert)."""
    p = state.players[seat]
    return set_player(state, seat, set_square(p, sq, p.grid[sq]._replace(face=face)))


def remove_from_hand(player: Player, card: int) -> Player:
    """`player` without `card` in hand."""
    hand = player.hand
    i = hand.index(card)
    return player._replace(hand=hand[:i] + hand[i + 1 :])


def place_card(state: LedaState, seat: int, card: int, sq: int) -> LedaState:
    """Put a card from hand on top of a square (a Shark card brings a token if it has none)."""
    p = remove_from_hand(state.players[seat], card)
    square = p.grid[sq]
    token = square.token or CARD_CLAN[card] == SHARKS
    p = set_square(p, sq, Square(square.tile, square.face, (*square.cards, card), token))
    return forget(set_player(state, seat, p), (card,))


def put_under_deck(state: LedaState, seat: int, card: int, revealed: bool) -> LedaState:
    """Put a card from hand at the bottom of its owner's deck (face down unless revealed)."""
    p = remove_from_hand(state.players[seat], card)
    state = set_player(state, seat, p._replace(deck=(*p.deck, card)))
    state = learn(state, seat, card)
    if revealed:
        return learn(state, 1 - seat, card)
    return unlearn(state, 1 - seat, card)


def return_to_hand(state: LedaState, seat: int, sq: int) -> LedaState:
    """The top card of a square goes back to its owner's hand, seen by both."""
    p = state.players[seat]
    square = p.grid[sq]
    card = square.cards[-1]
    p = set_square(p, sq, square._replace(cards=square.cards[:-1]))
    state = set_player(state, seat, p._replace(hand=(*p.hand, card)))
    return learn(state, 1 - seat, card)


def swap_squares(state: LedaState, seat: int, a: int, b: int) -> LedaState:
    """Exchange two squares with everything on them."""
    p = state.players[seat]
    grid = list(p.grid)
    grid[a], grid[b] = grid[b], grid[a]
    return set_player(state, seat, p._replace(grid=tuple(grid)))


def gain_mv_token(state: LedaState, seat: int) -> LedaState:
    """Seat draws the top MV token, keeps it and resolves its effect (unless blocked or empty)."""
    if state.blocked or not state.mv_pile:
        return state
    token = state.mv_pile[0]
    p = state.players[seat]
    state = set_player(state, seat, p._replace(mv=(*p.mv, token)))
    state = forget(state._replace(mv_pile=state.mv_pile[1:]), (token,))
    return push(state, (F_EFFECT, seat, MV_FX[token], 0, -1))

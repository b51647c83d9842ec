"""Decision frames: the legal actions each one offers and how a chosen action resolves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardbot.engine.leda import board
from boardbot.engine.leda.data import (
    ACTION_TILE_ZONES,
    BRONZE,
    CAT_ROTATING,
    CLAN_CARDS,
    GOLD,
    MV_FX,
    PANDA_LEVEL,
    PANDAS,
    RINGS,
    SILVER,
    SQUARES,
    TILE_PERMANENT,
    ZONE_SQUARES,
)
from boardbot.engine.leda.frames import (
    A_ACT_TILE,
    A_ACTIVATE,
    A_AWAKEN,
    A_CHOOSE,
    A_COPY,
    A_DESERT,
    A_DONE,
    A_DOWNGRADE,
    A_FLIP,
    A_FOOD,
    A_MULLIGAN,
    A_PAY,
    A_PLAY,
    A_PUT,
    A_QUEEN,
    A_RETRIGGER,
    A_REVEAL,
    A_RING,
    A_ROTATE,
    A_SKIP,
    A_SPY,
    A_SWAP,
    A_TAKE,
    A_TOKEN,
    A_UNDER,
    A_UPGRADE,
    A_ZONE,
    F_ACT_TILE,
    F_ACTIVATE,
    F_AWAKEN,
    F_COPY,
    F_DESERT_FX,
    F_DISCOUNT,
    F_DOWNGRADE,
    F_FLIP,
    F_MULLIGAN,
    F_MV_UNDER,
    F_OR,
    F_ORG,
    F_PAY,
    F_PLACE_TOKEN,
    F_QUEEN,
    F_RETRIGGER,
    F_RING_REVEAL,
    F_RING_ROTATE,
    F_RINGS,
    F_SEARCH_RING,
    F_SHUFFLE,
    F_SPY_PILE,
    F_SPY_PUT,
    F_SWAP,
    F_UPGRADE,
    F_UPGRADE_SQ,
    F_ZONE,
    PILE_ACTIONS,
    PILE_DECK,
    PILE_MV,
    SHUFFLE_DECK,
    SHUFFLE_MULLIGAN,
)
from boardbot.engine.leda.moves import (
    forget,
    gain_food,
    gain_mv_token,
    learn,
    place_card,
    pop,
    push,
    put_under_deck,
    return_to_hand,
    set_tile_face,
    swap_squares,
    unlearn,
)
from boardbot.engine.leda.ops import (
    activate_square,
    activate_tile,
    desert_reminder_fx,
    start_effect,
)
from boardbot.engine.leda.state import Frame, LedaState, set_player, set_square

Action = tuple[Any, ...]
Legal = Callable[[LedaState, Frame], list[Action]]
Resolve = Callable[[LedaState, Frame, Action], LedaState]

ALL_PAIRS = tuple((A_SWAP, a, b) for a in range(SQUARES) for b in range(a + 1, SQUARES))
_SKIP: Action = (A_SKIP,)
_DONE: Action = (A_DONE,)


def play_card(state: LedaState, seat: int, card: int, sq: int, discount: int) -> LedaState:
    """Pay for `card` (Food now, Cat card costs as a following decision) and place it."""
    p = state.players[seat]
    cost = board.play_cost(p, card, discount)
    assert cost is not None
    food, cards = cost
    state = set_player(state, seat, p._replace(food=p.food - food))
    state = place_card(state, seat, card, sq)
    if cards:
        state = push(state, (F_PAY, seat, cards))
    return state


def playable_cards(state: LedaState, seat: int, discount: int, pandas_only: bool) -> list[int]:
    """Cards in hand that seat can pay for now."""
    p = state.players[seat]
    return [
        c
        for c in p.hand
        if (not pandas_only or c in CLAN_CARDS[PANDAS]) and board.can_pay(p, c, discount)
    ]


# ----------------------------------------------------------------------------- mulligan, zone
def _mulligan_legal(state: LedaState, frame: Frame) -> list[Action]:
    return [(A_MULLIGAN, 1), (A_MULLIGAN, 0)]


def _mulligan(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    state = pop(state)
    if not action[1]:
        return state
    p = state.players[seat]
    n = len(p.hand)
    deck = p.hand + p.deck
    state = forget(set_player(state, seat, p._replace(hand=(), deck=deck)), deck)
    return push(state, (F_SHUFFLE, seat, SHUFFLE_MULLIGAN, n))


def _zone_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, _, tile = frame
    return [(A_ZONE, z) for z in ACTION_TILE_ZONES[tile]]


def _zone(state: LedaState, frame: Frame, action: Action) -> LedaState:
    return pop(state)._replace(zone=action[1])


# ----------------------------------------------------------------------------- activation
def _activate_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, mask = frame
    p = state.players[seat]
    return [
        (A_ACTIVATE, sq)
        for sq in ZONE_SQUARES[state.zone]
        if mask >> sq & 1 and board.has_activation(p, sq)
    ]


def _activate(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, mask = frame
    sq = action[1]
    state = push(pop(state), (F_ACTIVATE, seat, mask & ~(1 << sq)))
    return activate_square(state, seat, sq)


def _or_legal(state: LedaState, frame: Frame) -> list[Action]:
    return [(A_CHOOSE, 0), (A_CHOOSE, 1)]


def _or(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, a, b, sq = frame
    return start_effect(pop(state), seat, b if action[1] else a, sq)


# ----------------------------------------------------------------------------- tiles
def _upgrade_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, _ = frame
    return [(A_UPGRADE, sq) for sq in board.upgradable(state.players[seat])]


def _upgrade(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, then_activate = frame
    sq = action[1]
    state = set_tile_face(pop(state), seat, sq, 1)
    return activate_tile(state, seat, sq) if then_activate else state


def _flip_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    return [(A_FLIP, sq) for sq in board.deserts(state.players[seat])]


def _flip(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    return set_tile_face(pop(state), seat, action[1], 0)


def _act_tile_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, mode = frame
    p = state.players[seat]
    any_tile = mode == 1
    return [
        (A_ACT_TILE, sq)
        for sq, square in enumerate(p.grid)
        if not square.cards and (any_tile or board.tile_live_fx(square) >= 0)
    ]


def _act_tile(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, mode = frame
    sq = action[1]
    state = pop(state)
    if mode == 1:
        state = push(state, (F_UPGRADE_SQ, seat, sq))
    return activate_tile(state, seat, sq)


def _desert_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    return [(A_DESERT, sq) for sq in board.deserts(state.players[seat])]


def _desert(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    sq = action[1]
    return start_effect(pop(state), seat, desert_reminder_fx(state, seat, sq), sq)


def _downgrade_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    p = state.players[seat]
    return [
        (A_DOWNGRADE, sq)
        for sq, square in enumerate(p.grid)
        if not square.cards and square.face == (1 if TILE_PERMANENT[square.tile] else 0)
    ]


def _downgrade(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    sq = action[1]
    square = state.players[seat].grid[sq]
    return set_tile_face(pop(state), seat, sq, 1 - square.face)


def _swap_legal(state: LedaState, frame: Frame) -> list[Action]:
    return list(ALL_PAIRS)


def _swap(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    return swap_squares(pop(state), seat, action[1], action[2])


# ----------------------------------------------------------------------------- Spy
def _spy_pile_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, excluded, _ = frame
    out = []
    if excluded != PILE_DECK and state.players[seat].deck:
        out.append((A_SPY, PILE_DECK))
    if excluded != PILE_ACTIONS and len(state.action_pile) >= 2:
        out.append((A_SPY, PILE_ACTIONS))
    if excluded != PILE_MV and state.mv_pile:
        out.append((A_SPY, PILE_MV))
    return out


def pile_items(state: LedaState, seat: int, pile: int) -> tuple[int, ...]:
    """The items of a pile a seat can spy (its own deck, the Action pile, the MV pile)."""
    if pile == PILE_DECK:
        return state.players[seat].deck
    return state.action_pile if pile == PILE_ACTIONS else state.mv_pile


def _spy_pile(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, _, more = frame
    pile = action[1]
    state = learn(pop(state), seat, pile_items(state, seat, pile)[0])
    return push(state, (F_SPY_PUT, seat, pile, more))


def _spy_put_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, pile, _ = frame
    if len(pile_items(state, seat, pile)) >= 2:
        return [(A_PUT, 0), (A_PUT, 1)]
    return [(A_PUT, 0)]


def _spy_put(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, pile, more = frame
    state = pop(state)
    if action[1]:
        items = pile_items(state, seat, pile)
        moved = (*items[1:], items[0])
        if pile == PILE_DECK:
            p = state.players[seat]
            state = set_player(state, seat, p._replace(deck=moved))
        elif pile == PILE_ACTIONS:
            state = state._replace(action_pile=moved)
        else:
            state = state._replace(mv_pile=moved)
    if more:
        state = push(state, (F_SPY_PILE, seat, pile, 0))
    return state


# ----------------------------------------------------------------------------- Sharks
def _place_token_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    p = state.players[seat]
    if board.token_supply(p) <= 0:
        return []
    return [(A_TOKEN, sq) for sq, square in enumerate(p.grid) if not square.token]


def _place_token(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    sq = action[1]
    p = state.players[seat]
    return set_player(pop(state), seat, set_square(p, sq, p.grid[sq]._replace(token=True)))


def _retrigger_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    return [(A_RETRIGGER, t) for t in state.players[seat].mv]


def _retrigger(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    return start_effect(pop(state), seat, MV_FX[action[1]], -1)


def _mv_under_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    return [(A_UNDER, t) for t in state.players[seat].mv]


def _mv_under(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    token = action[1]
    p = state.players[seat]
    mv = tuple(t for t in p.mv if t != token)
    state = set_player(pop(state), seat, p._replace(mv=mv))
    state = state._replace(mv_pile=(*state.mv_pile, token))
    state = learn(learn(state, 0, token), 1, token)
    return gain_mv_token(state, seat)


# ----------------------------------------------------------------------------- Cats
def _copy_legal(state: LedaState, frame: Frame) -> list[Action]:
    if state.zone < 0:
        return []
    _, seat, _ = frame
    opp = state.players[1 - seat]
    return [(A_COPY, sq) for sq in ZONE_SQUARES[state.zone] if board.live_fx(opp, sq) >= 0]


def _copy(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, own_sq = frame
    fx = board.live_fx(state.players[1 - seat], action[1])
    return start_effect(pop(state), seat, fx, own_sq)


# Whether some of these decisions exist must not depend on the decider's hidden cards (the
# opponent would learn from it, and a determinized world could leave the decider with nothing
# to do): with a non-empty hand they are always offered, with `skip` (or `food`) as a fallback.
def _ring_reveal_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    hand = state.players[seat].hand
    if not hand:
        return []
    return [*((A_REVEAL, r) for r in RINGS if r in hand), _SKIP]


def _ring_reveal(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    state = pop(state)
    if action[0] == A_SKIP:
        return state
    return gain_mv_token(put_under_deck(state, seat, action[1], revealed=True), seat)


def _search_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    deck = state.players[seat].deck
    if not deck:
        return []
    return [(A_TAKE, r) for r in RINGS if r in deck] or [_SKIP]


def shuffle_deck(state: LedaState, seat: int) -> LedaState:
    """Push the chance step shuffling seat's deck (nothing to do with fewer than 2 cards)."""
    deck = state.players[seat].deck
    state = forget(state, deck)
    if len(deck) < 2:
        return state
    return push(state, (F_SHUFFLE, seat, SHUFFLE_DECK, 0))


def _search_none(state: LedaState, frame: Frame) -> LedaState:
    _, seat = frame
    return shuffle_deck(pop(state), seat)


def _search(state: LedaState, frame: Frame, action: Action) -> LedaState:
    if action[0] == A_SKIP:  # no Ring left in the deck: it is still shuffled
        return _search_none(state, frame)
    _, seat = frame
    ring = action[1]
    p = state.players[seat]
    deck = tuple(c for c in p.deck if c != ring)
    state = set_player(pop(state), seat, p._replace(deck=deck, hand=(*p.hand, ring)))
    state = learn(unlearn(state, seat, ring), 1 - seat, ring)
    return shuffle_deck(state, seat)


def _ring_rotate_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    p = state.players[seat]
    targets = [
        (A_ROTATE, sq)
        for sq, square in enumerate(p.grid)
        if square.cards and square.cards[-1] in CAT_ROTATING
    ]
    return [*targets, _SKIP] if targets else []


def _ring_rotate(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    state = pop(state)
    if action[0] == A_SKIP:
        return state
    p = state.players[seat]
    card = p.grid[action[1]].cards[-1]
    rotated = p.rotated - {card} if card in p.rotated else p.rotated | {card}
    return set_player(state, seat, p._replace(rotated=rotated))


def _pay_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, _ = frame
    return [(A_PAY, c) for c in state.players[seat].hand]


def _pay(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, n = frame
    state = put_under_deck(pop(state), seat, action[1], revealed=False)
    return push(state, (F_PAY, seat, n - 1)) if n > 1 else state


def _rings_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, _, mask = frame
    p = state.players[seat]
    hand = p.hand
    on_grid = {c for square in p.grid for c in square.cards}
    if not hand or all(r in on_grid for i, r in enumerate(RINGS) if mask >> i & 1):
        return []  # publicly nothing left to play
    out: list[Action] = [
        (A_RING, r, sq)
        for i, r in enumerate(RINGS)
        if mask >> i & 1 and r in hand
        for sq in range(SQUARES)
    ]
    out.append(_DONE)
    return out


def _rings(state: LedaState, frame: Frame, action: Action) -> LedaState:
    if action[0] == A_DONE:
        return pop(state)
    _, seat, _, _ = frame
    return place_card(state, seat, action[1], action[2])


# ----------------------------------------------------------------------------- Pandas
def awaken_options(state: LedaState, seat: int) -> list[Action]:
    """Every legal Awakening: (card from hand, square of the returned Panda)."""
    p = state.players[seat]
    out: list[Action] = []
    for lower, upper in ((BRONZE, SILVER), (SILVER, GOLD)):
        squares = board.uncovered_level(p, lower)
        if len(squares) < 2:
            continue
        for card in p.hand:
            if PANDA_LEVEL.get(card) == upper:
                out.extend((A_AWAKEN, card, sq) for sq in squares)
    return out


def awakening_in_reach(state: LedaState, seat: int) -> bool:
    """The public half of an Awakening's condition: 2 uncovered Bronzes or 2 Silvers."""
    p = state.players[seat]
    return len(board.uncovered_level(p, BRONZE)) >= 2 or len(board.uncovered_level(p, SILVER)) >= 2


def _awaken_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    if not awakening_in_reach(state, seat):
        return []
    return awaken_options(state, seat) or [(A_FOOD,)]


def _awaken_none(state: LedaState, frame: Frame) -> LedaState:
    _, seat = frame
    return gain_food(pop(state), seat, 1)


def _awaken(state: LedaState, frame: Frame, action: Action) -> LedaState:
    if action[0] == A_FOOD:  # no Silver (or Gold) in hand: the Awakening gives 1 Food
        return _awaken_none(state, frame)
    _, seat = frame
    card, sq = action[1], action[2]
    state = return_to_hand(pop(state), seat, sq)
    return place_card(state, seat, card, sq)


def _queen_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, own = frame
    p = state.players[seat]
    return [
        (A_QUEEN, sq)
        for sq, square in enumerate(p.grid)
        if sq != own and square.cards and square.cards[-1] in PANDA_LEVEL
    ]


def _queen(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat, _ = frame
    return activate_square(pop(state), seat, action[1])


# ----------------------------------------------------------------------------- playing cards
def _discount_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat, discount, pandas_only = frame
    if not state.players[seat].hand:
        return []
    cards = playable_cards(state, seat, discount, bool(pandas_only))
    out: list[Action] = [(A_PLAY, c, sq) for c in cards for sq in range(SQUARES)]
    out.append(_SKIP)
    return out


def _discount(state: LedaState, frame: Frame, action: Action) -> LedaState:
    state = pop(state)
    if action[0] == A_SKIP:
        return state
    _, seat, discount, _ = frame
    return play_card(state, seat, action[1], action[2], discount)


def _org_legal(state: LedaState, frame: Frame) -> list[Action]:
    _, seat = frame
    out: list[Action] = [
        (A_PLAY, c, sq) for c in playable_cards(state, seat, 0, False) for sq in range(SQUARES)
    ]
    out.append((A_FOOD,))
    out.extend(ALL_PAIRS)
    return out


def _org(state: LedaState, frame: Frame, action: Action) -> LedaState:
    _, seat = frame
    state = pop(state)
    kind = action[0]
    if kind == A_PLAY:
        return play_card(state, seat, action[1], action[2], 0)
    if kind == A_SWAP:
        state = swap_squares(state, seat, action[1], action[2])
    return gain_food(state, seat, 1)


def _no_option(state: LedaState, frame: Frame) -> LedaState:
    return pop(state)


# (legal actions, resolution, what happens when nothing is legal)
DECISIONS: dict[int, tuple[Legal, Resolve, Callable[[LedaState, Frame], LedaState]]] = {
    F_MULLIGAN: (_mulligan_legal, _mulligan, _no_option),
    F_ZONE: (_zone_legal, _zone, _no_option),
    F_ACTIVATE: (_activate_legal, _activate, _no_option),
    F_OR: (_or_legal, _or, _no_option),
    F_UPGRADE: (_upgrade_legal, _upgrade, _no_option),
    F_FLIP: (_flip_legal, _flip, _no_option),
    F_SPY_PILE: (_spy_pile_legal, _spy_pile, _no_option),
    F_SPY_PUT: (_spy_put_legal, _spy_put, _no_option),
    F_PLACE_TOKEN: (_place_token_legal, _place_token, _no_option),
    F_ACT_TILE: (_act_tile_legal, _act_tile, _no_option),
    F_DESERT_FX: (_desert_legal, _desert, _no_option),
    F_RETRIGGER: (_retrigger_legal, _retrigger, _no_option),
    F_MV_UNDER: (_mv_under_legal, _mv_under, _no_option),
    F_COPY: (_copy_legal, _copy, _no_option),
    F_RING_REVEAL: (_ring_reveal_legal, _ring_reveal, _no_option),
    F_SEARCH_RING: (_search_legal, _search, _search_none),
    F_RING_ROTATE: (_ring_rotate_legal, _ring_rotate, _no_option),
    F_DISCOUNT: (_discount_legal, _discount, _no_option),
    F_PAY: (_pay_legal, _pay, _no_option),
    F_AWAKEN: (_awaken_legal, _awaken, _awaken_none),
    F_QUEEN: (_queen_legal, _queen, _no_option),
    F_DOWNGRADE: (_downgrade_legal, _downgrade, _no_option),
    F_SWAP: (_swap_legal, _swap, _no_option),
    F_RINGS: (_rings_legal, _rings, _no_option),
    F_ORG: (_org_legal, _org, _no_option),
}

"""The rules driver: run automatic frames until a decision or a chance step, apply actions;
who is to move and how the game ends."""

from __future__ import annotations

import random
from typing import Any

from boardbot.engine.api import CHANCE, TERMINAL
from boardbot.engine.errors import IllegalActionError, InvalidStateError
from boardbot.engine.leda import board
from boardbot.engine.leda.bounds import PENDING_MAX
from boardbot.engine.leda.data import (
    ACTION_TILES,
    CLAN_CARDS,
    MV_TOKENS,
    SQUARES,
    STARTING_FOOD,
    STARTING_HAND,
)
from boardbot.engine.leda.decisions import DECISIONS
from boardbot.engine.leda.flow import AUTO_HANDLERS
from boardbot.engine.leda.frames import (
    A_SHUFFLE,
    F_MULLIGAN,
    F_OR,
    F_ORG,
    F_PAY,
    F_ROUND,
    F_SHUFFLE,
    F_SPY_PUT,
    F_SWAP,
    F_ZONE,
    SHUFFLE_ACTIONS,
    SHUFFLE_MULLIGAN,
)
from boardbot.engine.leda.moves import draw, forget
from boardbot.engine.leda.state import KIND, SEAT, LedaState, Player, Square, set_player

Action = tuple[Any, ...]

# Decisions that always offer at least one action (no need to list them to know).
ALWAYS_OPEN = frozenset({F_MULLIGAN, F_ZONE, F_OR, F_SPY_PUT, F_SWAP, F_ORG, F_PAY})


def _unchanged(before: LedaState, after: LedaState) -> bool:
    """Neither grid nor MV tokens changed: no victory condition can have become true."""
    b0, b1 = before.players
    a0, a1 = after.players
    return (a0 is b0 or (a0.grid is b0.grid and a0.mv is b0.mv)) and (
        a1 is b1 or (a1.grid is b1.grid and a1.mv is b1.mv)
    )


def check_victory(state: LedaState, seat: int, before: LedaState | None = None) -> LedaState:
    """End the game when a player meets a victory condition; `seat` wins a simultaneous one.

    With `before` (a state nobody had won yet), the check is skipped when no grid and no MV
    token changed since: only those carry the victory conditions.
    """
    if state.winner >= 0 or (before is not None and _unchanged(before, state)):
        return state
    if board.has_won(state.players[seat]):
        return state._replace(winner=seat, stack=())
    if board.has_won(state.players[1 - seat]):
        return state._replace(winner=1 - seat, stack=())
    return state


def advance(state: LedaState) -> LedaState:
    """Run automatic frames (and decisions with nothing to choose) until someone must act."""
    while state.winner < 0:
        frame = state.stack[-1]
        kind = frame[KIND]
        auto = AUTO_HANDLERS.get(kind)
        if auto is not None:
            after = auto(state, frame)
            # Most frames only touch the stack: no victory check needed then.
            state = (
                after
                if after.players is state.players
                else check_victory(after, frame[SEAT], state)
            )
            continue
        if kind == F_SHUFFLE:
            return state
        if kind in ALWAYS_OPEN:
            return state
        legal, _, none = DECISIONS[kind]
        if legal(state, frame):
            return state
        state = check_victory(none(state, frame), frame[SEAT], state)
    return state


def num_players(state: LedaState) -> int:
    """Always 2."""
    return 2


def current_player(state: LedaState) -> int:
    """The seat to decide, CHANCE at a shuffle, TERMINAL once someone has won."""
    if state.winner >= 0:
        return TERMINAL
    frame = state.stack[-1]
    return CHANCE if frame[KIND] == F_SHUFFLE else frame[SEAT]


def is_terminal(state: LedaState) -> bool:
    """True once a player has won."""
    return state.winner >= 0


def returns(state: LedaState) -> tuple[float, ...]:
    """1.0 for the winner, 0.0 otherwise (all 0 before the end)."""
    if state.winner < 0:
        return (0.0, 0.0)
    return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)


def scores(state: LedaState) -> tuple[float, ...]:
    """MV symbols each player holds."""
    return tuple(float(board.mv_symbols(p)) for p in state.players)


def legal_actions(state: LedaState) -> list[Action]:
    """The decisions open to the seat to move."""
    if state.winner >= 0:
        return []
    frame = state.stack[-1]
    kind = frame[KIND]
    if kind == F_SHUFFLE:
        return []
    return DECISIONS[kind][0](state, frame)


def apply_action(state: LedaState, action: Action) -> LedaState:
    """The state after a decision or a chance outcome.

    For speed the action is trusted: boundaries parse actions with `notation`, which checks
    legality. Pending work that would grow past PENDING_MAX frames (only a hand-made state's
    can: games stay far below) is refused, so every state returned decodes again.
    """
    if state.winner >= 0:
        raise IllegalActionError("$", "the game is over")
    frame = state.stack[-1]
    before = state
    kind = frame[KIND]
    if kind == F_SHUFFLE:
        state = apply_shuffle(state, frame, action)
    else:
        state = DECISIONS[kind][1](state, frame, action)
    state = advance(check_victory(state, frame[SEAT], before))
    if len(state.stack) > PENDING_MAX:
        raise InvalidStateError(
            "$.pending", f"this work grows past {PENDING_MAX} frames, which no game reaches"
        )
    return state


def shuffle_size(state: LedaState) -> int:
    """How many items the pending chance step shuffles."""
    _, seat, what, _ = state.stack[-1]
    if what == SHUFFLE_ACTIONS:
        return len(state.action_pile)
    return len(state.players[seat].deck)


def sample_shuffle(state: LedaState, rng: random.Random) -> Action:
    """A uniformly random order for the pending shuffle."""
    order = list(range(shuffle_size(state)))
    rng.shuffle(order)
    return (A_SHUFFLE, tuple(order))


def apply_shuffle(state: LedaState, frame: tuple[int, ...], action: Action) -> LedaState:
    """Reorder the shuffled pile: item i of the new pile is item order[i] of the old one."""
    _, seat, what, n = frame
    order = action[1]
    assert isinstance(order, tuple)
    state = state._replace(stack=state.stack[:-1])
    if what == SHUFFLE_ACTIONS:
        pile = state.action_pile
        return forget(state._replace(action_pile=tuple(pile[i] for i in order)), pile)
    p = state.players[seat]
    deck = tuple(p.deck[i] for i in order)
    state = forget(set_player(state, seat, p._replace(deck=deck)), deck)
    if what == SHUFFLE_MULLIGAN:
        state = draw(state, seat, n)
    return state


def _shuffled(rng: random.Random, items: tuple[int, ...]) -> tuple[int, ...]:
    out = list(items)
    rng.shuffle(out)
    return tuple(out)


def initial_state(clans: tuple[int, int], first: int, rng: random.Random) -> LedaState:
    """Set up a game: seeded grids, piles and decks, 3 cards and 1 Food each, mulligans next."""
    players = []
    for clan in clans:
        tiles = _shuffled(rng, tuple(range(SQUARES)))
        deck = _shuffled(rng, CLAN_CARDS[clan])
        players.append(
            Player(
                clan=clan,
                grid=tuple(Square(t, 0, (), False) for t in tiles),
                hand=deck[:STARTING_HAND],
                deck=deck[STARTING_HAND:],
                food=STARTING_FOOD,
                mv=(),
                military=0,
                specials=0,
                rotated=frozenset(),
            )
        )
    return LedaState(
        players=(players[0], players[1]),
        active=first,
        action_pile=_shuffled(rng, ACTION_TILES),
        revealed=(),
        mv_pile=_shuffled(rng, MV_TOKENS),
        zone=-1,
        blocked=False,
        stack=((F_ROUND, first), (F_MULLIGAN, 1 - first), (F_MULLIGAN, first)),
        known=(frozenset(), frozenset()),
        winner=-1,
    )

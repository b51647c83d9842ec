"""The immutable LEDA state: NamedTuples over tuples, shared copy-on-write between states."""

from __future__ import annotations

from typing import NamedTuple

Frame = tuple[int, ...]
"""A pending-work frame: (kind, seat, *ints); see `frames.py`.

Frames stay plain tuples (compared with, hashed as and decoded to plain tuples); code reads
them by name through unpacking, `_, seat, mask = frame`, which also checks the frame's arity,
and a frame of any kind through `frame[KIND]` and `frame[SEAT]`.
"""

KIND = 0
"""Index of a frame's kind (an `F_*` constant of `frames.py`)."""
SEAT = 1
"""Index of the seat a frame works for (or asks to decide)."""


class Square(NamedTuple):
    """One grid square: its tile (id 0..15, face 0 front / 1 back), the cards on it, a token."""

    tile: int
    face: int
    cards: tuple[int, ...]  # bottom to top
    token: bool


class Player(NamedTuple):
    """Everything one seat owns."""

    clan: int
    grid: tuple[Square, ...]  # 16 squares, row-major
    hand: tuple[int, ...]
    deck: tuple[int, ...]  # top first
    food: int
    mv: tuple[int, ...]  # MV tokens won, in the order won
    military: int  # gained this round
    specials: int  # special activations waiting for the end of this activation step
    rotated: frozenset[int]  # Cat cards turned to their second effect


class LedaState(NamedTuple):
    """A concrete LEDA world plus what each seat knows of its hidden parts."""

    players: tuple[Player, Player]
    active: int
    action_pile: tuple[int, ...]  # top first
    revealed: tuple[int, ...]  # Action tiles revealed since the last shuffle
    mv_pile: tuple[int, ...]  # top first
    zone: int  # the zone chosen this round, -1 before the choice
    blocked: bool  # Portal P4 resolved this round: nobody gains an MV token
    stack: tuple[Frame, ...]  # pending work, top last
    known: tuple[frozenset[int], frozenset[int]]  # hidden items each seat can place exactly
    winner: int  # -1 while the game goes on


_new = tuple.__new__  # builds a NamedTuple from a tuple without the keyword machinery
# The explicit constructors below name every LedaState field in declaration order
# (tests/engine/leda check them against `LedaState._fields`).


def set_player(state: LedaState, seat: int, player: Player) -> LedaState:
    """`state` with seat's player replaced."""
    s = state
    players = (player, s.players[1]) if seat == 0 else (s.players[0], player)
    return _new(
        LedaState,
        (
            players, s.active, s.action_pile, s.revealed, s.mv_pile, s.zone, s.blocked,
            s.stack, s.known, s.winner,
        ),
    )  # fmt: skip


def set_stack(state: LedaState, stack: tuple[Frame, ...]) -> LedaState:
    """`state` with its pending work replaced (the hottest update of all)."""
    s = state
    return _new(
        LedaState,
        (
            s.players, s.active, s.action_pile, s.revealed, s.mv_pile, s.zone, s.blocked,
            stack, s.known, s.winner,
        ),
    )  # fmt: skip


def set_square(player: Player, sq: int, square: Square) -> Player:
    """`player` with one grid square replaced."""
    grid = player.grid
    return player._replace(grid=(*grid[:sq], square, *grid[sq + 1 :]))

"""The immutable Legend Raiders state: NamedTuples over tuples and small ints.

Tools are counts per tool type; the Discovery stack, the Expedition deck and the removed items are
bitmasks over tile/card indices (their order is never part of the state: every reveal is a chance
step choosing among the unseen items).
"""

from __future__ import annotations

from typing import NamedTuple

# Phases of a turn. Chance phases: ROLL, DRAW, REFILL_TILE, REFILL_TOOL, REVEAL_CARD, BLIND_CARD.
ROLL = 0  # chance: roll the die
DIE_CARD = 1  # decision (dice): keep the roll or discard a Die card to set the face
DRAW = 2  # chance: draw a tool from the bag into the current player's backpack
DISCARD_TOOL = 3  # decision: put one tool back (backpack over its limit)
ACTION = 4  # decision: prepare (a column) or go on an expedition (a card)
DISCARD_TILE = 5  # decision: discard one prepared tile (over the limit)
REFILL_TILE = 6  # chance: reveal the stack's top tile onto the emptied HQ column
REFILL_TOOL = 7  # chance: draw a tool from the bag onto the emptied HQ column
REVEAL_CARD = 8  # chance: reveal the deck's top card into the emptied face-up slot
BLIND_CARD = 9  # chance: the deck's top card, taken blind by the current player
COMPLETE = 10  # decision: complete a prepared tile, or stop
FINISH = 11  # decision (diceless, after preparing): use a Die card, or end the turn
OVER = 12  # the game is over

PHASE_NAMES = (
    "roll",
    "die-card",
    "draw-tool",
    "discard-tool",
    "action",
    "discard-tile",
    "refill-tile",
    "refill-tools",
    "reveal-card",
    "blind-card",
    "complete",
    "finish",
    "over",
)
CHANCE_PHASES = frozenset({ROLL, DRAW, REFILL_TILE, REFILL_TOOL, REVEAL_CARD, BLIND_CARD})

REFILL = REFILL_TILE
"""`resume` value meaning "refill the HQ column next" (after a Prepare action's discards)."""

NO_FACE = -1
EMPTY = -1


class PlayerState(NamedTuple):
    """One player's board and hand."""

    board: int  # character board index 0..3
    tools: tuple[int, ...]  # backpack: count per tool type
    prepared: tuple[int, ...]  # tiles on the discovery spaces, sorted
    completed: tuple[int, ...]  # completed tiles in the order they were completed
    torch: bool  # lit?
    points: int  # points scored during play (end-game points are added at the end)
    known: tuple[int, ...]  # Expedition cards taken from the face-up row (public), sorted
    blind: tuple[int, ...]  # Expedition cards taken blind from the deck (owner only), sorted


class RaidersState(NamedTuple):
    """The whole game."""

    players: tuple[PlayerState, ...]
    dice: bool  # True: standard game with the die; False: diceless variant
    first: int  # first player's seat
    seat: int  # whose turn it is (at OVER: the last player to have played)
    phase: int
    die: int  # face kind shown by the die this turn (NO_FACE before the roll / diceless)
    coin_bonus: int  # extra points per discovery completed this turn
    done: int  # discoveries completed this turn
    column: int  # HQ column being refilled, or face-up slot being refilled (else EMPTY)
    draws: int  # tool draws still to come in this DRAW / REFILL_TOOL sequence
    resume: int  # phase to continue with after DRAW / DISCARD_TOOL / DISCARD_TILE (else EMPTY)
    hq_tiles: tuple[int, ...]  # tile per HQ column (EMPTY when none)
    hq_tools: tuple[tuple[int, ...], ...]  # tools per HQ column, counts per type
    bag: tuple[int, ...]  # tools in the bag, counts per type
    stack: int  # bitmask of tiles in the face-down Discovery stack
    row: tuple[int, ...]  # face-up Expedition cards (EMPTY when none)
    deck: int  # bitmask of cards in the Expedition deck
    removed_cards: int  # bitmask of Die cards discarded out of the game (standard game)
    removed_tiles: int  # bitmask of tiles discarded out of the game
    ending: bool  # the end of the game is triggered: the round is being finished

"""The automatic frames of a round: reveal, activation steps, conflict, end of round."""

from __future__ import annotations

from collections.abc import Callable

from boardbot.engine.leda import board
from boardbot.engine.leda.data import (
    CATS,
    RING_BLUE,
    RING_ORANGE,
    RING_PURPLE,
    RING_RED,
    RINGS,
    SPECIAL_FX,
    TILE_PERMANENT,
    ZONE_MASKS,
)
from boardbot.engine.leda.frames import (
    F_ACTIVATE,
    F_CONFLICT,
    F_EFFECT,
    F_ORG,
    F_RINGS,
    F_ROTATE_CARD,
    F_ROUND,
    F_ROUND_END,
    F_SHUFFLE,
    F_STEP,
    F_STEP_END,
    F_UPGRADE_SQ,
    F_ZONE,
    SHUFFLE_ACTIONS,
)
from boardbot.engine.leda.moves import forget, gain_mv_token, pop, push, set_tile_face
from boardbot.engine.leda.ops import run_effect_frame, start_effect
from boardbot.engine.leda.state import Frame, LedaState, Player, set_player

AutoHandler = Callable[[LedaState, Frame], LedaState]


def ring_mask(rings: tuple[int, ...]) -> int:
    """Bit mask over RINGS (red, blue, purple, orange) of the given Ring cards."""
    return sum(1 << RINGS.index(r) for r in rings)


def _round(state: LedaState, frame: Frame) -> LedaState:
    _, seat = frame
    tile = state.action_pile[0]
    state = state._replace(
        stack=state.stack[:-1],
        action_pile=state.action_pile[1:],
        revealed=(*state.revealed, tile),
        zone=-1,
    )
    state = forget(state, (tile,))
    other = 1 - seat
    return push(
        state,
        (F_ROUND_END, seat),
        (F_ORG, other),
        (F_ORG, seat),
        (F_CONFLICT, seat),
        (F_STEP, other),
        (F_STEP, seat),
        (F_ZONE, seat, tile),
    )


def _step(state: LedaState, frame: Frame) -> LedaState:
    _, seat = frame
    return push(pop(state), (F_STEP_END, seat), (F_ACTIVATE, seat, ZONE_MASKS[state.zone]))


def _step_end(state: LedaState, frame: Frame) -> LedaState:
    _, seat = frame
    p = state.players[seat]
    if p.specials > 0:
        state = set_player(state, seat, p._replace(specials=p.specials - 1))
        return start_effect(state, seat, SPECIAL_FX[p.clan], -1)
    state = pop(state)
    if p.clan != CATS:
        return state
    # The window opens on public conditions only; whether a Ring is in hand stays private.
    in_play = _rings_in_play(p)
    offered: list[int] = []
    if RING_BLUE not in in_play and not p.deck:
        offered.append(RING_BLUE)
    if RING_PURPLE not in in_play and board.cats_in_zone(p, state.zone) >= 3:
        offered.append(RING_PURPLE)
    if RING_ORANGE not in in_play and board.upgraded_count(p) >= 5:
        offered.append(RING_ORANGE)
    if offered and p.hand:
        state = push(state, (F_RINGS, seat, 0, ring_mask(tuple(offered))))
    return state


def _rings_in_play(player: Player) -> set[int]:
    return {c for square in player.grid for c in square.cards if c in RINGS}


def _conflict(state: LedaState, frame: Frame) -> LedaState:
    state = pop(state)
    m0, m1 = state.players[0].military, state.players[1].military
    if m0 == m1 or state.blocked or not state.mv_pile:
        return state
    winner = 0 if m0 > m1 else 1
    p = state.players[winner]
    # The window opens below the token's effect, so a Ring that effect draws can be played;
    # whether the hand then holds one is checked when the window is reached.
    if p.clan == CATS and abs(m0 - m1) >= 3 and RING_RED not in _rings_in_play(p):
        state = push(state, (F_RINGS, winner, 1, ring_mask((RING_RED,))))
    return gain_mv_token(state, winner)


def _round_end(state: LedaState, frame: Frame) -> LedaState:
    _, active = frame
    players = tuple(p._replace(military=0, specials=0) for p in state.players)
    state = state._replace(
        stack=state.stack[:-1], players=(players[0], players[1]), blocked=False, zone=-1
    )
    if len(state.action_pile) > 1:
        return push(state._replace(active=1 - active), (F_ROUND, 1 - active))
    s0, s1 = board.mv_symbols(state.players[0]), board.mv_symbols(state.players[1])
    new_active = 1 - active if s0 == s1 else (0 if s0 < s1 else 1)
    pile = state.revealed + state.action_pile
    state = forget(state._replace(action_pile=pile, revealed=(), active=new_active), pile)
    return push(state, (F_ROUND, new_active), (F_SHUFFLE, new_active, SHUFFLE_ACTIONS, 0))


def _rotate_card(state: LedaState, frame: Frame) -> LedaState:
    _, seat, card = frame
    p = state.players[seat]
    rotated = p.rotated - {card} if card in p.rotated else p.rotated | {card}
    return set_player(pop(state), seat, p._replace(rotated=rotated))


def _upgrade_square(state: LedaState, frame: Frame) -> LedaState:
    _, seat, sq = frame
    state = pop(state)
    square = state.players[seat].grid[sq]
    if not square.cards and square.face == 0 and TILE_PERMANENT[square.tile]:
        state = set_tile_face(state, seat, sq, 1)
    return state


AUTO_HANDLERS: dict[int, AutoHandler] = {
    F_ROUND: _round,
    F_STEP: _step,
    F_STEP_END: _step_end,
    F_CONFLICT: _conflict,
    F_ROUND_END: _round_end,
    F_EFFECT: run_effect_frame,
    F_ROTATE_CARD: _rotate_card,
    F_UPGRADE_SQ: _upgrade_square,
}

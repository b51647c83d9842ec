"""A readable text picture of a LEDA state for terminals and logs."""

from __future__ import annotations

from boardbot.engine.leda import board
from boardbot.engine.leda.data import (
    CLAN_NAMES,
    ITEM_NAMES,
    MV_THRESHOLD,
    TILE_KIND,
    TILE_KIND_NAMES,
    TILE_PERMANENT,
    ZONE_NAMES,
)
from boardbot.engine.leda.frames import FRAME_NAMES
from boardbot.engine.leda.notation import action_to_str
from boardbot.engine.leda.rules import legal_actions
from boardbot.engine.leda.state import KIND, SEAT, LedaState, Square


def _cell(square: Square, rotated: frozenset[int]) -> str:
    if square.cards:
        card = square.cards[-1]
        text = ITEM_NAMES[card] + ("'" if card in rotated else "")
        if len(square.cards) > 1:
            text += f"+{len(square.cards) - 1}"
    else:
        kind = TILE_KIND_NAMES[TILE_KIND[square.tile]]
        upgraded = kind.upper() if TILE_PERMANENT[square.tile] else "desert"
        text = upgraded if square.face else kind
    return ("*" if square.token else "") + text


def render(state: LedaState, observer: int | None = None) -> str:
    """Both grids (top items; upper case = upgraded, ' = rotated, * = Shark token), hands
    (the observer's own only), Food, MV, the phase and what is to decide."""
    lines = []
    for seat, p in enumerate(state.players):
        mark = " (active)" if seat == state.active else ""
        lines.append(
            f"seat {seat} {CLAN_NAMES[p.clan]}{mark}: food {p.food}, military {p.military}, "
            f"MV {board.mv_symbols(p)}/{MV_THRESHOLD[p.clan]} {[ITEM_NAMES[t] for t in p.mv]}"
        )
        for r in range(4):
            row = p.grid[r * 4 : r * 4 + 4]
            lines.append("  " + " | ".join(f"{_cell(sq, p.rotated):<14}" for sq in row))
        if observer is None or observer == seat:
            lines.append(f"  hand: {' '.join(ITEM_NAMES[c] for c in p.hand) or '-'}")
        else:
            lines.append(f"  hand: {len(p.hand)} cards")
        lines.append(f"  deck: {len(p.deck)} cards")
    zone = ZONE_NAMES[state.zone] if state.zone >= 0 else "-"
    revealed = " ".join(ITEM_NAMES[t] for t in state.revealed) or "-"
    lines.append(f"revealed: {revealed}; zone: {zone}; MV pile: {len(state.mv_pile)}")
    if state.winner >= 0:
        lines.append(f"winner: seat {state.winner}")
    else:
        top = state.stack[-1]
        actions = legal_actions(state)
        shown = " ".join(action_to_str(state, a) for a in actions[:12])
        more = f" … (+{len(actions) - 12})" if len(actions) > 12 else ""
        lines.append(f"to decide: seat {top[SEAT]} {FRAME_NAMES[top[KIND]]}: {shown}{more}")
    return "\n".join(lines)

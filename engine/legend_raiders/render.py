"""A readable text picture of a state, for terminal players and logs."""

from __future__ import annotations

from boardbot.engine.legend_raiders.chance import bits
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.components import FACE_KINDS
from boardbot.engine.legend_raiders.rules import visible_coins
from boardbot.engine.legend_raiders.scoring import final_scores, winner
from boardbot.engine.legend_raiders.state import NO_FACE, OVER, PHASE_NAMES, RaidersState


def _tools(counts: tuple[int, ...]) -> str:
    parts = [f"{n}x{C.tool_names[t]}" for t, n in enumerate(counts) if n]
    return ", ".join(parts) or "-"


def _tiles(items: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"{C.tile_names[i]} ({C.symbols[C.tile_symbol[i]]})" for i in items) or "-"


def render(s: RaidersState, observer: int | None = None) -> str:
    """Multi-line text: turn, HQ, face-up row, then each player's board."""
    variant = "dice" if s.dice else "diceless"
    lines = [f"Legend Raiders ({variant}, {len(s.players)} players)"]
    if s.phase == OVER:
        lines.append(f"GAME OVER - final scores {list(final_scores(s))}, winner: seat "
                     f"{winner(s)}")
    else:
        die = f", die shows {FACE_KINDS[s.die]}" if s.die != NO_FACE else ""
        bonus = f", +{s.coin_bonus} per discovery" if s.coin_bonus else ""
        lines.append(f"Turn: seat {s.seat}, step {PHASE_NAMES[s.phase]}{die}{bonus}"
                     f"{' (last round)' if s.ending else ''}")
    lines.append("Headquarters:")
    for c, (tile, tools) in enumerate(zip(s.hq_tiles, s.hq_tools, strict=True)):
        name = "-" if tile < 0 else _tiles([tile]) + " cost " + _tools(C.tile_cost[tile])
        lines.append(f"  column {c + 1}: {name}; tools {_tools(tools)}")
    # Numbered as the moves name them (`expedition:row2`).
    row = ", ".join(f"row{k + 1} {C.card_ids[j] if j >= 0 else '-'}" for k, j in enumerate(s.row))
    lines.append(f"Face-up cards: {row}")
    lines.append(f"Stack: {s.stack.bit_count()} tiles, deck: {s.deck.bit_count()} cards, "
                 f"bag: {_tools(s.bag)}")
    for seat, p in enumerate(s.players):
        names = C.board_names[p.board][0]
        fav = C.tool_names[C.board_favourite[p.board]]
        mark = ">" if seat == s.seat and s.phase != OVER else " "
        lines.append(f"{mark} seat {seat}: {names} (board {p.board + 1}, favourite {fav}) "
                     f"{p.points} pts, torch {'lit' if p.torch else 'unlit'}, "
                     f"{visible_coins(len(p.prepared), p.completed)} coins visible")
        lines.append(f"    backpack: {_tools(p.tools)}")
        lines.append(f"    prepared: {_tiles(p.prepared)}")
        lines.append(f"    completed: {_tiles(p.completed)}")
        if observer is None or observer == seat or s.phase == OVER:
            blind = ", ".join(C.card_ids[j] for j in p.blind) or "-"
        else:
            blind = f"{len(p.blind)} hidden"
        known = ", ".join(C.card_ids[j] for j in p.known) or "-"
        lines.append(f"    cards: face-up taken {known}; blind {blind}")
    # Removed tiles and used Die cards are public.
    lines.append(f"Removed: tiles {_tiles(bits(s.removed_tiles))}; cards "
                 f"{', '.join(C.card_ids[j] for j in bits(s.removed_cards)) or '-'}")
    return "\n".join(lines)

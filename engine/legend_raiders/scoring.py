"""End-game scoring: Missions, Discovery cards, kept Die cards, the winner and the tie-break."""

from __future__ import annotations

from boardbot.engine.legend_raiders.components import CARD_DIE, CARD_DISCOVERY, CARD_MISSION
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import OVER, PlayerState, RaidersState

N_SYMBOLS = len(C.symbols)


def symbol_counts(p: PlayerState) -> list[int]:
    """Symbols a player holds for Missions: completed tiles plus Discovery cards."""
    counts = [0] * N_SYMBOLS
    for i in p.completed:
        counts[C.tile_symbol[i]] += 1
    for j in (*p.known, *p.blind):
        if C.card_kind[j] == CARD_DISCOVERY:
            counts[C.card_symbol[j]] += 1
    return counts


def mission_met(card: int, counts: list[int]) -> bool:
    """True when `counts` contain the Mission's required symbols."""
    return all(have >= need for have, need in zip(counts, C.mission_requires[card], strict=True))


def mission_points(p: PlayerState) -> int:
    """Points of the player's fulfilled Missions (a symbol may serve any number of them)."""
    counts = symbol_counts(p)
    return sum(
        C.mission_points[j]
        for j in (*p.known, *p.blind)
        if C.card_kind[j] == CARD_MISSION and mission_met(j, counts)
    )


def die_cards_held(p: PlayerState) -> int:
    """Number of Die cards the player still holds."""
    return sum(1 for j in (*p.known, *p.blind) if C.card_kind[j] == CARD_DIE)


def end_game_points(p: PlayerState) -> int:
    """Points added at the end: Missions plus kept Die cards."""
    return mission_points(p) + C.die_card_points * die_cards_held(p)


def final_scores(s: RaidersState) -> tuple[int, ...]:
    """Each player's total: points scored in play plus end-game points."""
    return tuple(p.points + end_game_points(p) for p in s.players)


def winner(s: RaidersState) -> int:
    """The winning seat: highest total; on a tie, the tied player who played later wins."""
    totals = final_scores(s)
    n = len(totals)
    return max(range(n), key=lambda seat: (totals[seat], (seat - s.first) % n))


def returns(s: RaidersState) -> tuple[float, ...]:
    """1.0 for the winner (after the tie-break), 0.0 for the others; all 0 before the end."""
    n = len(s.players)
    if s.phase != OVER:
        return (0.0,) * n
    best = winner(s)
    return tuple(1.0 if seat == best else 0.0 for seat in range(n))


def scores(s: RaidersState) -> tuple[float, ...]:
    """Points scored so far; at the end, including Missions and kept Die cards."""
    if s.phase == OVER:
        return tuple(float(v) for v in final_scores(s))
    return tuple(float(p.points) for p in s.players)

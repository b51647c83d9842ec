"""Rule invariants checked on every state an engine accepts or reaches, read from its JSON.

They are written from the rules (/work/shared/rules/, docs/<game>/), not from the engine's code,
so a decoder that lets an impossible state through, or recomputes a flag wrongly, is caught
whether the engine refuses such a state or repairs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

END_TRIGGER = 6
"""Legend Raiders: completed discoveries that end the game (rules, "End of the game")."""


def _count(value: Any) -> int:
    """The items of a pile: a list, or a view's `{"count": n, "known": [...]}`."""
    if isinstance(value, list):
        return len(value)
    if isinstance(value, dict) and isinstance(value.get("count"), int):
        return int(value["count"])
    return 0


def legend_raiders_end(doc: Any, terminal: bool) -> str:
    """The game ends only on a 6th discovery, or once no player can ever complete one (not
    enough tiles in the stack, on the Headquarters and among the player's own prepared tiles
    to reach 6). A state whose end is triggered, or that is over, while a player can still
    get there breaks that rule."""
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        return ""
    ending = doc.get("end_triggered") is True
    if not (ending or terminal):
        return ""
    players = [p for p in doc["players"] if isinstance(p, dict)]
    most = max((_count(p.get("completed")) for p in players), default=0)
    if most >= END_TRIGGER:
        return ""
    hq = doc.get("hq")
    slots = hq if isinstance(hq, list) else []
    to_prepare = _count(doc.get("stack")) + sum(
        1 for slot in slots if isinstance(slot, dict) and slot.get("tile") is not None
    )
    for seat, p in enumerate(players):
        reach = _count(p.get("completed")) + _count(p.get("prepared")) + to_prepare
        if reach >= END_TRIGGER:
            what = "the game is over" if terminal else "its end is triggered"
            return (f"{what} with at most {most} discoveries completed, yet seat {seat} can "
                    f"still complete a {END_TRIGGER}th ({reach} tiles within reach)")
    return ""


CHECKS: dict[str, Callable[[Any, bool], str]] = {"legend_raiders": legend_raiders_end}
"""Per game: (state JSON as the engine writes it, is it terminal) → what is wrong, or ""."""


def check(game: str, doc: Any, terminal: bool) -> str:
    """What rule `doc` (a state of `game` as its engine encodes it) breaks, or ""."""
    found = CHECKS.get(game)
    return found(doc, terminal) if found is not None else ""

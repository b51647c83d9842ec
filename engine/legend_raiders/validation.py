"""Consistency checks of a decoded state; each failure names the JSON path and the reason.

Only public facts are used for checks that involve hidden cards, so an observer's view (with
placeholder cards) validates exactly when the full state does.
"""

from __future__ import annotations

from engine.jsonread import JsonReader
from engine.legend_raiders.components import CARD_DIE
from engine.legend_raiders.components import COMPONENTS as C
from engine.legend_raiders.rules import can_complete_any, may_hold_die_card
from engine.legend_raiders.state import (
    ACTION,
    BLIND_CARD,
    COMPLETE,
    DIE_CARD,
    DISCARD_TILE,
    DISCARD_TOOL,
    DRAW,
    EMPTY,
    FINISH,
    NO_FACE,
    OVER,
    REFILL,
    REFILL_TILE,
    REFILL_TOOL,
    REVEAL_CARD,
    ROLL,
    PlayerState,
    RaidersState,
)

FACE_COIN = 2
_EXTRA_TOOLS = max(C.tools_per_column, C.diceless_tools, 1)


def min_points(p: PlayerState) -> int:
    """The fewest points the player's completed tiles can have scored, in their order."""
    total = 0
    places = 0
    for k, tile in enumerate(p.completed):
        places += C.tile_coins[tile]
        # At least one discovery space is empty right after a completion.
        total += C.coins_per_empty_space + places + C.completed_coins_from(k + 1)
    return total


def _check_tools(s: RaidersState, root: JsonReader) -> None:
    for t, tool in enumerate(C.tool_ids):
        total = s.bag[t] + sum(p.tools[t] for p in s.players) + sum(c[t] for c in s.hq_tools)
        if total != C.tool_counts[t]:
            raise root.get("bag").fail(
                f"{tool}: {total} tokens in the game (players, HQ and bag), expected "
                f"{C.tool_counts[t]}"
            )


def _check_players(s: RaidersState, root: JsonReader) -> None:
    players_r = root.get("players").as_list()
    for seat, p in enumerate(s.players):
        r = players_r[seat]
        current = seat == s.seat and s.phase != OVER
        n_tools = sum(p.tools)
        if current and s.phase == DISCARD_TOOL and n_tools <= C.backpack_size:
            raise r.get("tools").fail("a tool discard is pending but the backpack is not over "
                                      "its limit")
        limit = C.backpack_size + (
            _EXTRA_TOOLS if current and s.phase in (DRAW, DISCARD_TOOL, DISCARD_TILE) else 0
        )
        if n_tools > limit:
            raise r.get("tools").fail(f"{n_tools} tools, at most {limit} allowed")
        if current and s.phase == DISCARD_TILE:
            if len(p.prepared) != C.max_prepared + 1:
                raise r.get("prepared").fail("a tile discard is pending but the player does "
                                             "not hold one tile too many")
        elif len(p.prepared) > C.max_prepared:
            raise r.get("prepared").fail(f"at most {C.max_prepared} prepared tiles")
        if p.points < min_points(p):
            raise r.get("points").fail(
                f"the completed tiles score at least {min_points(p)} points"
            )


def _check_turn(s: RaidersState, root: JsonReader, column: int, row_slot: int) -> None:
    turn = root.get("turn")
    phase = s.phase
    p = s.players[s.seat]
    n = len(s.players)
    if s.dice and phase == FINISH:
        raise turn.get("phase").fail("the finish step exists only in the diceless variant")
    if not s.dice and phase in (ROLL, DIE_CARD):
        raise turn.get("phase").fail("there is no die in the diceless variant")
    # The die.
    if not s.dice or phase in (ROLL, OVER):
        if s.die != NO_FACE:
            raise turn.get("die").fail("must be null now")
    elif s.die == NO_FACE:
        raise turn.get("die").fail("the die has been rolled: name its face")
    # The coin bonus.
    if s.dice:
        want = int(s.die == FACE_COIN and phase not in (ROLL, DIE_CARD, OVER))
        if s.coin_bonus != want:
            raise turn.get("coin_bonus").fail(f"must be {want} with this die face and phase")
    elif phase == OVER and s.coin_bonus:
        raise turn.get("coin_bonus").fail("must be 0 once the game is over")
    # Completions this turn.
    if s.done:
        if not (phase == COMPLETE or (phase in (DRAW, DISCARD_TOOL) and s.resume == COMPLETE)):
            raise turn.get("completed_this_turn").fail("completions happen only during an "
                                                       "expedition")
        if s.done > len(p.completed):
            raise turn.get("completed_this_turn").fail("more than the player's completed tiles")
    # What comes next.
    allowed_resume: tuple[int, ...] = ()
    if phase == DRAW:
        allowed_resume = (ACTION,) if s.dice else (ACTION, COMPLETE, FINISH)
    elif phase == DISCARD_TOOL:
        allowed_resume = (ACTION, REFILL) if s.dice else (ACTION, COMPLETE, FINISH, REFILL)
    elif phase == DISCARD_TILE:
        allowed_resume = (REFILL,)
    if (s.resume == EMPTY) != (not allowed_resume) or (
        allowed_resume and s.resume not in allowed_resume
    ):
        raise turn.get("then").fail("does not fit the phase")
    if s.dice and phase == DRAW and s.die != 0:
        raise turn.get("die").fail("a tool is drawn only when the die shows the tool")
    # Tool draws.
    if phase in (DRAW, REFILL_TOOL):
        if not 1 <= s.draws <= sum(s.bag):
            raise turn.get("tool_draws_left").fail("must be between 1 and the tools in the bag")
    elif s.draws:
        raise turn.get("tool_draws_left").fail("must be 0 in this phase")
    # The HQ column being taken and refilled.
    hq_phase = phase in (DISCARD_TILE, REFILL_TILE, REFILL_TOOL) or (
        phase == DISCARD_TOOL and s.resume == REFILL
    )
    if hq_phase != (column != EMPTY):
        raise turn.get("column").fail(
            "names the HQ column being refilled" if hq_phase else "must be null in this phase"
        )
    if hq_phase:
        if phase != REFILL_TOOL and (s.hq_tiles[column] != EMPTY or any(s.hq_tools[column])):
            raise turn.get("column").fail("this HQ column is not empty")
        if phase == REFILL_TOOL and sum(s.hq_tools[column]) + s.draws > C.tools_per_column:
            raise turn.get("tool_draws_left").fail("too many tools for this column")
    if (phase == REVEAL_CARD) != (row_slot != EMPTY):
        raise turn.get("row_slot").fail("names the face-up slot being refilled only while a "
                                        "card is revealed")
    if phase == REVEAL_CARD and s.row[row_slot] != EMPTY:
        raise turn.get("row_slot").fail("this face-up slot is not empty")
    if phase == REFILL_TILE and not s.stack:
        raise turn.get("phase").fail("the Discovery stack is empty")
    if phase in (REVEAL_CARD, BLIND_CARD) and not s.deck:
        raise turn.get("phase").fail("the Expedition deck is empty")
    if phase == DIE_CARD and not may_hold_die_card(p):
        raise turn.get("phase").fail("the player cannot hold a Die card")
    if phase == FINISH and not may_hold_die_card(p):
        raise turn.get("phase").fail("the player cannot hold a Die card")
    if phase == COMPLETE and not (
        (s.done < C.completions_per_turn and can_complete_any(p))
        or (not s.dice and may_hold_die_card(p))
    ):
        raise turn.get("phase").fail("nothing can be completed: the turn would be over")
    if phase == OVER:
        if not s.ending:
            raise root.get("end_triggered").fail("the game is over but its end was not "
                                                 "triggered")
        if (s.seat + 1) % n != s.first:
            raise turn.get("player").fail("the game ends after the last player of the round")


def _check_board(s: RaidersState, root: JsonReader, column: int) -> None:
    hq_r = root.get("hq").as_list()
    refilled = column
    for c, tile in enumerate(s.hq_tiles):
        if tile == EMPTY and s.stack and c != refilled:
            raise hq_r[c].get("tile").fail("empty while the Discovery stack still has tiles")
    row_r = root.get("row").as_list()
    for k, card in enumerate(s.row):
        if card == EMPTY and s.deck and s.dice and not (s.phase == REVEAL_CARD and k == s.column):
            raise row_r[k].fail("empty while the Expedition deck still has cards")
    if s.removed_cards:
        if not s.dice:
            raise root.get("removed_cards").fail("Die cards return to the deck in the diceless "
                                                 "variant")
        for j in range(len(C.card_ids)):
            if s.removed_cards >> j & 1 and C.card_kind[j] != CARD_DIE:
                raise root.get("removed_cards").fail(f"{C.card_ids[j]} is not a Die card")
    most = max(len(p.completed) for p in s.players)
    exhausted = not s.stack and all(t == EMPTY for t in s.hq_tiles)
    if most >= C.end_trigger and not s.ending:
        raise root.get("end_triggered").fail(f"a player has completed {most} discoveries")
    if s.ending and most < C.end_trigger and not exhausted:
        raise root.get("end_triggered").fail("no player has completed enough discoveries and "
                                             "tiles remain")


def check_state(s: RaidersState, root: JsonReader, column: int, row_slot: int) -> None:
    """Raise InvalidStateError (with the JSON path) unless `s` is a possible state."""
    _check_tools(s, root)
    _check_players(s, root)
    _check_turn(s, root, column, row_slot)
    _check_board(s, root, column)

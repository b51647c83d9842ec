"""Consistency checks of a decoded state; each failure names the JSON path and the reason.

Only public facts are used for checks that involve hidden cards, so an observer's view (with
placeholder cards) validates exactly when the full state does.
"""

from __future__ import annotations

from boardbot.engine.jsonread import JsonReader
from boardbot.engine.legend_raiders.bounds import COIN_BONUS_MAX, N_DIE_CARDS
from boardbot.engine.legend_raiders.components import CARD_DIE
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.rules import (
    can_complete_any,
    can_reach_end,
    may_hold_die_card,
    tiles_to_prepare,
)
from boardbot.engine.legend_raiders.state import (
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

FACE_TOOL, FACE_COIN = 0, 2
DICE_TOOL_DRAWS = 1  # the die's Tool face draws one tool


def max_coin_bonus(dice: bool) -> int:
    """The largest per-discovery bonus a turn can give.

    The die shows one face. Without the die each Die card used adds 1; a player can use every
    Die card held and then, having taken one card this turn, possibly a returned one again.
    """
    return 1 if dice else COIN_BONUS_MAX


def min_points(p: PlayerState) -> int:
    """The fewest points the player's completed tiles can have scored, in their order."""
    total = 0
    places = 0
    for k, tile in enumerate(p.completed):
        places += C.tile_coins[tile]
        # At least one discovery space is empty right after a completion.
        total += C.coins_per_empty_space + places + C.completed_coins_from(k + 1)
    return total


def max_points(p: PlayerState, dice: bool) -> int:
    """The most points the player's completed tiles can have scored, in their order.

    Points are only scored by completions: each at most every discovery space empty, the coins
    of the completed spaces and Places, every favourite tool of the cost paid with tokens, and
    the largest coin bonus.
    """
    total = 0
    places = 0
    favourite = C.board_favourite[p.board]
    for k, tile in enumerate(p.completed):
        places += C.tile_coins[tile]
        total += (
            C.discovery_spaces * C.coins_per_empty_space + places + C.completed_coins_from(k + 1)
            + C.tile_cost[tile][favourite] + max_coin_bonus(dice)
        )
    return total


def tool_limit(s: RaidersState) -> int:
    """The most tools the player to move may hold in this phase (over 6 only while gaining)."""
    phase = s.phase
    gained = 0
    if phase == DRAW:
        # Tools drawn so far in this sequence: the sequence's size minus the draws left.
        gained = (DICE_TOOL_DRAWS if s.dice else C.diceless_tools) - s.draws
    elif phase == DISCARD_TILE or (phase == DISCARD_TOOL and s.resume == REFILL):
        gained = C.tools_per_column
    elif phase == DISCARD_TOOL:
        gained = DICE_TOOL_DRAWS if s.dice else C.diceless_tools
    return C.backpack_size + max(gained, 0)


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
        limit = tool_limit(s) if current else C.backpack_size
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
        if p.points > max_points(p, s.dice):
            raise r.get("points").fail(
                f"the completed tiles score at most {max_points(p, s.dice)} points"
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
    elif s.coin_bonus > max_coin_bonus(False):
        raise turn.get("coin_bonus").fail(
            f"at most {max_coin_bonus(False)}: one per Die card used this turn"
        )
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
    tool_face_step = phase == DRAW or (phase == DISCARD_TOOL and s.resume == ACTION)
    if s.dice and tool_face_step and s.die != FACE_TOOL:
        raise turn.get("die").fail("a tool is drawn only when the die shows the tool")
    if s.dice and phase == DRAW and s.draws != DICE_TOOL_DRAWS:
        raise turn.get("tool_draws_left").fail(f"the die's Tool face draws {DICE_TOOL_DRAWS}")
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
        if phase == REFILL_TOOL:
            # The refill draws 2 tools, or all the bag held when it started.
            placed = sum(s.hq_tools[column])
            want = min(C.tools_per_column, sum(s.bag) + placed)
            if placed + s.draws != want:
                raise turn.get("tool_draws_left").fail(
                    f"the column gets {want} tools: {want - placed} still to draw"
                )
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
    if phase != OVER and len(p.completed) - s.done >= C.end_trigger:
        raise root.get("players").child(s.seat).get("completed").fail(
            f"{C.end_trigger} discoveries completed before this turn: the round that followed "
            "would have ended the game before this player's turn"
        )
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
        if card == EMPTY and s.deck and not (s.phase == REVEAL_CARD and k == s.column):
            if s.dice:
                raise row_r[k].fail("empty while the Expedition deck still has cards")
            # Diceless: a slot stays empty once the deck ran out; after that only used Die
            # cards go back into the deck (counted from public facts, as views hide the deck).
            deck_r = root.get("deck")
            if isinstance(deck_r.value, list):
                for i, name in enumerate(deck_r.value):
                    if C.card_kind[C.card_ids.index(name)] != CARD_DIE:
                        raise deck_r.child(i).fail(
                            "a face-up slot is empty, so the deck holds only used Die cards"
                        )
            # A view hides the deck: count the Die cards it can still hold from what is listed.
            unseen_die = N_DIE_CARDS - _visible_die_cards(s) - _listed_blind_die_cards(s, root)
            if s.deck.bit_count() > unseen_die:
                raise deck_r.fail(
                    f"a face-up slot is empty, so the deck holds only used Die cards: at most "
                    f"{unseen_die}"
                )
    if s.removed_cards:
        if not s.dice:
            raise root.get("removed_cards").fail("Die cards return to the deck in the diceless "
                                                 "variant")
        for j in range(len(C.card_ids)):
            if s.removed_cards >> j & 1 and C.card_kind[j] != CARD_DIE:
                raise root.get("removed_cards").fail(f"{C.card_ids[j]} is not a Die card")
    _check_end_trigger(s, root)
    before_action = s.phase in (ROLL, DIE_CARD, ACTION) or (
        s.phase in (DRAW, DISCARD_TOOL) and s.resume == ACTION
    )
    if s.ending and s.seat == s.first and before_action:
        # Only a completion during this turn could have triggered the end now; an earlier
        # trigger finished the round before the first player's turn came again.
        raise root.get("end_triggered").fail("the round is over: the game should have ended")


def _check_end_trigger(s: RaidersState, root: JsonReader) -> None:
    """`end_triggered` must agree with the completed tiles and who can still reach 6.

    A trigger while someone can still reach 6 is refused even with no tile left to prepare
    (the former idle-round ending wrote such states): the rules end the game only on a 6th
    discovery or once it is out of everyone's reach. It is not recomputed instead, as the
    out-of-reach trigger is set when a turn ends, so the flag is not a function of the state.
    """
    most = max(len(p.completed) for p in s.players)
    if most >= C.end_trigger and not s.ending:
        raise root.get("end_triggered").fail(f"a player has completed {most} discoveries")
    if not s.ending or most >= C.end_trigger:
        return
    to_prepare = tiles_to_prepare(s)
    for seat, p in enumerate(s.players):
        if can_reach_end(p, to_prepare):
            raise root.get("end_triggered").fail(
                f"no player has completed {C.end_trigger} discoveries and seat {seat} can still "
                "get there"
            )


def _visible_die_cards(s: RaidersState) -> int:
    """Die cards everyone can see: in the face-up row or taken from it."""
    visible = sum(1 for j in s.row if j != EMPTY and C.card_kind[j] == CARD_DIE)
    for p in s.players:
        visible += sum(1 for j in p.known if C.card_kind[j] == CARD_DIE)
    return visible


def _listed_blind_die_cards(s: RaidersState, root: JsonReader) -> int:
    """Die cards in the blind hands the document lists (a view lists only its observer's)."""
    listed = 0
    for p, r in zip(s.players, root.get("players").as_list(), strict=True):
        if isinstance(r.value.get("cards_blind"), list):
            listed += sum(1 for j in p.blind if C.card_kind[j] == CARD_DIE)
    return listed


def check_state(s: RaidersState, root: JsonReader, column: int, row_slot: int) -> None:
    """Raise InvalidStateError (with the JSON path) unless `s` is a possible state."""
    _check_tools(s, root)
    _check_players(s, root)
    _check_turn(s, root, column, row_slot)
    _check_board(s, root, column)

"""The Legend Raiders rules: who is to move, legal actions and state transitions (the hot path,
no validation)."""

from __future__ import annotations

from boardbot.engine.api import CHANCE, TERMINAL
from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders.bounds import COIN_BONUS_MAX
from boardbot.engine.legend_raiders.components import CARD_DIE
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import (
    ACTION,
    BLIND_CARD,
    CHANCE_PHASES,
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

N_TOOLS = A.N_TOOLS
TOOL_RANGE = range(N_TOOLS)
NO_TOOLS = (0,) * N_TOOLS
TILE_COST = C.tile_cost
TILE_COST_TYPES = tuple(tuple(t for t in TOOL_RANGE if cost[t]) for cost in TILE_COST)
TILE_COINS = C.tile_coins
FAVOURITE = C.board_favourite
MAX_PREPARED = C.max_prepared
BACKPACK = C.backpack_size
SPACE_COINS = C.coins_per_empty_space
COMPLETED_COINS_FROM = tuple(C.completed_coins_from(k) for k in range(len(C.tile_ids) + 1))
COMPLETIONS_PER_TURN = C.completions_per_turn
END_TRIGGER = C.end_trigger
TOOLS_PER_COLUMN = C.tools_per_column
DICELESS_TOOLS = C.diceless_tools
IS_DIE_CARD = tuple(k == CARD_DIE for k in C.card_kind)
DIE_CARDS = tuple(j for j, k in enumerate(C.card_kind) if k == CARD_DIE)
FACE_TOOL, FACE_TORCH, FACE_COIN = 0, 1, 2
COMPLETE_BASE = A.COMPLETE_BASE
TORCH_OPTIONS = A.TORCH_OPTIONS

_KIND = A.ACTION_KIND
_ARG = A.ACTION_ARG
_ARG2 = A.ACTION_ARG2


# ---------------------------------------------------------------- helpers on players


def holds_die_card(p: PlayerState) -> bool:
    """True when the player really holds a Die card."""
    for j in p.known:
        if IS_DIE_CARD[j]:
            return True
    return any(IS_DIE_CARD[j] for j in p.blind)


def may_hold_die_card(p: PlayerState) -> bool:
    """True when everyone can see the player might hold a Die card (a known one, or any blind)."""
    if p.blind:
        return True
    return any(IS_DIE_CARD[j] for j in p.known)


def die_card_to_use(p: PlayerState) -> tuple[PlayerState, int]:
    """The player without the Die card they use (a known one first) and that card."""
    for j in p.known:
        if IS_DIE_CARD[j]:
            return p._replace(known=tuple(x for x in p.known if x != j)), j
    for j in p.blind:
        if IS_DIE_CARD[j]:
            return p._replace(blind=tuple(x for x in p.blind if x != j)), j
    raise ValueError("the player holds no Die card")


def visible_coins(prepared: int, completed: tuple[int, ...]) -> int:
    """Coins visible on a board with `prepared` tiles waiting and `completed` tiles done."""
    coins = (MAX_PREPARED - prepared) * SPACE_COINS + COMPLETED_COINS_FROM[len(completed)]
    for i in completed:
        coins += TILE_COINS[i]
    return coins


def can_complete_any(p: PlayerState) -> bool:
    """True when at least one prepared tile can be paid (tools, or tools and the lit torch)."""
    tools = p.tools
    for i in p.prepared:
        short = 0
        for t, need in enumerate(TILE_COST[i]):
            if need > tools[t]:
                short += need - tools[t]
        if short == 0 or (short == 1 and p.torch):
            return True
    return False


def deck_holds_only_die_cards(s: RaidersState) -> bool:
    """True when the deck can hold only used Die cards (diceless, after it once ran out).

    A face-up slot stays empty once the deck has run out; from then on the only cards that go
    back into the deck are the Die cards players use, so every card in it is a Die card.
    """
    if s.dice:
        return False
    refilling = s.column if s.phase == REVEAL_CARD else EMPTY
    return any(card == EMPTY and k != refilling for k, card in enumerate(s.row))


def tiles_to_prepare(s: RaidersState) -> int:
    """Discovery tiles anyone may still prepare: on the Headquarters and in the stack."""
    return s.stack.bit_count() + sum(1 for t in s.hq_tiles if t >= 0)


def can_reach_end(p: PlayerState, to_prepare: int) -> bool:
    """True while the player can still complete a 6th discovery.

    That is while their completed and prepared tiles and every tile still to prepare add up to
    the end trigger; tools never stop it, as spent tools go back to the bag.
    """
    return len(p.completed) + len(p.prepared) + to_prepare >= END_TRIGGER


def end_out_of_reach(s: RaidersState) -> bool:
    """True when no player can ever complete a 6th discovery (the rules are silent then).

    The engine then finishes the round as if the end had been triggered. Tiles only ever leave
    a player's reach, so once true this stays true.
    """
    to_prepare = tiles_to_prepare(s)
    return not any(can_reach_end(p, to_prepare) for p in s.players)


def _with_player(s: RaidersState, seat: int, p: PlayerState) -> tuple[PlayerState, ...]:
    players = list(s.players)
    players[seat] = p
    return tuple(players)


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def _add_tool(values: tuple[int, ...], t: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[t] += delta
    return tuple(out)


# ---------------------------------------------------------------- legal actions


def _die_effects(s: RaidersState, p: PlayerState, acts: list[int]) -> None:
    """Diceless: the Die-card effects that would change something now."""
    if not holds_die_card(p):
        return
    if sum(s.bag):
        acts.append(A.DIE_BASE + FACE_TOOL)
    if not p.torch:
        acts.append(A.DIE_BASE + FACE_TORCH)
    # A real turn never reaches COIN_BONUS_MAX with a Die card left; a hand-made state might.
    coin_phase = s.phase == ACTION or (s.phase == COMPLETE and s.done < COMPLETIONS_PER_TURN)
    if coin_phase and s.coin_bonus < COIN_BONUS_MAX:
        acts.append(A.DIE_BASE + FACE_COIN)


def _completions(p: PlayerState, acts: list[int]) -> None:
    tools = p.tools
    torch = p.torch
    for i in p.prepared:
        cost = TILE_COST[i]
        short = 0
        missing = -1
        for t in TOOL_RANGE:
            if cost[t] > tools[t]:
                short += cost[t] - tools[t]
                missing = t
        base = COMPLETE_BASE + i * TORCH_OPTIONS
        if short == 0:
            acts.append(base)
            if torch:
                for t in TILE_COST_TYPES[i]:
                    acts.append(base + 1 + t)
        elif short == 1 and torch:
            acts.append(base + 1 + missing)


def legal_actions(s: RaidersState) -> list[int]:
    """The current player's legal decisions (empty at chance and terminal states)."""
    phase = s.phase
    if phase == ACTION:
        acts = [c for c in range(A.N_COLUMNS) if s.hq_tiles[c] >= 0 or any(s.hq_tools[c])]
        any_card = False
        for k, card in enumerate(s.row):
            if card >= 0:
                acts.append(A.ROW_BASE + k)
                any_card = True
        if s.deck:
            acts.append(A.TAKE_DECK_ACTION)
        elif not any_card:
            acts.append(A.NO_CARD_ACTION)
        if not s.dice:
            _die_effects(s, s.players[s.seat], acts)
        return acts
    if phase == COMPLETE:
        p = s.players[s.seat]
        acts = []
        if s.done < COMPLETIONS_PER_TURN:
            _completions(p, acts)
        if not s.dice:
            _die_effects(s, p, acts)
        acts.append(A.STOP_ACTION)
        return acts
    if phase == DISCARD_TOOL:
        tools = s.players[s.seat].tools
        return [A.DISCARD_TOOL_BASE + t for t in TOOL_RANGE if tools[t]]
    if phase == DISCARD_TILE:
        return [A.DISCARD_TILE_BASE + i for i in s.players[s.seat].prepared]
    if phase == DIE_CARD:
        acts = [A.KEEP_ROLL_ACTION]
        if holds_die_card(s.players[s.seat]):
            acts.extend(A.DIE_BASE + f for f in range(3) if f != s.die)
        return acts
    if phase == FINISH:
        acts = []
        _die_effects(s, s.players[s.seat], acts)
        acts.append(A.STOP_ACTION)
        return acts
    return []


# ---------------------------------------------------------------- transitions


def _end_turn(s: RaidersState) -> RaidersState:
    ending = s.ending or end_out_of_reach(s)
    nxt = (s.seat + 1) % len(s.players)
    if ending and nxt == s.first:
        return s._replace(
            phase=OVER, die=NO_FACE, coin_bonus=0, done=0, column=EMPTY, draws=0,
            resume=EMPTY, ending=True,
        )
    return s._replace(
        seat=nxt, phase=ROLL if s.dice else ACTION, die=NO_FACE, coin_bonus=0, done=0,
        column=EMPTY, draws=0, resume=EMPTY, ending=ending,
    )


def _enter(s: RaidersState, phase: int) -> RaidersState:
    """Continue the turn at `phase`, skipping a step that offers no real choice."""
    if phase == COMPLETE:
        p = s.players[s.seat]
        if (s.done < COMPLETIONS_PER_TURN and can_complete_any(p)) or (
            not s.dice and may_hold_die_card(p)
        ):
            return s._replace(phase=COMPLETE, draws=0, resume=EMPTY)
        return _end_turn(s)
    if phase == REFILL:
        return _start_refill(s)
    if phase == FINISH:
        if not s.dice and may_hold_die_card(s.players[s.seat]):
            return s._replace(phase=FINISH, draws=0, resume=EMPTY)
        return _end_turn(s)
    return s._replace(phase=phase, draws=0, resume=EMPTY)


def _start_refill(s: RaidersState) -> RaidersState:
    if s.stack:
        return s._replace(phase=REFILL_TILE, draws=0, resume=EMPTY)
    return _refill_tools(s)


def _refill_tools(s: RaidersState) -> RaidersState:
    n = min(TOOLS_PER_COLUMN, sum(s.bag))
    if n:
        return s._replace(phase=REFILL_TOOL, draws=n, resume=EMPTY)
    return _enter(s._replace(column=EMPTY), FINISH)


def _apply_face(s: RaidersState, face: int) -> RaidersState:
    if face == FACE_TOOL:
        if sum(s.bag):
            return s._replace(die=face, phase=DRAW, draws=1, resume=ACTION)
        return s._replace(die=face, phase=ACTION)
    if face == FACE_TORCH:
        players = tuple(p._replace(torch=not p.torch) for p in s.players)
        return s._replace(die=face, phase=ACTION, players=players)
    return s._replace(die=face, phase=ACTION, coin_bonus=1)


def _after_tools_gained(s: RaidersState, p: PlayerState) -> RaidersState:
    if sum(p.tools) > BACKPACK:
        return s._replace(phase=DISCARD_TOOL, draws=0)
    return _enter(s, s.resume)


def _use_die_card(s: RaidersState, effect: int) -> RaidersState:
    """Diceless: discard a Die card (back into the deck) for one effect."""
    seat = s.seat
    p, card = die_card_to_use(s.players[seat])
    deck = s.deck | (1 << card)
    if effect == FACE_TOOL:
        n = min(DICELESS_TOOLS, sum(s.bag))
        return s._replace(
            players=_with_player(s, seat, p), deck=deck, phase=DRAW, draws=n, resume=s.phase
        )
    if effect == FACE_TORCH:
        p = p._replace(torch=True)
        return _enter(s._replace(players=_with_player(s, seat, p), deck=deck), s.phase)
    return _enter(
        s._replace(players=_with_player(s, seat, p), deck=deck, coin_bonus=s.coin_bonus + 1),
        s.phase,
    )


def _complete(s: RaidersState, tile: int, option: int) -> RaidersState:
    seat = s.seat
    p = s.players[seat]
    pay = TILE_COST[tile]
    torch = p.torch
    if option:
        pay = _add_tool(pay, option - 1, -1)
        torch = False
    tools = tuple(a - b for a, b in zip(p.tools, pay, strict=True))
    bag = tuple(a + b for a, b in zip(s.bag, pay, strict=True))
    prepared = tuple(x for x in p.prepared if x != tile)
    completed = (*p.completed, tile)
    gained = visible_coins(len(prepared), completed) + pay[FAVOURITE[p.board]] + s.coin_bonus
    p = PlayerState(
        p.board, tools, prepared, completed, torch, p.points + gained, p.known, p.blind
    )
    s = s._replace(
        players=_with_player(s, seat, p),
        bag=bag,
        done=s.done + 1,
        ending=s.ending or len(completed) >= END_TRIGGER,
    )
    return _enter(s, COMPLETE)


def _prepare(s: RaidersState, column: int) -> RaidersState:
    seat = s.seat
    p = s.players[seat]
    tile = s.hq_tiles[column]
    prepared = p.prepared if tile < 0 else tuple(sorted((*p.prepared, tile)))
    tools = tuple(a + b for a, b in zip(p.tools, s.hq_tools[column], strict=True))
    p = p._replace(prepared=prepared, tools=tools)
    hq_tools = list(s.hq_tools)
    hq_tools[column] = NO_TOOLS
    s = s._replace(
        players=_with_player(s, seat, p),
        hq_tiles=_set(s.hq_tiles, column, EMPTY),
        hq_tools=tuple(hq_tools),
        column=column,
    )
    if len(prepared) > MAX_PREPARED:
        return s._replace(phase=DISCARD_TILE, resume=REFILL)
    if sum(tools) > BACKPACK:
        return s._replace(phase=DISCARD_TOOL, resume=REFILL)
    return _start_refill(s)


def apply(s: RaidersState, action: int) -> RaidersState:
    """The state after `action` (decision or chance outcome); `action` must be legal."""
    kind = _KIND[action]
    arg = _ARG[action]
    seat = s.seat
    if kind == A.DRAW_TOOL:
        if s.phase == REFILL_TOOL:
            hq_tools = list(s.hq_tools)
            hq_tools[s.column] = _add_tool(hq_tools[s.column], arg, 1)
            s = s._replace(hq_tools=tuple(hq_tools), bag=_add_tool(s.bag, arg, -1),
                           draws=s.draws - 1)
            if s.draws:
                return s
            return _enter(s._replace(column=EMPTY), FINISH)
        p = s.players[seat]
        p = p._replace(tools=_add_tool(p.tools, arg, 1))
        s = s._replace(
            players=_with_player(s, seat, p), bag=_add_tool(s.bag, arg, -1), draws=s.draws - 1
        )
        if s.draws and sum(s.bag):
            return s
        return _after_tools_gained(s, p)
    if kind == A.COMPLETE:
        return _complete(s, arg, _ARG2[action])
    if kind == A.STOP:
        return _end_turn(s)
    if kind == A.PREPARE:
        return _prepare(s, arg)
    if kind == A.TAKE_ROW:
        p = s.players[seat]
        card = s.row[arg]
        p = p._replace(known=tuple(sorted((*p.known, card))))
        s = s._replace(players=_with_player(s, seat, p), row=_set(s.row, arg, EMPTY))
        if s.deck:
            return s._replace(phase=REVEAL_CARD, column=arg)
        return _enter(s, COMPLETE)
    if kind == A.REVEAL_CARD:
        if s.phase == BLIND_CARD:
            p = s.players[seat]
            p = p._replace(blind=tuple(sorted((*p.blind, arg))))
            s = s._replace(players=_with_player(s, seat, p), deck=s.deck & ~(1 << arg))
            return _enter(s, COMPLETE)
        s = s._replace(row=_set(s.row, s.column, arg), deck=s.deck & ~(1 << arg), column=EMPTY)
        return _enter(s, COMPLETE)
    if kind == A.TAKE_DECK:
        return s._replace(phase=BLIND_CARD)
    if kind == A.NO_CARD:
        return _enter(s, COMPLETE)
    if kind == A.REVEAL_TILE:
        s = s._replace(
            hq_tiles=_set(s.hq_tiles, s.column, arg), stack=s.stack & ~(1 << arg)
        )
        return _refill_tools(s)
    if kind == A.DISCARD_TOOL:
        p = s.players[seat]
        p = p._replace(tools=_add_tool(p.tools, arg, -1))
        s = s._replace(players=_with_player(s, seat, p), bag=_add_tool(s.bag, arg, 1))
        if sum(p.tools) > BACKPACK:
            return s
        return _enter(s, s.resume)
    if kind == A.DISCARD_TILE:
        p = s.players[seat]
        p = p._replace(prepared=tuple(x for x in p.prepared if x != arg))
        s = s._replace(players=_with_player(s, seat, p), removed_tiles=s.removed_tiles | (1 << arg))
        if sum(p.tools) > BACKPACK:
            return s._replace(phase=DISCARD_TOOL)
        return _start_refill(s)
    if kind == A.ROLL_FACE:
        if may_hold_die_card(s.players[seat]):
            return s._replace(die=arg, phase=DIE_CARD)
        return _apply_face(s, arg)
    if kind == A.KEEP_ROLL:
        return _apply_face(s, s.die)
    if kind == A.DIE_CARD:
        if s.dice:
            p, card = die_card_to_use(s.players[seat])
            s = s._replace(
                players=_with_player(s, seat, p), removed_cards=s.removed_cards | (1 << card)
            )
            return _apply_face(s, arg)
        return _use_die_card(s, arg)
    raise ValueError(f"unknown action {action}")


def num_players(s: RaidersState) -> int:
    """Number of seats."""
    return len(s.players)


def current_player(s: RaidersState) -> int:
    """The seat to decide, CHANCE at a chance step, TERMINAL when the game is over."""
    phase = s.phase
    if phase == OVER:
        return TERMINAL
    if phase in CHANCE_PHASES:
        return CHANCE
    return s.seat


def is_terminal(s: RaidersState) -> bool:
    """True once the game is over."""
    return s.phase == OVER

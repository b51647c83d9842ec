"""Features of a seat's view and of its decisions (the twin of Rust's `features.rs`).

`features(state, seat)` is a fixed-length vector of `feature_size(P)` values, each computed in
f64 with the same arithmetic in the Python and the native engine (the native one stores them as
f32), scaled to about [0, 1]. It reads only what `seat` may know: other players' blind cards
only as a count, the Expedition deck and the cards nobody has placed only as the set of cards
`seat` has not seen (the deck plus the other players' blind hands, which every determinization
keeps). Offsets below are those of the shipped component set (4 tools, 5 symbols, 28 tiles,
28 cards of which 16 Missions, 4 HQ columns, 4 face-up slots); every size follows from the
component data.

Global block (199 values):

| offset | size | value |
|---|---|---|
| 0 | 13 | phase one-hot (state.py numbering; chance steps and `over` included) |
| 13 | 1 | 1 in the standard game (die), 0 in the diceless variant |
| 14 | 3 | number of players one-hot (2, 3, 4) |
| 17 | 4 | seat to play relative to the viewer one-hot ((seat - viewer) % P) |
| 21 | 4 | first player relative to the viewer one-hot |
| 25 | 3 | die face one-hot (tool, torch, coin; all 0 before the roll or diceless) |
| 28 | 1 | coin bonus / 3 |
| 29 | 1 | discoveries completed this turn / completions per turn (3) |
| 30 | 1 | tool draws pending / 2 |
| 31 | 4 | resume one-hot: action, refill, complete, finish (all 0 when none) |
| 35 | 4 | HQ column / face-up slot being refilled one-hot (all 0 when none) |
| 39 | 1 | 1 when the end is triggered (the round is being finished) |
| 40 | 1 | tiles still to prepare (HQ + stack) / tiles (28) |
| 41 | 1 | lead: 0.5 + (estimate(viewer) - best other estimate) / 40, clipped to [0, 1] |
| 42 | 60 | HQ columns, 15 values each (below) |
| 102 | 4 | bag: tools per type / that type's count in the game (9) |
| 106 | 1 | Discovery stack size / tiles (28) |
| 107 | 5 | stack tiles per symbol / tiles of that symbol in the game |
| 112 | 64 | face-up slots, 16 values each (below) |
| 176 | 1 | Expedition deck size / cards (28) |
| 177 | 1 | 1 when the deck can hold only used Die cards (diceless, after it ran out) |
| 178 | 3 | cards unseen by the viewer (deck + others' blind cards) per kind / count in the game |
| 181 | 16 | per Mission card (card order): 1 when unseen by the viewer |
| 197 | 1 | Die cards used out of the game / Die cards (4) |
| 198 | 1 | tiles discarded out of the game / tiles (28) |

An HQ column (15 values):

| offset | size | value |
|---|---|---|
| 0 | 1 | the column has a tile |
| 1 | 5 | its symbol one-hot |
| 6 | 4 | its cost per tool / 2 |
| 10 | 1 | its coins (a Place's back) |
| 11 | 4 | the column's tools per type / 2 |

A face-up slot (16 values):

| offset | size | value |
|---|---|---|
| 0 | 1 | the slot has a card |
| 1 | 3 | its kind one-hot (die, discovery, mission) |
| 4 | 5 | a Discovery card's symbol one-hot |
| 9 | 5 | a Mission's required symbols / 3 |
| 14 | 1 | a Mission's points / 8 |
| 15 | 1 | share of a Mission's symbols the viewer holds (completed, prepared, own Discovery) |

Then one block of 59 values per seat, rotated: block k (offset 199 + 59 k) is seat
(viewer + k) % P. A seat's "visible cards" are its face-up-taken cards, plus its blind cards
for the viewer's own block (block 0) only.

| offset | size | value |
|---|---|---|
| 0 | 4 | favourite tool one-hot (from the character board) |
| 4 | 4 | backpack: tools per type / 6 |
| 8 | 1 | backpack total / 6 |
| 9 | 1 | torch lit |
| 10 | 1 | points scored in play / 50 |
| 11 | 1 | prepared tiles / 3 |
| 12 | 5 | prepared tiles per symbol / 3 |
| 17 | 4 | prepared tiles' total cost per tool / 6 |
| 21 | 1 | prepared tiles payable with tools alone / 3 |
| 22 | 1 | prepared tiles payable now (tools, or tools and the lit torch) / 3 |
| 23 | 1 | tools missing to pay every prepared tile (no torch) / 9 |
| 24 | 1 | completed tiles / end trigger (6) |
| 25 | 5 | completed tiles per symbol / 6 |
| 30 | 1 | coins visible on the board / 10 |
| 31 | 1 | 1 while the seat can still complete a 6th discovery |
| 32 | 1 | blind cards held / 8 (every seat: the count is public) |
| 33 | 1 | visible Die cards / Die cards (4) |
| 34 | 1 | 1 when the seat may hold a Die card (a known one, or any blind card) |
| 35 | 5 | symbols for Missions (completed tiles + visible Discovery cards) / 6 |
| 40 | 1 | points of the visible Missions met / 40 |
| 41 | 1 | visible Missions' worth (met in full, unmet by share of symbols, as heuristics) / 40 |
| 42 | 16 | per Mission card (card order): 1 when among the seat's visible cards |
| 58 | 1 | estimate / 60 (heuristics.estimate over the visible cards only) |

feature_size(P) = 199 + 59 P: 317, 376, 435 for 2, 3, 4 players.

Action features (`action_feature_size()` = 228 indices; a decision activates a few):

| offset | size | index of |
|---|---|---|
| 0 | 187 | the decision's action id (every id below `ROLL_BASE`) |
| 187 | 14 | the action kind (actions.py kinds, chance kinds included) |
| 201 | 5 | complete a tile of symbol s |
| 206 | 1 | complete using the torch |
| 207 | 5 | prepare a column whose tile has symbol s |
| 212 | 1 | prepare a column with no tile |
| 213 | 3 | take a face-up card of kind k (die, discovery, mission) |
| 216 | 5 | discard a prepared tile of symbol s |
| 221 | 1 | discard a tool of the player's favourite type |
| 222 | 6 | a Die card's face (standard game: 0-2) or effect (diceless: 3-5) |

Chance outcomes are never decisions: their action features are only their kind's index (an id
outside the action numbering gives none). Indices come out ascending.
"""

from __future__ import annotations

from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders.components import (
    CARD_DIE,
    CARD_DISCOVERY,
    CARD_KINDS,
    CARD_MISSION,
    FACE_KINDS,
)
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.rules import deck_holds_only_die_cards, visible_coins
from boardbot.engine.legend_raiders.state import (
    ACTION,
    COMPLETE,
    EMPTY,
    FINISH,
    PHASE_NAMES,
    REFILL_TILE,
    PlayerState,
    RaidersState,
)

FEATURES_VERSION = 1
"""Version of this feature definition (bumped on any change; models record it)."""

N_TOOLS = len(C.tool_ids)
N_SYMBOLS = len(C.symbols)
N_TILES = len(C.tile_ids)
N_CARDS = len(C.card_ids)
N_COLUMNS = C.hq_columns
N_ROW = C.face_up_cards
N_FACES = len(FACE_KINDS)
N_PHASES = len(PHASE_NAMES)
MAX_PLAYERS = 4
MISSIONS = tuple(j for j in range(N_CARDS) if C.card_kind[j] == CARD_MISSION)
N_MISSIONS = len(MISSIONS)
DIE_CARDS = tuple(j for j in range(N_CARDS) if C.card_kind[j] == CARD_DIE)
KIND_COUNTS = tuple(
    max(1, sum(1 for k in C.card_kind if k == kind)) for kind in range(len(CARD_KINDS))
)
SYMBOL_TILES = tuple(max(1, sum(1 for x in C.tile_symbol if x == sym)) for sym in range(N_SYMBOLS))
RESUMES = (ACTION, REFILL_TILE, COMPLETE, FINISH)

# Scales (every value is divided by one of these; all but the first few from the data file).
COIN_BONUS_SCALE = 3
DRAWS_SCALE = max(1, C.tools_per_column, C.diceless_tools)
COLUMN_TOOLS_SCALE = max(1, C.tools_per_column)
DIE_CARDS_SCALE = max(1, len(DIE_CARDS))
COST_SCALE = max(1, max(max(cost) for cost in C.tile_cost))
TILE_COINS_SCALE = max(1, max(C.tile_coins))
MISSION_NEED_SCALE = max(1, max(max(req) for req in C.mission_requires))
MISSION_POINTS_SCALE = max(1, max(C.mission_points))
MISSING_SCALE = C.max_prepared * max(1, max(sum(cost) for cost in C.tile_cost))
POINTS_SCALE = 50.0
COINS_SCALE = 10.0
BLIND_SCALE = 8.0
MISSION_VALUE_SCALE = 40.0
ESTIMATE_SCALE = 60.0
LEAD_SCALE = 40.0

# Global block offsets.
PHASE_AT = 0
DICE_AT = PHASE_AT + N_PHASES
PLAYERS_AT = DICE_AT + 1
CURRENT_AT = PLAYERS_AT + 3
FIRST_AT = CURRENT_AT + MAX_PLAYERS
DIE_AT = FIRST_AT + MAX_PLAYERS
COIN_BONUS_AT = DIE_AT + N_FACES
DONE_AT = COIN_BONUS_AT + 1
DRAWS_AT = DONE_AT + 1
RESUME_AT = DRAWS_AT + 1
COLUMN_AT = RESUME_AT + len(RESUMES)
ENDING_AT = COLUMN_AT + max(N_COLUMNS, N_ROW)
TO_PREPARE_AT = ENDING_AT + 1
LEAD_AT = TO_PREPARE_AT + 1
HQ_AT = LEAD_AT + 1
HQ_COST = 1 + N_SYMBOLS
HQ_COINS = HQ_COST + N_TOOLS
HQ_TOOLS = HQ_COINS + 1
HQ_SIZE = HQ_TOOLS + N_TOOLS
BAG_AT = HQ_AT + N_COLUMNS * HQ_SIZE
STACK_AT = BAG_AT + N_TOOLS
ROW_AT = STACK_AT + 1 + N_SYMBOLS
ROW_SYMBOL = 1 + len(CARD_KINDS)
ROW_NEED = ROW_SYMBOL + N_SYMBOLS
ROW_POINTS = ROW_NEED + N_SYMBOLS
ROW_SHARE = ROW_POINTS + 1
ROW_SIZE = ROW_SHARE + 1
DECK_AT = ROW_AT + N_ROW * ROW_SIZE
UNSEEN_AT = DECK_AT + 2
REMOVED_AT = UNSEEN_AT + len(CARD_KINDS) + N_MISSIONS
GLOBAL_SIZE = REMOVED_AT + 2

# Per-seat block offsets (relative to the block's start).
FAVOURITE_AT = 0
TOOLS_AT = FAVOURITE_AT + N_TOOLS
TOOLS_TOTAL_AT = TOOLS_AT + N_TOOLS
TORCH_AT = TOOLS_TOTAL_AT + 1
POINTS_AT = TORCH_AT + 1
PREPARED_AT = POINTS_AT + 1
PREPARED_SYMBOLS_AT = PREPARED_AT + 1
PREPARED_COST_AT = PREPARED_SYMBOLS_AT + N_SYMBOLS
PAYABLE_AT = PREPARED_COST_AT + N_TOOLS
PAYABLE_TORCH_AT = PAYABLE_AT + 1
MISSING_AT = PAYABLE_TORCH_AT + 1
COMPLETED_AT = MISSING_AT + 1
COMPLETED_SYMBOLS_AT = COMPLETED_AT + 1
COINS_AT = COMPLETED_SYMBOLS_AT + N_SYMBOLS
REACH_AT = COINS_AT + 1
BLIND_AT = REACH_AT + 1
DIE_CARDS_AT = BLIND_AT + 1
MAY_DIE_AT = DIE_CARDS_AT + 1
MISSION_SYMBOLS_AT = MAY_DIE_AT + 1
MISSIONS_MET_AT = MISSION_SYMBOLS_AT + N_SYMBOLS
MISSIONS_VALUE_AT = MISSIONS_MET_AT + 1
MISSION_CARDS_AT = MISSIONS_VALUE_AT + 1
ESTIMATE_AT = MISSION_CARDS_AT + N_MISSIONS
SEAT_SIZE = ESTIMATE_AT + 1

# Action-feature offsets.
DECISIONS = A.ROLL_BASE
KIND_AT = DECISIONS
N_KINDS = A.REVEAL_CARD + 1
COMPLETE_SYMBOL_AT = KIND_AT + N_KINDS
COMPLETE_TORCH_AT = COMPLETE_SYMBOL_AT + N_SYMBOLS
PREPARE_SYMBOL_AT = COMPLETE_TORCH_AT + 1
PREPARE_NO_TILE_AT = PREPARE_SYMBOL_AT + N_SYMBOLS
TAKE_KIND_AT = PREPARE_NO_TILE_AT + 1
DISCARD_SYMBOL_AT = TAKE_KIND_AT + len(CARD_KINDS)
DISCARD_FAVOURITE_AT = DISCARD_SYMBOL_AT + N_SYMBOLS
DIE_EFFECT_AT = DISCARD_FAVOURITE_AT + 1
ACTION_FEATURE_SIZE = DIE_EFFECT_AT + 2 * N_FACES

_TILE_SYMBOL = C.tile_symbol
_TILE_COST = C.tile_cost
_CARD_KIND = C.card_kind
_CARD_SYMBOL = C.card_symbol
_REQUIRES = C.mission_requires
_MISSION_POINTS = C.mission_points
_REQUIRES_TOTAL = tuple(sum(req) for req in C.mission_requires)
_BACKPACK = C.backpack_size
_MAX_PREPARED = C.max_prepared
_END_TRIGGER = C.end_trigger


def feature_size(num_players: int) -> int:
    """Length of the view vector for `num_players` seats."""
    return GLOBAL_SIZE + SEAT_SIZE * num_players


def _mask(cards: tuple[int, ...]) -> int:
    mask = 0
    for j in cards:
        mask |= 1 << j
    return mask


def _symbols(p: PlayerState, cards: int) -> list[int]:
    """Symbols for Missions: completed tiles plus the Discovery cards among `cards`."""
    counts = [0] * N_SYMBOLS
    for i in p.completed:
        counts[_TILE_SYMBOL[i]] += 1
    for j in range(N_CARDS):
        if cards >> j & 1 and _CARD_KIND[j] == CARD_DISCOVERY:
            counts[_CARD_SYMBOL[j]] += 1
    return counts


def _with_prepared(p: PlayerState, done: list[int]) -> list[int]:
    """`done` plus the prepared tiles' symbols (likely symbols, as heuristics counts them)."""
    counts = list(done)
    for i in p.prepared:
        counts[_TILE_SYMBOL[i]] += 1
    return counts


def _met(j: int, counts: list[int]) -> bool:
    return all(have >= need for have, need in zip(counts, _REQUIRES[j], strict=True))


def _held_share(j: int, counts: list[int]) -> int:
    """How many of Mission `j`'s required symbols `counts` hold."""
    return sum(min(have, need) for have, need in zip(counts, _REQUIRES[j], strict=True))


def _missions(p: PlayerState, cards: int, done: list[int]) -> tuple[int, float]:
    """Points of the Missions met among `cards` and their worth (heuristics.missions_value);
    `done` are the player's symbols with those cards."""
    counts = _with_prepared(p, done)
    met = 0
    value = 0.0
    for j in MISSIONS:
        if not cards >> j & 1:
            continue
        if _met(j, done):
            met += _MISSION_POINTS[j]
            value += _MISSION_POINTS[j]
            continue
        value += 0.5 * _MISSION_POINTS[j] * _held_share(j, counts) / _REQUIRES_TOTAL[j]
    return met, value


def _shortfall(p: PlayerState, tile: int) -> int:
    return sum(max(0, need - have) for need, have in zip(_TILE_COST[tile], p.tools, strict=True))


def _die_cards(cards: int) -> int:
    return sum(1 for j in DIE_CARDS if cards >> j & 1)


def _visible_cards(p: PlayerState, own: bool) -> int:
    return _mask(p.known) | _mask(p.blind) if own else _mask(p.known)


def _seat_block(
    out: list[float], at: int, p: PlayerState, cards: int, to_prepare: int
) -> float:
    """Write one seat's block at `at`; returns the seat's estimate (heuristics.estimate with
    only `cards` counted)."""
    out[at + FAVOURITE_AT + C.board_favourite[p.board]] = 1.0
    for t in range(N_TOOLS):
        out[at + TOOLS_AT + t] = p.tools[t] / _BACKPACK
    out[at + TOOLS_TOTAL_AT] = sum(p.tools) / _BACKPACK
    out[at + TORCH_AT] = 1.0 if p.torch else 0.0
    out[at + POINTS_AT] = p.points / POINTS_SCALE
    out[at + PREPARED_AT] = len(p.prepared) / _MAX_PREPARED
    coins = visible_coins(len(p.prepared), p.completed)
    done = _symbols(p, cards)
    met, value = _missions(p, cards, done)
    estimate = p.points + value + _die_cards(cards)
    estimate += 0.5 * sum(p.tools) + (0.7 if p.torch else 0.0)
    tile_base = 0.6 * coins + 1.0
    prepared_symbols = [0] * N_SYMBOLS
    cost = [0] * N_TOOLS
    payable = 0
    payable_torch = 0
    missing = 0
    for i in p.prepared:
        prepared_symbols[_TILE_SYMBOL[i]] += 1
        for t in range(N_TOOLS):
            cost[t] += _TILE_COST[i][t]
        short = _shortfall(p, i)
        estimate += max(0.5, tile_base - short)
        missing += short
        if short == 0:
            payable += 1
        if short == 0 or (short == 1 and p.torch):
            payable_torch += 1
    for x in range(N_SYMBOLS):
        out[at + PREPARED_SYMBOLS_AT + x] = prepared_symbols[x] / _MAX_PREPARED
    for t in range(N_TOOLS):
        out[at + PREPARED_COST_AT + t] = cost[t] / _BACKPACK
    out[at + PAYABLE_AT] = payable / _MAX_PREPARED
    out[at + PAYABLE_TORCH_AT] = payable_torch / _MAX_PREPARED
    out[at + MISSING_AT] = missing / MISSING_SCALE
    out[at + COMPLETED_AT] = len(p.completed) / _END_TRIGGER
    completed_symbols = [0] * N_SYMBOLS
    for i in p.completed:
        completed_symbols[_TILE_SYMBOL[i]] += 1
    for x in range(N_SYMBOLS):
        out[at + COMPLETED_SYMBOLS_AT + x] = completed_symbols[x] / _END_TRIGGER
    out[at + COINS_AT] = coins / COINS_SCALE
    reach = len(p.completed) + len(p.prepared) + to_prepare >= _END_TRIGGER
    out[at + REACH_AT] = 1.0 if reach else 0.0
    out[at + BLIND_AT] = len(p.blind) / BLIND_SCALE
    out[at + DIE_CARDS_AT] = _die_cards(cards) / DIE_CARDS_SCALE
    may_die = bool(p.blind) or _die_cards(_mask(p.known)) > 0
    out[at + MAY_DIE_AT] = 1.0 if may_die else 0.0
    for x in range(N_SYMBOLS):
        out[at + MISSION_SYMBOLS_AT + x] = done[x] / _END_TRIGGER
    out[at + MISSIONS_MET_AT] = met / MISSION_VALUE_SCALE
    out[at + MISSIONS_VALUE_AT] = value / MISSION_VALUE_SCALE
    for m, j in enumerate(MISSIONS):
        if cards >> j & 1:
            out[at + MISSION_CARDS_AT + m] = 1.0
    out[at + ESTIMATE_AT] = estimate / ESTIMATE_SCALE
    return estimate


def features(state: RaidersState, seat: int) -> list[float]:
    """`seat`'s view of `state` as `feature_size` values (layout in the module docstring)."""
    s = state
    n = len(s.players)
    out = [0.0] * (GLOBAL_SIZE + SEAT_SIZE * n)
    out[PHASE_AT + s.phase] = 1.0
    out[DICE_AT] = 1.0 if s.dice else 0.0
    out[PLAYERS_AT + n - 2] = 1.0
    out[CURRENT_AT + (s.seat - seat) % n] = 1.0
    out[FIRST_AT + (s.first - seat) % n] = 1.0
    if s.die >= 0:
        out[DIE_AT + s.die] = 1.0
    out[COIN_BONUS_AT] = s.coin_bonus / COIN_BONUS_SCALE
    out[DONE_AT] = s.done / C.completions_per_turn
    out[DRAWS_AT] = s.draws / DRAWS_SCALE
    if s.resume in RESUMES:
        out[RESUME_AT + RESUMES.index(s.resume)] = 1.0
    if s.column != EMPTY:
        out[COLUMN_AT + s.column] = 1.0
    out[ENDING_AT] = 1.0 if s.ending else 0.0
    to_prepare = s.stack.bit_count() + sum(1 for t in s.hq_tiles if t >= 0)
    out[TO_PREPARE_AT] = to_prepare / N_TILES
    for c in range(N_COLUMNS):
        at = HQ_AT + c * HQ_SIZE
        tile = s.hq_tiles[c]
        if tile >= 0:
            out[at] = 1.0
            out[at + 1 + _TILE_SYMBOL[tile]] = 1.0
            for t in range(N_TOOLS):
                out[at + HQ_COST + t] = _TILE_COST[tile][t] / COST_SCALE
            out[at + HQ_COINS] = C.tile_coins[tile] / TILE_COINS_SCALE
        for t in range(N_TOOLS):
            out[at + HQ_TOOLS + t] = s.hq_tools[c][t] / COLUMN_TOOLS_SCALE
    for t in range(N_TOOLS):
        out[BAG_AT + t] = s.bag[t] / C.tool_counts[t]
    out[STACK_AT] = s.stack.bit_count() / N_TILES
    stack_symbols = [0] * N_SYMBOLS
    for i in range(N_TILES):
        if s.stack >> i & 1:
            stack_symbols[_TILE_SYMBOL[i]] += 1
    for x in range(N_SYMBOLS):
        out[STACK_AT + 1 + x] = stack_symbols[x] / SYMBOL_TILES[x]
    me = s.players[seat]
    my_cards = _visible_cards(me, True)
    my_symbols = _with_prepared(me, _symbols(me, my_cards))
    for k in range(N_ROW):
        at = ROW_AT + k * ROW_SIZE
        card = s.row[k]
        if card < 0:
            continue
        out[at] = 1.0
        kind = _CARD_KIND[card]
        out[at + 1 + kind] = 1.0
        if kind == CARD_DISCOVERY:
            out[at + ROW_SYMBOL + _CARD_SYMBOL[card]] = 1.0
        elif kind == CARD_MISSION:
            for x in range(N_SYMBOLS):
                out[at + ROW_NEED + x] = _REQUIRES[card][x] / MISSION_NEED_SCALE
            out[at + ROW_POINTS] = _MISSION_POINTS[card] / MISSION_POINTS_SCALE
            out[at + ROW_SHARE] = _held_share(card, my_symbols) / _REQUIRES_TOTAL[card]
    out[DECK_AT] = s.deck.bit_count() / N_CARDS
    out[DECK_AT + 1] = 1.0 if deck_holds_only_die_cards(s) else 0.0
    unseen = s.deck
    for q, p in enumerate(s.players):
        if q != seat:
            unseen |= _mask(p.blind)
    kinds = [0] * len(CARD_KINDS)
    for j in range(N_CARDS):
        if unseen >> j & 1:
            kinds[_CARD_KIND[j]] += 1
    for kind in range(len(CARD_KINDS)):
        out[UNSEEN_AT + kind] = kinds[kind] / KIND_COUNTS[kind]
    for m, j in enumerate(MISSIONS):
        if unseen >> j & 1:
            out[UNSEEN_AT + len(CARD_KINDS) + m] = 1.0
    out[REMOVED_AT] = s.removed_cards.bit_count() / DIE_CARDS_SCALE
    out[REMOVED_AT + 1] = s.removed_tiles.bit_count() / N_TILES
    mine = 0.0
    best_other = 0.0
    for k in range(n):
        q = (seat + k) % n
        p = s.players[q]
        at = GLOBAL_SIZE + k * SEAT_SIZE
        estimate = _seat_block(out, at, p, _visible_cards(p, k == 0), to_prepare)
        if k == 0:
            mine = estimate
        elif k == 1 or estimate > best_other:
            best_other = estimate
    out[LEAD_AT] = min(1.0, max(0.0, 0.5 + (mine - best_other) / LEAD_SCALE))
    return out


def action_feature_size() -> int:
    """Size of the action-feature space."""
    return ACTION_FEATURE_SIZE


def action_features(state: RaidersState, action: int) -> tuple[int, ...]:
    """The active action-feature indices of decision `action` in `state` (ascending)."""
    if not 0 <= action < A.N_ACTIONS:
        return ()
    kind = A.ACTION_KIND[action]
    if action >= DECISIONS:
        return (KIND_AT + kind,)
    arg = A.ACTION_ARG[action]
    head = (action, KIND_AT + kind)
    if kind == A.COMPLETE:
        symbol = COMPLETE_SYMBOL_AT + _TILE_SYMBOL[arg]
        if A.ACTION_ARG2[action]:
            return (*head, symbol, COMPLETE_TORCH_AT)
        return (*head, symbol)
    if kind == A.PREPARE:
        tile = state.hq_tiles[arg]
        return (*head, PREPARE_NO_TILE_AT if tile < 0 else PREPARE_SYMBOL_AT + _TILE_SYMBOL[tile])
    if kind == A.TAKE_ROW:
        card = state.row[arg]
        return head if card < 0 else (*head, TAKE_KIND_AT + _CARD_KIND[card])
    if kind == A.DISCARD_TILE:
        return (*head, DISCARD_SYMBOL_AT + _TILE_SYMBOL[arg])
    if kind == A.DISCARD_TOOL:
        if arg == C.board_favourite[state.players[state.seat].board]:
            return (*head, DISCARD_FAVOURITE_AT)
        return head
    if kind == A.DIE_CARD:
        return (*head, DIE_EFFECT_AT + (0 if state.dice else N_FACES) + arg)
    return head

"""Features of a seat's view and of its decisions (the twin of Rust's `leda/features.rs`).

`features(state, seat)` turns what `seat` may know of a state into `feature_size(2)` = 563
floats, scaled to about [0, 1] (the round outlook, a signed lead, to about [-1, 1]). It reads
only what `observe(state, seat)` keeps unchanged: both grids, Food, Military, MV tokens won,
the sizes of every hidden sequence, the pending work, the seat's own hand, and of the hidden
items only those the seat can place (`known[seat]`, looked up where they lie: the opponent's
hand as a set, the top of a deck or pile). So every world of one view gives the same vector.
Each value is computed in f64 with the Rust twin's arithmetic; Rust stores it as f32, and the
parity tests demand equality with these values cast to float32.

Layout of the view vector. Block 0 is global; seat blocks follow, rotated: block 1 (offset
`GLOBAL_SIZE`) is `seat`, block 2 (offset `GLOBAL_SIZE + SEAT_SIZE`) the opponent.

Global block, `GLOBAL_SIZE` = 89 values at offset 0:

| offset | size | value |
|---:|---:|---|
| 0 | 1 | `seat` is to decide |
| 1 | 1 | the opponent is to decide |
| 2 | 1 | a shuffle (chance step) is pending |
| 3 | 1 | the game is over |
| 4 | 1 | `seat` won |
| 5 | 1 | the opponent won |
| 6 | 1 | `seat` is the round's active player |
| 7 | 25 | the top decision frame's kind, one-hot at kind - `F_MULLIGAN` (whoever decides) |
| 32 | 1 | `seat`'s activation step is still to come or under way this round |
| 33 | 1 | the opponent's activation step likewise |
| 34 | 1 | this round's military conflict is still to come |
| 35 | 1 | `seat`'s Organization is still to come |
| 36 | 1 | the opponent's Organization is still to come |
| 37 | 5 | Action tiles revealed since the last shuffle, multi-hot over the 5 tiles |
| 42 | 1 | Action pile size / 5 |
| 43 | 5 | the top Action tile of the pile when `seat` knows it (spied), one-hot |
| 48 | 14 | the zone chosen this round, one-hot (all 0 before the choice) |
| 62 | 16 | the squares of that zone, multi-hot (row-major) |
| 78 | 1 | Portal P4 blocks this round's MV token |
| 79 | 1 | MV pile size / 18 |
| 80 | 8 | the top MV token of the pile when `seat` knows it: its kind (`MV_KIND`), one-hot |
| 88 | 1 | round outlook: `seat`'s points lead from this round's pending work (1) / 10 |

Seat block, `SEAT_SIZE` = 237 values (offsets within the block):

| offset | size | value |
|---:|---:|---|
| 0 | 4 | clan, one-hot (cats, pandas, sharks, scorpions) |
| 4 | 1 | Food, min(food, 20) / 20 |
| 5 | 1 | Military gained this round, min(military, 10) / 10 |
| 6 | 1 | special activations waiting, min(specials, 4) / 4 |
| 7 | 1 | MV victory progress, min(1, MV symbols / the clan's threshold) |
| 8 | 1 | MV tokens won, min(count, 10) / 10 |
| 9 | 8 | MV tokens won by kind (`MV_KIND`), min(count, 3) / 3 each |
| 17 | 1 | hand size / 13 |
| 18 | 1 | deck size / 13 |
| 19 | 1 | clan victory progress as the heuristic counts it, at most 1 |
| 20 | 1 | the heuristic's points (`heuristics.player_points`) / 40 |
| 21 | 1 | uncovered upgraded tiles / 8 |
| 22 | 1 | uncovered Deserts / 8 |
| 23 | 1 | Military this round's still pending activations should bring / 8 |
| 24 | 1 | other points they should bring (`heuristics.pending_yield`) / 4 |
| 25 | 13 | cards in hand by clan slot (2); the opponent's: only those `seat` knows |
| 38 | 13 | cards on top of a square (uncovered), by clan slot |
| 51 | 13 | cards covered by another card, by clan slot |
| 64 | 13 | the top card of the deck when `seat` knows it, by clan slot |
| 77 | 160 | the 16 squares (row-major), `SQUARE_SIZE` = 10 values each |

(1) `heuristics.round_outlook`: the points this round's pending activations and conflict
should bring, seat 0's lead, negated for seat 1. (2) A card's clan slot: its id minus the id
of its clan's first card.

Square, `SQUARE_SIZE` = 10 values (offsets within the square):

| offset | value |
|---:|---|
| 0 | a clan card is on top |
| 1 | uncovered permanent tile on its front (upgradable) |
| 2 | uncovered permanent tile, upgraded |
| 3 | uncovered temporary tile on its front |
| 4 | uncovered Desert |
| 5 | a Shark token lies here |
| 6 | the Pack is awake here (a token, and tokens on 2+ orthogonal neighbours) |
| 7 | the top item's live effect: expected Military (`heuristics.FX_YIELD`) / 4 |
| 8 | ... its expected other points / 2 |
| 9 | still to be activated by its owner this round (in the zone, not yet activated) |

Action features (`action_feature_size()` = 370): each decision activates a few indices, the
policy logit being the sum of the head's outputs there. Shuffle outcomes are chance, not
decisions: a shuffle gets its kind index only. Indices, in the order they are listed:

| base | size | index |
|---:|---:|---|
| 0 | 28 | the action kind (`A_*`) |
| 28 | 33 | the (decision frame kind, action kind) pair, `PAIRS` (absent for an unlisted pair) |
| 61 | 46 | the card played onto the grid (play, ring, awaken) |
| 107 | 46 | the card paid, put under the deck (pay) |
| 153 | 46 | the card taken or revealed (take, reveal) |
| 199 | 36 | the MV token: retrigger at 0..17, under at 18..35 (token - first MV token) |
| 235 | 16 | the square a card or a Shark token is placed on (play, ring, awaken, token) |
| 251 | 6 | what a played card lands on (3) |
| 257 | 16 | the target square (4) |
| 273 | 56 | the effect the decision resolves, `NONE` at 55 (5) |
| 329 | 18 | the target tile: tile kind * 2 + face (upgrade, flip, downgrade, activate-tile) |
| 347 | 14 | the zone chosen |
| 361 | 3 | the pile spied |
| 364 | 2 | put back: 0 top, 1 bottom |
| 366 | 2 | mulligan: 0 keep, 1 redraw |
| 368 | 2 | the branch of an "or": 0 first, 1 second |

(3) 0 a clan card, 1 a permanent tile on its front, 2 an upgraded tile, 3 a temporary tile on
its front, 4 a Desert; and 5 as well when a Shark token lies there. (4) Of activate, upgrade,
flip, activate-tile, desert, copy, rotate, downgrade and queen; both squares of a swap. (5) The
live face of the square activated, the tile activated, the Desert's reminded front, the
opponent's square copied, the card the Queen activates, the Cat card rotated (its current
face), the branch of an "or" chosen.
"""

from __future__ import annotations

from typing import Any

from boardbot.engine.leda import board, heuristics
from boardbot.engine.leda.data import (
    ACTION_TILE_BASE,
    ACTION_TILES,
    CARD_CLAN,
    CARD_COUNT,
    CLAN_CARDS,
    CLAN_NAMES,
    CORNERS,
    EFFECTS,
    MV_BASE,
    MV_FX,
    MV_SYMBOLS,
    MV_THRESHOLD,
    MV_TOKENS,
    NONE,
    PANDA_LEVEL,
    PANDAS,
    PORTALS,
    RINGS,
    SCORPIONS,
    SHARK_TOKENS,
    SHARKS,
    SQUARES,
    TILE_KIND,
    TILE_KIND_NAMES,
    TILE_PERMANENT,
    ZONE_MASKS,
    ZONE_NAMES,
    ZONE_SQUARES,
)
from boardbot.engine.leda.frames import (
    A_ACT_TILE,
    A_ACTIVATE,
    A_AWAKEN,
    A_CHOOSE,
    A_COPY,
    A_DESERT,
    A_DONE,
    A_DOWNGRADE,
    A_FLIP,
    A_FOOD,
    A_MULLIGAN,
    A_PAY,
    A_PLAY,
    A_PUT,
    A_QUEEN,
    A_RETRIGGER,
    A_REVEAL,
    A_RING,
    A_ROTATE,
    A_SHUFFLE,
    A_SKIP,
    A_SPY,
    A_SWAP,
    A_TAKE,
    A_TOKEN,
    A_UNDER,
    A_UPGRADE,
    A_ZONE,
    ACTION_NAMES,
    F_ACT_TILE,
    F_ACTIVATE,
    F_AWAKEN,
    F_CONFLICT,
    F_COPY,
    F_DESERT_FX,
    F_DISCOUNT,
    F_DOWNGRADE,
    F_FLIP,
    F_MULLIGAN,
    F_MV_UNDER,
    F_OR,
    F_ORG,
    F_PAY,
    F_PLACE_TOKEN,
    F_QUEEN,
    F_RETRIGGER,
    F_RING_REVEAL,
    F_RING_ROTATE,
    F_RINGS,
    F_SEARCH_RING,
    F_SHUFFLE,
    F_SPY_PILE,
    F_SPY_PUT,
    F_STEP,
    F_SWAP,
    F_UPGRADE,
    F_ZONE,
)
from boardbot.engine.leda.ops import desert_reminder_fx
from boardbot.engine.leda.state import KIND, SEAT, LedaState, Player

FEATURES_VERSION = 1
"""Version of this feature definition (bumped on any change; models record it)."""

PLAYERS = 2
CLANS = len(CLAN_NAMES)
CLAN_SLOTS = max(len(cards) for cards in CLAN_CARDS)  # 13: the Cats
ACTION_TILE_COUNT = len(ACTION_TILES)
MV_TOKEN_COUNT = len(MV_TOKENS)
ZONES = len(ZONE_NAMES)
DECISION_KINDS = F_SHUFFLE - F_MULLIGAN  # decision frames: F_MULLIGAN .. F_ORG


def _mv_kinds() -> tuple[int, ...]:
    """Each MV token's kind: tokens with the same effect and symbols share one."""
    kinds: list[tuple[int, int]] = []
    out = []
    for token in MV_TOKENS:
        key = (MV_FX[token], MV_SYMBOLS[token])
        if key not in kinds:
            kinds.append(key)
        out.append(kinds.index(key))
    return tuple(out)


MV_KIND = _mv_kinds()
"""The kind of each MV token (indexed by token - MV_BASE), in order of first appearance: 1
symbol, 2 symbols, Spy, Flip, Upgrade, Food, Steal, Draw."""
MV_KINDS = max(MV_KIND) + 1

# ---------------------------------------------------------------------------- view layout
G_TO_MOVE = 0
G_OPP_TO_MOVE = 1
G_CHANCE = 2
G_TERMINAL = 3
G_WON = 4
G_LOST = 5
G_ACTIVE = 6
G_FRAME = 7
G_STEP = G_FRAME + DECISION_KINDS  # 32: own, then the opponent's
G_CONFLICT = G_STEP + 2
G_ORG = G_CONFLICT + 1  # own, then the opponent's
G_REVEALED = G_ORG + 2
G_ACTION_PILE = G_REVEALED + ACTION_TILE_COUNT
G_ACTION_TOP = G_ACTION_PILE + 1
G_ZONE = G_ACTION_TOP + ACTION_TILE_COUNT
G_ZONE_SQUARES = G_ZONE + ZONES
G_BLOCKED = G_ZONE_SQUARES + SQUARES
G_MV_PILE = G_BLOCKED + 1
G_MV_TOP = G_MV_PILE + 1
G_OUTLOOK = G_MV_TOP + MV_KINDS
GLOBAL_SIZE = G_OUTLOOK + 1

S_CLAN = 0
S_FOOD = S_CLAN + CLANS
S_MILITARY = S_FOOD + 1
S_SPECIALS = S_MILITARY + 1
S_MV_PROGRESS = S_SPECIALS + 1
S_MV_COUNT = S_MV_PROGRESS + 1
S_MV_KINDS = S_MV_COUNT + 1
S_HAND_SIZE = S_MV_KINDS + MV_KINDS
S_DECK_SIZE = S_HAND_SIZE + 1
S_CLAN_PROGRESS = S_DECK_SIZE + 1
S_POINTS = S_CLAN_PROGRESS + 1
S_UPGRADED = S_POINTS + 1
S_DESERTS = S_UPGRADED + 1
S_PENDING_MILITARY = S_DESERTS + 1
S_PENDING_POINTS = S_PENDING_MILITARY + 1
S_HAND = S_PENDING_POINTS + 1
S_UNCOVERED = S_HAND + CLAN_SLOTS
S_COVERED = S_UNCOVERED + CLAN_SLOTS
S_DECK_TOP = S_COVERED + CLAN_SLOTS
S_SQUARES = S_DECK_TOP + CLAN_SLOTS

Q_CARD = 0
Q_FRONT = 1
Q_UPGRADED = 2
Q_TEMPORARY = 3
Q_DESERT = 4
Q_TOKEN = 5
Q_PACK = 6
Q_MILITARY = 7
Q_POINTS = 8
Q_TO_ACTIVATE = 9
SQUARE_SIZE = 10

SEAT_SIZE = S_SQUARES + SQUARES * SQUARE_SIZE
FEATURE_SIZE = GLOBAL_SIZE + PLAYERS * SEAT_SIZE

FOOD_CAP, MILITARY_CAP, SPECIALS_CAP, MV_COUNT_CAP, MV_KIND_CAP = 20, 10, 4, 10, 3
POINTS_SCALE, OUTLOOK_SCALE = 40.0, 10.0
FX_MILITARY_SCALE, FX_POINTS_SCALE = 4.0, 2.0
PENDING_MILITARY_SCALE, PENDING_POINTS_SCALE = 8.0, 4.0
TILE_COUNT_SCALE = 8.0

# ---------------------------------------------------------------------------- action layout
ACTION_KINDS = len(ACTION_NAMES)
PAIRS: tuple[tuple[int, int], ...] = (
    (F_MULLIGAN, A_MULLIGAN),
    (F_ZONE, A_ZONE),
    (F_ACTIVATE, A_ACTIVATE),
    (F_OR, A_CHOOSE),
    (F_UPGRADE, A_UPGRADE),
    (F_FLIP, A_FLIP),
    (F_SPY_PILE, A_SPY),
    (F_SPY_PUT, A_PUT),
    (F_PLACE_TOKEN, A_TOKEN),
    (F_ACT_TILE, A_ACT_TILE),
    (F_DESERT_FX, A_DESERT),
    (F_RETRIGGER, A_RETRIGGER),
    (F_MV_UNDER, A_UNDER),
    (F_COPY, A_COPY),
    (F_RING_REVEAL, A_REVEAL),
    (F_RING_REVEAL, A_SKIP),
    (F_SEARCH_RING, A_TAKE),
    (F_SEARCH_RING, A_SKIP),
    (F_RING_ROTATE, A_ROTATE),
    (F_RING_ROTATE, A_SKIP),
    (F_DISCOUNT, A_PLAY),
    (F_DISCOUNT, A_SKIP),
    (F_PAY, A_PAY),
    (F_AWAKEN, A_AWAKEN),
    (F_AWAKEN, A_FOOD),
    (F_QUEEN, A_QUEEN),
    (F_DOWNGRADE, A_DOWNGRADE),
    (F_SWAP, A_SWAP),
    (F_RINGS, A_RING),
    (F_RINGS, A_DONE),
    (F_ORG, A_PLAY),
    (F_ORG, A_FOOD),
    (F_ORG, A_SWAP),
)
"""Every (decision frame kind, action kind) a legal decision pairs, in index order."""
_PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}

X_KIND = 0
X_PAIR = X_KIND + ACTION_KINDS
X_PLACED_CARD = X_PAIR + len(PAIRS)
X_PAID_CARD = X_PLACED_CARD + CARD_COUNT
X_OTHER_CARD = X_PAID_CARD + CARD_COUNT
X_MV_TOKEN = X_OTHER_CARD + CARD_COUNT  # retrigger, then under
X_PLACE_SQUARE = X_MV_TOKEN + 2 * MV_TOKEN_COUNT
X_COVER = X_PLACE_SQUARE + SQUARES
COVER_CARD, COVER_FRONT, COVER_UPGRADED, COVER_TEMPORARY, COVER_DESERT, COVER_TOKEN = range(6)
X_TARGET_SQUARE = X_COVER + 6
X_EFFECT = X_TARGET_SQUARE + SQUARES
EFFECT_SLOTS = len(EFFECTS) + 1  # NONE last
X_TILE = X_EFFECT + EFFECT_SLOTS
X_ZONE = X_TILE + 2 * len(TILE_KIND_NAMES)
X_PILE = X_ZONE + ZONES
X_PUT = X_PILE + 3
X_MULLIGAN = X_PUT + 2
X_OPTION = X_MULLIGAN + 2
ACTION_FEATURE_SIZE = X_OPTION + 2

_CLAN_FIRST = tuple(cards[0] for cards in CLAN_CARDS)
_SLOT = tuple(card - _CLAN_FIRST[CARD_CLAN[card]] for card in range(CARD_COUNT))
"""Each card's clan slot: its index among its clan's cards."""
_PORTAL_SET = frozenset(PORTALS)
_RING_SET = frozenset(RINGS)
_PANDA_STEP = {1: 0.5, 2: 1.0, 3: 2.0}  # heuristics' Panda steps by level (Bronze..Gold)


def feature_size(num_players: int) -> int:
    """Length of the view vector (LEDA always has 2 seats)."""
    return FEATURE_SIZE


def action_feature_size() -> int:
    """Size of the action-feature space."""
    return ACTION_FEATURE_SIZE


def clan_progress(player: Player) -> float:
    """Progress toward the clan victory as `heuristics.player_points` counts it, at most 1."""
    clan = player.clan
    grid = player.grid
    if clan == SHARKS:
        return min(1.0, board.token_count(player) / SHARK_TOKENS)
    units = 0.0
    for sq, square in enumerate(grid):
        if not square.cards:
            continue
        top = square.cards[-1]
        if clan == SCORPIONS:
            if top in _PORTAL_SET:
                units += 1.0 if sq in CORNERS else 0.25
        elif clan == PANDAS:
            units += _PANDA_STEP.get(PANDA_LEVEL.get(top, 0), 0.0)
        elif top in _RING_SET:
            units += 1.0
    if clan == SCORPIONS:
        return min(1.0, units / len(CORNERS))
    if clan == PANDAS:
        return min(1.0, units / 5.0)
    return min(1.0, units / 3.0)


def _activation_masks(state: LedaState) -> tuple[list[int], list[bool], bool, list[bool]]:
    """From the pending work: each seat's squares still to activate (as the heuristic's round
    outlook reads them), whose activation step and Organization are still to come, and
    whether the conflict is."""
    masks = [0, 0]
    steps = [False, False]
    orgs = [False, False]
    conflict = False
    zone = state.zone
    for frame in state.stack:
        kind = frame[KIND]
        seat = frame[SEAT]
        if kind == F_CONFLICT:
            conflict = True
        elif kind == F_STEP:
            steps[seat] = True
            if zone >= 0:
                masks[seat] = ZONE_MASKS[zone]
        elif kind == F_ACTIVATE:
            steps[seat] = True
            if zone >= 0:
                masks[seat] = frame[2]
        elif kind == F_ORG:
            orgs[seat] = True
    return masks, steps, conflict, orgs


def _seat_block(
    out: list[float], base: int, state: LedaState, seat: int, owner: int, mask: int
) -> None:
    """Seat `owner`'s block as `seat` sees it, at `base`."""
    p = state.players[owner]
    known = state.known[seat]
    clan = p.clan
    out[base + S_CLAN + clan] = 1.0
    out[base + S_FOOD] = min(p.food, FOOD_CAP) / FOOD_CAP
    out[base + S_MILITARY] = min(p.military, MILITARY_CAP) / MILITARY_CAP
    out[base + S_SPECIALS] = min(p.specials, SPECIALS_CAP) / SPECIALS_CAP
    out[base + S_MV_PROGRESS] = min(1.0, board.mv_symbols(p) / MV_THRESHOLD[clan])
    out[base + S_MV_COUNT] = min(len(p.mv), MV_COUNT_CAP) / MV_COUNT_CAP
    counts = [0] * MV_KINDS
    for token in p.mv:
        counts[MV_KIND[token - MV_BASE]] += 1
    for kind, count in enumerate(counts):
        out[base + S_MV_KINDS + kind] = min(count, MV_KIND_CAP) / MV_KIND_CAP
    out[base + S_HAND_SIZE] = len(p.hand) / CLAN_SLOTS
    out[base + S_DECK_SIZE] = len(p.deck) / CLAN_SLOTS
    out[base + S_CLAN_PROGRESS] = clan_progress(p)
    out[base + S_POINTS] = heuristics.player_points(p) / POINTS_SCALE
    out[base + S_UPGRADED] = board.upgraded_count(p) / TILE_COUNT_SCALE
    out[base + S_DESERTS] = board.desert_count(p) / TILE_COUNT_SCALE
    if mask:
        military, points = heuristics.pending_yield(p, mask, state.zone)
        out[base + S_PENDING_MILITARY] = military / PENDING_MILITARY_SCALE
        out[base + S_PENDING_POINTS] = points / PENDING_POINTS_SCALE
    for card in p.hand:
        if owner == seat or card in known:
            out[base + S_HAND + _SLOT[card]] = 1.0
    if p.deck and p.deck[0] in known:
        out[base + S_DECK_TOP + _SLOT[p.deck[0]]] = 1.0
    yields = heuristics.FX_YIELD[clan]
    for sq, square in enumerate(p.grid):
        at = base + S_SQUARES + sq * SQUARE_SIZE
        cards = square.cards
        if cards:
            out[at + Q_CARD] = 1.0
            out[base + S_UNCOVERED + _SLOT[cards[-1]]] = 1.0
            for covered in cards[:-1]:
                out[base + S_COVERED + _SLOT[covered]] = 1.0
        elif TILE_PERMANENT[square.tile]:
            out[at + (Q_UPGRADED if square.face else Q_FRONT)] = 1.0
        else:
            out[at + (Q_DESERT if square.face else Q_TEMPORARY)] = 1.0
        if square.token:
            out[at + Q_TOKEN] = 1.0
            if board.pack_awake(p, sq):
                out[at + Q_PACK] = 1.0
        fx = board.live_fx(p, sq)
        if fx != NONE:
            military, points = yields[fx]
            out[at + Q_MILITARY] = military / FX_MILITARY_SCALE
            out[at + Q_POINTS] = points / FX_POINTS_SCALE
        if mask >> sq & 1:
            out[at + Q_TO_ACTIVATE] = 1.0


def features(state: LedaState, seat: int) -> list[float]:
    """`seat`'s view of `state` as `FEATURE_SIZE` values (layout in the module docstring)."""
    out = [0.0] * FEATURE_SIZE
    other = 1 - seat
    known = state.known[seat]
    if state.winner >= 0:
        out[G_TERMINAL] = 1.0
        out[G_WON if state.winner == seat else G_LOST] = 1.0
    elif state.stack:
        frame = state.stack[-1]
        kind = frame[KIND]
        if kind == F_SHUFFLE:
            out[G_CHANCE] = 1.0
        else:
            out[G_TO_MOVE if frame[SEAT] == seat else G_OPP_TO_MOVE] = 1.0
            if F_MULLIGAN <= kind < F_SHUFFLE:
                out[G_FRAME + kind - F_MULLIGAN] = 1.0
    if state.active == seat:
        out[G_ACTIVE] = 1.0
    masks, steps, conflict, orgs = _activation_masks(state)
    if steps[seat]:
        out[G_STEP] = 1.0
    if steps[other]:
        out[G_STEP + 1] = 1.0
    if conflict:
        out[G_CONFLICT] = 1.0
    if orgs[seat]:
        out[G_ORG] = 1.0
    if orgs[other]:
        out[G_ORG + 1] = 1.0
    for tile in state.revealed:
        out[G_REVEALED + tile - ACTION_TILE_BASE] = 1.0
    out[G_ACTION_PILE] = len(state.action_pile) / ACTION_TILE_COUNT
    if state.action_pile and state.action_pile[0] in known:
        out[G_ACTION_TOP + state.action_pile[0] - ACTION_TILE_BASE] = 1.0
    if state.zone >= 0:
        out[G_ZONE + state.zone] = 1.0
        for sq in ZONE_SQUARES[state.zone]:
            out[G_ZONE_SQUARES + sq] = 1.0
    if state.blocked:
        out[G_BLOCKED] = 1.0
    out[G_MV_PILE] = len(state.mv_pile) / MV_TOKEN_COUNT
    if state.mv_pile and state.mv_pile[0] in known:
        out[G_MV_TOP + MV_KIND[state.mv_pile[0] - MV_BASE]] = 1.0
    if state.winner < 0:
        outlook = heuristics.round_outlook(state)
        out[G_OUTLOOK] = (outlook if seat == 0 else -outlook) / OUTLOOK_SCALE
    _seat_block(out, GLOBAL_SIZE, state, seat, seat, masks[seat])
    _seat_block(out, GLOBAL_SIZE + SEAT_SIZE, state, seat, other, masks[other])
    return out


def _effect_index(fx: int) -> int:
    return X_EFFECT + (len(EFFECTS) if fx == NONE else fx)


def _tile_index(player: Player, sq: int) -> int:
    square = player.grid[sq]
    return X_TILE + TILE_KIND[square.tile] * 2 + square.face


def _cover_index(player: Player, sq: int) -> int:
    square = player.grid[sq]
    if square.cards:
        return X_COVER + COVER_CARD
    if TILE_PERMANENT[square.tile]:
        return X_COVER + (COVER_UPGRADED if square.face else COVER_FRONT)
    return X_COVER + (COVER_DESERT if square.face else COVER_TEMPORARY)


def action_features(state: LedaState, action: Any) -> tuple[int, ...]:
    """The active action-feature indices of decision `action` (layout in the module
    docstring); a shuffle outcome, or an action past the end, gets its kind index only."""
    kind = action[0]
    out = [X_KIND + kind]
    if kind == A_SHUFFLE or not state.stack:
        return tuple(out)
    frame = state.stack[-1]
    pair = _PAIR_INDEX.get((frame[KIND], kind))
    if pair is not None:
        out.append(X_PAIR + pair)
    seat = frame[SEAT]
    p = state.players[seat]
    if kind in (A_PLAY, A_RING, A_AWAKEN):
        card, sq = action[1], action[2]
        if card < CARD_COUNT:
            out.append(X_PLACED_CARD + card)
        out.append(X_PLACE_SQUARE + sq)
        out.append(_cover_index(p, sq))
        if p.grid[sq].token:
            out.append(X_COVER + COVER_TOKEN)
    elif kind == A_PAY:
        if action[1] < CARD_COUNT:
            out.append(X_PAID_CARD + action[1])
    elif kind in (A_TAKE, A_REVEAL):
        if action[1] < CARD_COUNT:
            out.append(X_OTHER_CARD + action[1])
    elif kind in (A_RETRIGGER, A_UNDER):
        token = action[1] - MV_BASE
        if 0 <= token < MV_TOKEN_COUNT:
            out.append(X_MV_TOKEN + token + (MV_TOKEN_COUNT if kind == A_UNDER else 0))
    elif kind == A_TOKEN:
        out.append(X_PLACE_SQUARE + action[1])
    elif kind == A_SWAP:
        out.append(X_TARGET_SQUARE + action[1])
        out.append(X_TARGET_SQUARE + action[2])
    elif kind in (A_ACTIVATE, A_ROTATE, A_QUEEN):
        sq = action[1]
        out.append(X_TARGET_SQUARE + sq)
        out.append(_effect_index(board.live_fx(p, sq)))
    elif kind == A_COPY:
        sq = action[1]
        out.append(X_TARGET_SQUARE + sq)
        out.append(_effect_index(board.live_fx(state.players[1 - seat], sq)))
    elif kind == A_DESERT:
        sq = action[1]
        out.append(X_TARGET_SQUARE + sq)
        out.append(_effect_index(desert_reminder_fx(state, seat, sq)))
    elif kind == A_ACT_TILE:
        sq = action[1]
        out.append(X_TARGET_SQUARE + sq)
        out.append(_effect_index(board.tile_live_fx(p.grid[sq])))
        out.append(_tile_index(p, sq))
    elif kind in (A_UPGRADE, A_FLIP, A_DOWNGRADE):
        sq = action[1]
        out.append(X_TARGET_SQUARE + sq)
        out.append(_tile_index(p, sq))
    elif kind == A_CHOOSE:
        option = action[1]
        out.append(X_OPTION + option)
        if frame[KIND] == F_OR:
            out.append(_effect_index(frame[2 + option]))
    elif kind == A_ZONE:
        out.append(X_ZONE + action[1])
    elif kind == A_SPY:
        out.append(X_PILE + action[1])
    elif kind == A_PUT:
        out.append(X_PUT + action[1])
    elif kind == A_MULLIGAN:
        out.append(X_MULLIGAN + (1 if action[1] else 0))
    # A_FOOD, A_SKIP, A_DONE: the kind and the pair say it all.
    return tuple(out)


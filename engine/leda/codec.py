"""The JSON state format (see docs/leda/state-format.md): encoding and decoding.

Decoding checks the format (shapes, names, each item exactly once, hidden parts that add up);
`validation` then checks the decoded state is reachable under the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import echo
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.leda import validation
from boardbot.engine.leda.bounds import (
    FOOD_MAX,
    MILITARY_MAX,
    MV_TOKEN_COUNT,
    PENDING_MAX,
    REVEALED_MAX,
    SPECIALS_MAX,
)
from boardbot.engine.leda.data import (
    ACTION_TILES,
    CAT_ROTATING,
    CLAN_BY_NAME,
    CLAN_CARDS,
    CLAN_NAMES,
    EFFECTS,
    ITEM_BY_NAME,
    ITEM_NAMES,
    MV_TOKENS,
    SHARK_TOKENS,
    SHARKS,
    SQUARES,
    TILE_BY_NAME,
    TILE_FACE_NAMES,
    TILE_NAMES,
    ZONE_BY_NAME,
    ZONE_NAMES,
)
from boardbot.engine.leda.frames import (
    ARG_RANGES,
    F_EFFECT,
    FRAME_ARGS,
    FRAME_BY_NAME,
    FRAME_NAMES,
)
from boardbot.engine.leda.state import Frame, LedaState, Player, Square

FORMAT_VERSION = 1
_TOP_FIELDS = frozenset({
    "game", "version", "observer", "active", "winner", "zone", "mv_blocked", "action_pile",
    "revealed_actions", "mv_pile", "players", "pending",
})  # fmt: skip
_PLAYER_FIELDS = frozenset({
    "clan", "food", "military", "specials", "mv_tokens", "hand", "deck", "grid", "rotated", "knows",
})  # fmt: skip


# ----------------------------------------------------------------------------- encoding
def _names(items: tuple[int, ...] | list[int]) -> list[str]:
    return [ITEM_NAMES[i] for i in items]


def _hidden_pile(items: tuple[int, ...], known: frozenset[int]) -> JsonDict:
    return {
        "count": len(items),
        "known": [{"index": i, "item": ITEM_NAMES[x]} for i, x in enumerate(items) if x in known],
    }


def _frame_json(frame: Frame) -> JsonDict:
    kind, seat, *args = frame
    return {"frame": FRAME_NAMES[kind], "seat": seat, "args": args}


def _player_json(state: LedaState, seat: int, observer: int | None) -> JsonDict:
    p = state.players[seat]
    out: JsonDict = {
        "clan": CLAN_NAMES[p.clan],
        "food": p.food,
        "military": p.military,
        "specials": p.specials,
        "mv_tokens": _names(p.mv),
        "grid": [
            {
                "tile": TILE_NAMES[sq.tile],
                "face": TILE_FACE_NAMES[sq.face],
                "cards": _names(sq.cards),
                "shark_token": sq.token,
            }
            for sq in p.grid
        ],
        "rotated": _names(sorted(p.rotated)),
    }
    if observer is None:
        out["hand"] = _names(p.hand)
        out["deck"] = _names(p.deck)
        out["knows"] = _names(sorted(state.known[seat]))
    else:
        known = state.known[observer]
        if seat == observer:
            out["hand"] = _names(p.hand)
        else:
            out["hand"] = {"count": len(p.hand), "known": _names([c for c in p.hand if c in known])}
        out["deck"] = _hidden_pile(p.deck, known)
    return out


def state_to_json(state: LedaState, observer: int | None = None) -> JsonDict:
    """The JSON form; with an observer, hidden parts are counts plus what that seat knows."""
    known = state.known[observer] if observer is not None else frozenset()
    return {
        "game": "leda",
        "version": FORMAT_VERSION,
        "observer": observer,
        "active": state.active,
        "winner": state.winner if state.winner >= 0 else None,
        "zone": ZONE_NAMES[state.zone] if state.zone >= 0 else None,
        "mv_blocked": state.blocked,
        "action_pile": (
            _names(state.action_pile)
            if observer is None
            else _hidden_pile(state.action_pile, known)
        ),
        "revealed_actions": _names(state.revealed),
        "mv_pile": (
            _names(state.mv_pile) if observer is None else _hidden_pile(state.mv_pile, known)
        ),
        "players": [_player_json(state, seat, observer) for seat in (0, 1)],
        "pending": [_frame_json(frame) for frame in state.stack],
    }


# ----------------------------------------------------------------------------- decoding
_CLAN_CARD_SETS = tuple(frozenset(cards) for cards in CLAN_CARDS)
_MV_TOKEN_SET = frozenset(MV_TOKENS)
_ACTION_TILE_SET = frozenset(ACTION_TILES)
_ANY_ITEM = frozenset(range(len(ITEM_NAMES)))

PileParts = tuple[list[int | None], dict[int, int] | None]
"""A hidden sequence's items by position (None: a placeholder) and, for a view given as
{count, known}, which `known` entry gave each known position (None for a plain list)."""


class _Slots:
    """A hidden sequence being decoded: known items by position, None for a placeholder."""

    __slots__ = ("_entry", "items", "known", "reader")

    def __init__(
        self,
        reader: JsonReader,
        items: list[int | None],
        known: set[int],
        entry: Callable[[int], JsonReader],
    ) -> None:
        self.reader = reader
        self.items = items
        self.known = known
        self._entry = entry

    def where(self, index: int) -> JsonReader:
        """The reader of the JSON entry that gave position `index`."""
        return self._entry(index)

    def fill(self, pool: list[int]) -> tuple[int, ...]:
        """The items, each placeholder taken in order from `pool`."""
        return tuple(x if x is not None else pool.pop(0) for x in self.items)

    def holes(self) -> int:
        """How many positions are placeholders."""
        return self.items.count(None)


def _item(reader: JsonReader, allowed: frozenset[int] | tuple[int, ...], what: str) -> int:
    name = reader.as_str()
    item = ITEM_BY_NAME.get(name)
    if item is None or item not in allowed:
        raise reader.fail(f"{echo(name)} is not {what}")
    return item


def _items(parent: JsonReader, key: str, allowed: frozenset[int], what: str) -> list[int]:
    """The optional list of names `key` (absent: empty), each an item of `allowed`."""
    return [_item(r, allowed, what) for r in parent.opt(key, []).as_list(0, len(allowed))]


def _reject_repeats(parent: JsonReader, key: str, ids: list[int]) -> None:
    """Raise at the second listing of any item in the list `key`."""
    if len(set(ids)) != len(ids):
        seen: set[int] = set()
        for i, item in enumerate(ids):
            if item in seen:
                raise parent.get(key).child(i).fail("listed twice")
            seen.add(item)


def _pile_slots(parent: JsonReader, key: str, allowed: frozenset[int], what: str) -> _Slots:
    """A sequence given in full (a list) or as a view {count, known: [{index, item}]}."""
    reader = parent.get(key)
    items, positions = _read_pile(reader, allowed, what)
    if positions is None:
        return _Slots(reader, items, set(), reader.child)
    known = {x for x in items if x is not None}
    return _Slots(
        reader, items, known, lambda i: reader.get("known").child(positions[i]).get("item")
    )


def _read_pile(reader: JsonReader, allowed: frozenset[int], what: str) -> PileParts:
    most = len(allowed)
    if isinstance(reader.value, list):
        full: list[int | None] = [_item(r, allowed, what) for r in reader.as_list(0, most)]
        return full, None
    reader.obj({"count", "known"})
    count = reader.get("count").as_int(0, most)
    items: list[int | None] = [None] * count
    positions: dict[int, int] = {}
    for k, entry in enumerate(reader.opt("known", []).as_list(0, count)):
        if isinstance(entry.value, str):
            raise entry.fail("expected an object {index, item}")
        entry.obj({"index", "item"})
        index = entry.get("index").as_int(0, count - 1)
        if items[index] is not None:
            raise entry.get("index").fail("position given twice")
        items[index] = _item(entry.get("item"), allowed, what)
        positions[index] = k
    return items, positions


def _hand_slots(parent: JsonReader, allowed: frozenset[int]) -> _Slots:
    """A hand given in full, or hidden as {count, known: [names]} (known cards first)."""
    if not isinstance(parent.value.get("hand"), dict):
        return _pile_slots(parent, "hand", allowed, "a card of this clan")
    reader = parent.get("hand").obj({"count", "known"})
    count = reader.get("count").as_int(0, len(allowed))
    entries = reader.opt("known", []).as_list(0, len(allowed))
    known = [_item(r, allowed, "a card of this clan") for r in entries]
    if len(known) > count:
        raise reader.get("known").fail("more known cards than the hand holds")
    items: list[int | None] = [*known, *([None] * (count - len(known)))]
    return _Slots(reader, items, set(known), lambda i: reader.get("known").child(i))


def _decode_grid(parent: JsonReader, clan: int, cards: frozenset[int]) -> tuple[Square, ...]:
    reader = parent.get("grid")
    squares = []
    seen_tiles: set[int] = set()
    for r in reader.as_list(SQUARES, SQUARES):
        r.obj({"tile", "face", "cards", "shark_token"})
        tile = TILE_BY_NAME[r.get("tile").as_str(TILE_BY_NAME)]
        if tile in seen_tiles:
            raise r.get("tile").fail(f"tile {TILE_NAMES[tile]!r} appears twice in the grid")
        seen_tiles.add(tile)
        face = TILE_FACE_NAMES.index(r.get("face").as_str(TILE_FACE_NAMES))
        listed = r.opt("cards", []).as_list(0, len(cards))
        stack = tuple(_item(c, cards, "a card of this clan") for c in listed)
        token = r.opt("shark_token", False).as_bool()
        if token and clan != SHARKS:
            raise r.get("shark_token").fail("only the Sharks have Shark tokens")
        if stack and clan == SHARKS and not token:
            # Playing a Shark card brings a token, and tokens never leave their square.
            raise r.get("shark_token").fail("a square holding a Shark card holds a Shark token")
        squares.append(Square(tile, face, stack, token))
    if sum(sq.token for sq in squares) > SHARK_TOKENS:
        raise reader.fail(f"more than {SHARK_TOKENS} Shark tokens on the grid")
    return tuple(squares)


def _decode_frame(r: JsonReader) -> tuple[int, ...]:
    r.obj({"frame", "seat", "args"})
    kind = FRAME_BY_NAME[r.get("frame").as_str(FRAME_BY_NAME)]
    seat = r.get("seat").as_int(0, 1)
    shapes = FRAME_ARGS[kind]
    args_r = r.get("args").as_list(len(shapes), len(shapes))
    args = tuple(a.as_int(*ARG_RANGES[shape]) for a, shape in zip(args_r, shapes, strict=True))
    if kind == F_EFFECT:
        fx, op, _ = args
        if not op < max(1, len(EFFECTS[fx])):
            raise args_r[1].fail("op index beyond the effect")
    return (kind, seat, *args)


def _decode_pending(root: JsonReader) -> tuple[Frame, ...]:
    return tuple(_decode_frame(r) for r in root.get("pending").as_list(0, PENDING_MAX))


def _opt_int(parent: JsonReader, key: str, lo: int, hi: int) -> int | None:
    """Integer field `key` in [lo, hi], or None when it is absent or null."""
    if parent.value.get(key) is None:
        return None
    return parent.get(key).as_int(lo, hi)


def _raise_repeated_card(
    grid_r: JsonReader, grid: tuple[Square, ...], hand: _Slots, deck: _Slots
) -> None:
    """Raise at the second place (grid, then hand, then deck) listing the same card."""
    listed: list[tuple[int, _Slots | None, int]] = [
        (c, None, i) for i, sq in enumerate(grid) for c in sq.cards
    ]
    for slots in (hand, deck):
        listed += [(c, slots, i) for i, c in enumerate(slots.items) if c is not None]
    placed: set[int] = set()
    for card, slots_or_grid, i in listed:
        if card in placed:
            where = grid_r.child(i) if slots_or_grid is None else slots_or_grid.where(i)
            raise where.fail(f"card {ITEM_NAMES[card]!r} appears more than once")
        placed.add(card)


def state_from_json(data: Any) -> LedaState:
    """Decode a full state or an observer view, validating everything (paths in errors)."""
    root = JsonReader.document(data).obj(_TOP_FIELDS)
    if root.get("game").as_str() != "leda":
        raise root.get("game").fail("not a LEDA state")
    if root.opt("version", FORMAT_VERSION).as_int() != FORMAT_VERSION:
        raise root.get("version").fail(f"unsupported version; expected {FORMAT_VERSION}")
    observer = _opt_int(root, "observer", 0, 1)
    active = root.get("active").as_int(0, 1)
    win = _opt_int(root, "winner", 0, 1)
    winner = -1 if win is None else win
    zone = -1 if data.get("zone") is None else ZONE_BY_NAME[root.get("zone").as_str(ZONE_BY_NAME)]
    blocked = root.opt("mv_blocked", False).as_bool()

    players_r = root.get("players").as_list(2, 2)
    clans = [
        CLAN_BY_NAME[pr.obj(_PLAYER_FIELDS).get("clan").as_str(CLAN_BY_NAME)] for pr in players_r
    ]
    if clans[0] == clans[1]:
        raise players_r[1].get("clan").fail("both players have the same clan")

    known: list[set[int]] = [set(), set()]
    players = []
    for seat, pr in enumerate(players_r):
        clan = clans[seat]
        own = _CLAN_CARD_SETS[clan]
        grid = _decode_grid(pr, clan, own)
        hand = _hand_slots(pr, own)
        deck = _pile_slots(pr, "deck", own, "a card of this clan")
        for slots in (hand, deck):
            if slots.known:
                if observer is None:
                    raise slots.reader.fail("a view with counts needs an observer")
                known[observer] |= slots.known
        on_grid = [c for sq in grid for c in sq.cards]
        listed = on_grid + [c for c in hand.items + deck.items if c is not None]
        placed = set(listed)
        if len(placed) != len(listed):
            _raise_repeated_card(pr.get("grid"), grid, hand, deck)
        missing = sorted(own - placed)
        if len(missing) != hand.holes() + deck.holes():
            raise pr.fail(
                f"{len(missing)} cards of the clan are unaccounted for but the hidden parts "
                f"hold {hand.holes() + deck.holes()}"
            )
        rotated_ids = _items(pr, "rotated", CAT_ROTATING, "a rotating Cat card")
        _reject_repeats(pr, "rotated", rotated_ids)
        rotated = frozenset(rotated_ids)
        if not rotated.issubset(on_grid):
            for i, card in enumerate(rotated_ids):
                if card not in on_grid:
                    raise pr.get("rotated").child(i).fail("a rotated card must be on the grid")
        if "knows" in pr.value:
            known_ids = _items(pr, "knows", _ANY_ITEM, "an item")
            _reject_repeats(pr, "knows", known_ids)
            known[seat].update(known_ids)
        pool = list(missing)
        players.append(
            Player(
                clan=clan,
                grid=grid,
                hand=hand.fill(pool),
                deck=deck.fill(pool),
                food=pr.get("food").as_int(0, FOOD_MAX),
                mv=(),
                military=pr.get("military").as_int(0, MILITARY_MAX),
                specials=pr.opt("specials", 0).as_int(0, SPECIALS_MAX),
                rotated=rotated,
            )
        )

    # MV tokens: each exactly once between the pile and the players.
    mv_pile = _pile_slots(root, "mv_pile", _MV_TOKEN_SET, "an MV token")
    mv_owned = []
    seen_mv: set[int] = {x for x in mv_pile.items if x is not None}
    if len(seen_mv) != len(mv_pile.items) - mv_pile.holes():
        raise root.get("mv_pile").fail("an MV token appears more than once")
    for pr in players_r:
        tokens = []
        for r in pr.get("mv_tokens").as_list(0, MV_TOKEN_COUNT):
            t = _item(r, MV_TOKENS, "an MV token")
            if t in seen_mv:
                raise r.fail(f"MV token {ITEM_NAMES[t]!r} appears more than once")
            seen_mv.add(t)
            tokens.append(t)
        mv_owned.append(tuple(tokens))
    mv_missing = sorted(_MV_TOKEN_SET - seen_mv)
    if len(mv_missing) != mv_pile.holes():
        raise root.get("mv_pile").fail(f"expected {len(mv_missing)} hidden MV tokens")
    if mv_pile.known:
        if observer is None:
            raise root.get("mv_pile").fail("a view with counts needs an observer")
        known[observer] |= mv_pile.known

    # Action tiles: each exactly once between the pile and the revealed ones.
    act_pile = _pile_slots(root, "action_pile", _ACTION_TILE_SET, "an Action tile")
    seen_act: set[int] = set()
    revealed = []
    for r in root.opt("revealed_actions", []).as_list(0, REVEALED_MAX):
        t = _item(r, ACTION_TILES, "an Action tile")
        if t in seen_act:
            raise r.fail("Action tile revealed twice")
        seen_act.add(t)
        revealed.append(t)
    for i, slot in enumerate(act_pile.items):
        if slot is not None:
            if slot in seen_act:
                raise act_pile.where(i).fail("Action tile appears more than once")
            seen_act.add(slot)
    act_missing = sorted(_ACTION_TILE_SET - seen_act)
    if len(act_missing) != act_pile.holes():
        raise root.get("action_pile").fail(f"expected {len(act_missing)} hidden Action tiles")
    if not act_pile.items:
        raise root.get("action_pile").fail("the Action pile is never empty")
    if act_pile.known:
        if observer is None:
            raise root.get("action_pile").fail("a view with counts needs an observer")
        known[observer] |= act_pile.known

    players = [p._replace(mv=mv_owned[i]) for i, p in enumerate(players)]
    stack = _decode_pending(root)
    state = LedaState(
        players=(players[0], players[1]),
        active=active,
        action_pile=act_pile.fill(act_missing),
        revealed=tuple(revealed),
        mv_pile=mv_pile.fill(mv_missing),
        zone=zone,
        blocked=blocked,
        stack=stack,
        known=(frozenset(known[0]), frozenset(known[1])),
        winner=winner,
    )
    validation.check_state(state, root)
    return state

"""The JSON state format (see docs/leda/state-format.md): encoding, decoding, validation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import echo
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.leda import fastdecode
from boardbot.engine.leda.board import has_won
from boardbot.engine.leda.bounds import (
    FOOD_MAX,
    MILITARY_MAX,
    MV_TOKEN_COUNT,
    PENDING_MAX,
    REVEALED_MAX,
    SPECIALS_MAX,
)
from boardbot.engine.leda.data import (
    ACTION_TILE_ZONES,
    ACTION_TILES,
    CAT_ROTATING,
    CATS,
    CLAN_BY_NAME,
    CLAN_CARDS,
    CLAN_NAMES,
    EFFECTS,
    ITEM_BY_NAME,
    ITEM_NAMES,
    MV_TOKENS,
    OP_OR,
    PANDAS,
    SHARK_TOKENS,
    SHARKS,
    SQUARES,
    TILE_BY_NAME,
    TILE_FACE_NAMES,
    TILE_NAMES,
    ZONE_BY_NAME,
    ZONE_NAMES,
)
from boardbot.engine.leda.decisions import pile_items
from boardbot.engine.leda.fastdecode import (
    ACTION_TILE_BY_NAME,
    ANY_ITEM_BY_NAME,
    CLAN_CARD_BY_NAME,
    MV_TOKEN_BY_NAME,
    ROTATING_BY_NAME,
    ItemsByName,
    PileParts,
)
from boardbot.engine.leda.frames import (
    ARG_RANGES,
    AUTOMATIC,
    F_ACT_TILE,
    F_ACTIVATE,
    F_AWAKEN,
    F_CONFLICT,
    F_COPY,
    F_DESERT_FX,
    F_EFFECT,
    F_MULLIGAN,
    F_OR,
    F_ORG,
    F_PAY,
    F_QUEEN,
    F_RING_REVEAL,
    F_RING_ROTATE,
    F_RINGS,
    F_ROTATE_CARD,
    F_ROUND,
    F_ROUND_END,
    F_SEARCH_RING,
    F_SHUFFLE,
    F_SPY_PUT,
    F_STEP,
    F_STEP_END,
    F_UPGRADE,
    F_ZONE,
    FRAME_ARGS,
    FRAME_BY_NAME,
    FRAME_NAMES,
    SHUFFLE_DECK,
)
from boardbot.engine.leda.rules import legal_actions
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
        "pending": [
            {"frame": FRAME_NAMES[f[0]], "seat": f[1], "args": list(f[2:])} for f in state.stack
        ],
    }


# ----------------------------------------------------------------------------- decoding
# Every part is first read by `fastdecode` (scalar fields by `_int`, `_name` and friends) straight
# from the JSON values; only when that finds something wrong does the checked path build
# readers, and it raises the error with its exact path and reason.
_CLAN_CARD_SETS = tuple(frozenset(cards) for cards in CLAN_CARDS)
_MV_TOKEN_SET = frozenset(MV_TOKENS)
_ACTION_TILE_SET = frozenset(ACTION_TILES)
_ANY_ITEM = frozenset(range(len(ITEM_NAMES)))


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


def _items(
    parent: JsonReader, key: str, allowed: frozenset[int], by_name: ItemsByName, what: str
) -> list[int]:
    """The optional list of names `key` (absent: empty), each an item of `allowed`."""
    ids = fastdecode.names(parent.value.get(key, []), by_name, len(allowed))
    if ids is None:
        ids = [_item(r, allowed, what) for r in parent.opt(key, []).as_list(0, len(allowed))]
    return ids


def _reject_repeats(parent: JsonReader, key: str, ids: list[int]) -> None:
    """Raise at the second listing of any item in the list `key`."""
    if len(set(ids)) != len(ids):
        seen: set[int] = set()
        for i, item in enumerate(ids):
            if item in seen:
                raise parent.get(key).child(i).fail("listed twice")
            seen.add(item)


def _pile_slots(
    parent: JsonReader, key: str, allowed: frozenset[int], by_name: ItemsByName, what: str
) -> _Slots:
    """A sequence given in full (a list) or as a view {count, known: [{index, item}]}."""
    parts = fastdecode.pile(parent.value.get(key), by_name)
    reader = parent.get(key)
    items, positions = parts if parts is not None else _read_pile(reader, allowed, what)
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


def _hand_slots(parent: JsonReader, allowed: frozenset[int], by_name: ItemsByName) -> _Slots:
    """A hand given in full, or hidden as {count, known: [names]} (known cards first)."""
    value = parent.value.get("hand")
    if not isinstance(value, dict):
        return _pile_slots(parent, "hand", allowed, by_name, "a card of this clan")
    reader = parent.get("hand")
    view = fastdecode.hand_view(value, by_name)
    if view is None:
        reader.obj({"count", "known"})
        count = reader.get("count").as_int(0, len(allowed))
        entries = reader.opt("known", []).as_list(0, len(allowed))
        view = count, [_item(r, allowed, "a card of this clan") for r in entries]
        if len(view[1]) > count:
            raise reader.get("known").fail("more known cards than the hand holds")
    count, known = view
    items: list[int | None] = [*known, *([None] * (count - len(known)))]
    return _Slots(reader, items, set(known), lambda i: reader.get("known").child(i))


def _decode_grid(parent: JsonReader, clan: int, cards: frozenset[int]) -> tuple[Square, ...]:
    grid = fastdecode.grid(parent.value.get("grid"), clan, CLAN_CARD_BY_NAME[clan])
    if grid is not None:
        return grid
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
    if kind == F_EFFECT and not args[1] < max(1, len(EFFECTS[args[0]])):
        raise args_r[1].fail("op index beyond the effect")
    return (kind, seat, *args)


# Every "A or B" an effect can offer: the (A, B) pairs of the OR operations in the effects.
_OR_CHOICES = frozenset((op[1], op[2]) for ops in EFFECTS for op in ops if op[0] == OP_OR)


def _decode_pending(root: JsonReader) -> tuple[Frame, ...]:
    stack = fastdecode.frames(root.value.get("pending"))
    if stack is None:
        stack = tuple(_decode_frame(r) for r in root.get("pending").as_list(0, PENDING_MAX))
    return stack


def _obj(reader: JsonReader, allowed: frozenset[str]) -> JsonReader:
    """`reader` checked to be an object with no keys outside `allowed`."""
    value = reader.value
    if type(value) is not dict or not value.keys() <= allowed:
        reader.obj(allowed)
    return reader


def _int(
    parent: JsonReader, key: str, lo: int, hi: int | None = None, default: int | None = None
) -> int:
    """Integer field `key` in [lo, hi]; required unless it has a `default`."""
    value = parent.value.get(key, default)
    if type(value) is int and lo <= value and (hi is None or value <= hi):
        return value
    field = parent.get(key) if default is None else parent.opt(key, default)
    return field.as_int(lo, hi)


def _opt_int(parent: JsonReader, key: str, lo: int, hi: int) -> int | None:
    """Integer field `key` in [lo, hi], or None when it is absent or null."""
    value = parent.value.get(key)
    if value is None or (type(value) is int and lo <= value <= hi):
        return value
    return parent.get(key).as_int(lo, hi)


def _name(parent: JsonReader, key: str, by_name: dict[str, int]) -> int:
    """Required field `key`: one of the names of `by_name`, as its id."""
    value = parent.value.get(key)
    if type(value) is str and value in by_name:
        return by_name[value]
    return by_name[parent.get(key).as_str(by_name)]


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
    root = _obj(JsonReader(data), _TOP_FIELDS)
    game = data.get("game")
    if type(game) is not str:
        game = root.get("game").as_str()
    if game != "leda":
        raise root.get("game").fail("not a LEDA state")
    version = data.get("version", FORMAT_VERSION)
    if type(version) is not int:
        version = root.opt("version", FORMAT_VERSION).as_int()
    if version != FORMAT_VERSION:
        raise root.get("version").fail(f"unsupported version; expected {FORMAT_VERSION}")
    observer = _opt_int(root, "observer", 0, 1)
    active = _int(root, "active", 0, 1)
    win = _opt_int(root, "winner", 0, 1)
    winner = -1 if win is None else win
    zone_name = data.get("zone")
    if zone_name is None:
        zone = -1
    elif type(zone_name) is str and zone_name in ZONE_BY_NAME:
        zone = ZONE_BY_NAME[zone_name]
    else:
        zone = ZONE_BY_NAME[root.get("zone").as_str(ZONE_BY_NAME)]
    blocked = data.get("mv_blocked", False)
    if type(blocked) is not bool:
        blocked = root.opt("mv_blocked", False).as_bool()

    players_r = root.get("players").as_list(2, 2)
    clans = [_name(_obj(pr, _PLAYER_FIELDS), "clan", CLAN_BY_NAME) for pr in players_r]
    if clans[0] == clans[1]:
        raise players_r[1].get("clan").fail("both players have the same clan")

    known: list[set[int]] = [set(), set()]
    players = []
    for seat, pr in enumerate(players_r):
        clan = clans[seat]
        own, own_by_name = _CLAN_CARD_SETS[clan], CLAN_CARD_BY_NAME[clan]
        grid = _decode_grid(pr, clan, own)
        hand = _hand_slots(pr, own, own_by_name)
        deck = _pile_slots(pr, "deck", own, own_by_name, "a card of this clan")
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
        rotated_ids = _items(pr, "rotated", CAT_ROTATING, ROTATING_BY_NAME, "a rotating Cat card")
        _reject_repeats(pr, "rotated", rotated_ids)
        rotated = frozenset(rotated_ids)
        if not rotated.issubset(on_grid):
            for i, card in enumerate(rotated_ids):
                if card not in on_grid:
                    raise pr.get("rotated").child(i).fail("a rotated card must be on the grid")
        if "knows" in pr.value:
            known_ids = _items(pr, "knows", _ANY_ITEM, ANY_ITEM_BY_NAME, "an item")
            _reject_repeats(pr, "knows", known_ids)
            known[seat].update(known_ids)
        pool = list(missing)
        players.append(
            Player(
                clan=clan,
                grid=grid,
                hand=hand.fill(pool),
                deck=deck.fill(pool),
                food=_int(pr, "food", 0, FOOD_MAX),
                mv=(),
                military=_int(pr, "military", 0, MILITARY_MAX),
                specials=_int(pr, "specials", 0, SPECIALS_MAX, 0),
                rotated=rotated,
            )
        )

    # MV tokens: each exactly once between the pile and the players.
    mv_pile = _pile_slots(root, "mv_pile", _MV_TOKEN_SET, MV_TOKEN_BY_NAME, "an MV token")
    mv_owned = []
    seen_mv: set[int] = {x for x in mv_pile.items if x is not None}
    if len(seen_mv) != len(mv_pile.items) - mv_pile.holes():
        raise root.get("mv_pile").fail("an MV token appears more than once")
    for pr in players_r:
        tokens = fastdecode.names(pr.value.get("mv_tokens"), MV_TOKEN_BY_NAME, MV_TOKEN_COUNT)
        if tokens is None:
            tokens = []
            for r in pr.get("mv_tokens").as_list(0, MV_TOKEN_COUNT):
                t = _item(r, MV_TOKENS, "an MV token")
                if t in seen_mv:
                    raise r.fail(f"MV token {ITEM_NAMES[t]!r} appears more than once")
                seen_mv.add(t)
                tokens.append(t)
        else:
            for i, t in enumerate(tokens):
                if t in seen_mv:
                    where = pr.get("mv_tokens").child(i)
                    raise where.fail(f"MV token {ITEM_NAMES[t]!r} appears more than once")
                seen_mv.add(t)
        mv_owned.append(tuple(tokens))
    mv_missing = sorted(_MV_TOKEN_SET - seen_mv)
    if len(mv_missing) != mv_pile.holes():
        raise root.get("mv_pile").fail(f"expected {len(mv_missing)} hidden MV tokens")
    if mv_pile.known:
        if observer is None:
            raise root.get("mv_pile").fail("a view with counts needs an observer")
        known[observer] |= mv_pile.known

    # Action tiles: each exactly once between the pile and the revealed ones.
    act_pile = _pile_slots(
        root, "action_pile", _ACTION_TILE_SET, ACTION_TILE_BY_NAME, "an Action tile"
    )
    revealed = fastdecode.names(data.get("revealed_actions", []), ACTION_TILE_BY_NAME, REVEALED_MAX)
    seen_act: set[int] = set()
    if revealed is None:
        revealed = []
        for r in root.opt("revealed_actions", []).as_list(0, REVEALED_MAX):
            t = _item(r, ACTION_TILES, "an Action tile")
            if t in seen_act:
                raise r.fail("Action tile revealed twice")
            seen_act.add(t)
            revealed.append(t)
    else:
        for i, t in enumerate(revealed):
            if t in seen_act:
                raise root.get("revealed_actions").child(i).fail("Action tile revealed twice")
            seen_act.add(t)
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
    _check_knowledge(state, root)
    _check_phase(state, root)
    return state


def _check_knowledge(state: LedaState, root: JsonReader) -> None:
    """Known items must lie in zones hidden from that seat (not its own hand)."""
    hidden_common = set(state.action_pile) | set(state.mv_pile)
    for seat in (0, 1):
        me, other = state.players[seat], state.players[1 - seat]
        allowed = hidden_common | set(me.deck) | set(other.deck) | set(other.hand)
        for item in sorted(state.known[seat]):
            if item not in allowed:
                # A view's knowledge comes from its hidden parts and has no "knows" field.
                where = root.get("players").child(seat)
                if where.has("knows"):
                    where = where.child("knows")
                raise where.fail(f"{ITEM_NAMES[item]!r} is not in a zone hidden from this seat")


def _check_phase(state: LedaState, root: JsonReader) -> None:
    """The pending frames must describe a reachable point of a round."""
    pending = root.get("pending")
    stack = state.stack
    if state.winner >= 0:
        if stack:
            raise pending.fail("a finished game has no pending work")
        if not has_won(state.players[state.winner]):
            raise root.get("winner").fail("the winner meets no victory condition")
        return
    for seat, p in enumerate(state.players):
        if has_won(p):
            raise (
                root.get("players")
                .child(seat)
                .fail("this player meets a victory condition but the game is not over")
            )
    if not stack:
        raise pending.fail("a game in progress needs pending work")
    if stack[0][0] not in (F_ROUND, F_ROUND_END):
        raise pending.child(0).fail("the bottom frame must be a round or round-end frame")
    if stack[0][0] == F_ROUND_END and not state.revealed:
        raise root.get("revealed_actions").fail("a round in progress has a revealed tile")
    for seat, p in enumerate(state.players):
        if p.specials and (F_STEP_END, seat) not in stack:
            raise (
                root.get("players")
                .child(seat)
                .get("specials")
                .fail("special activations wait only during that player's activation step")
            )
    has_zone_choice = any(f[0] == F_ZONE for f in stack)
    _check_round_counters(state, root, has_zone_choice)
    for i, frame in enumerate(stack):
        kind = frame[0]
        if kind in (F_ROUND, F_ROUND_END) and frame[1] != state.active:
            raise pending.child(i).child("seat").fail("round frames belong to the active player")
        if kind == F_ZONE and (not state.revealed or frame[2] != state.revealed[-1]):
            raise pending.child(i).fail("the zone choice must be for the last revealed tile")
        if kind == F_ZONE and state.zone >= 0:
            raise root.get("zone").fail("no zone is chosen while the choice is pending")
        if kind in (F_STEP, F_ACTIVATE) and state.zone < 0 and not has_zone_choice:
            raise root.get("zone").fail("an activation step needs a chosen zone")
        if kind == F_OR and (frame[2], frame[3]) not in _OR_CHOICES:
            raise pending.child(i).child("args").fail("no effect offers this choice of two effects")
        if kind == F_ROTATE_CARD and not any(
            frame[2] in square.cards for square in state.players[frame[1]].grid
        ):
            raise pending.child(i).fail("the card to turn is not on that player's grid")
        if _activates(frame) and (F_STEP_END, frame[1]) not in stack:
            raise pending.child(i).fail("activations happen only in that player's activation step")
        if kind == F_PAY and (
            frame[2] > len(state.players[frame[1]].hand)
            or any(f[0] == F_PAY for f in stack[i + 1 :])
        ):
            raise pending.child(i).fail("one card play is paid at a time, from the hand it holds")
        if kind == F_ROTATE_CARD and frame[2] not in CAT_ROTATING:
            raise pending.child(i).fail("only a rotating Cat card can be turned")
        if kind == F_ROTATE_CARD and state.players[frame[1]].clan != CATS:
            raise pending.child(i).fail("only the Cats rotate cards")
        clan = _CLAN_FRAMES.get(kind)
        if clan is not None and state.players[frame[1]].clan != clan:
            raise (
                pending.child(i)
                .child("seat")
                .fail(f"only the {CLAN_NAMES[clan].capitalize()} make this decision")
            )
        if kind == F_SPY_PUT and not pile_items(state, frame[1], frame[2]):
            raise pending.child(i).fail("nothing was spied on an empty pile")
        if kind == F_MULLIGAN and state.revealed:
            raise pending.child(i).fail("mulligans happen before the first round")
        if kind == F_SHUFFLE and i != len(stack) - 1:
            raise pending.child(i).fail("a shuffle is always the top frame")
    if (
        state.zone >= 0
        and state.revealed
        and state.zone not in ACTION_TILE_ZONES[state.revealed[-1]]
    ):
        raise root.get("zone").fail("the zone is not offered by the last revealed tile")
    _check_skeleton(state, pending)
    top = stack[-1]
    if top[0] in AUTOMATIC:
        raise pending.child(len(stack) - 1).fail("the top frame must wait for a decision")
    if top[0] != F_SHUFFLE and not legal_actions(state):
        raise pending.child(len(stack) - 1).fail("the decision on top offers no legal action")


def _check_round_counters(state: LedaState, root: JsonReader, has_zone_choice: bool) -> None:
    """Zone, Military, the P4 block and the Action pile must fit the point of the round."""
    stack = state.stack
    between_rounds = stack[0][0] == F_ROUND
    if between_rounds:
        if state.zone >= 0:
            raise root.get("zone").fail("no zone is chosen between rounds")
        if len(state.action_pile) < 2:
            raise root.get("action_pile").fail(
                "a round starts with at least 2 Action tiles in the pile (else they are shuffled)"
            )
    for seat, p in enumerate(state.players):
        if p.military and (between_rounds or has_zone_choice or (F_STEP, seat) in stack):
            raise (
                root.get("players")
                .child(seat)
                .get("military")
                .fail("Military is gained only once that player's activation step has begun")
            )
    if state.blocked and (between_rounds or has_zone_choice or (F_STEP, state.active) in stack):
        raise root.get("mv_blocked").fail("no Portal can have blocked a round not yet activated")


# Decisions only one clan's own cards or rules can ask for (a Copy resolves the copied
# effect as the Cats' own, and a copied special activation is the Cats' own Draw 1).
_CLAN_FRAMES = {
    F_COPY: CATS, F_SEARCH_RING: CATS, F_RING_REVEAL: CATS, F_RING_ROTATE: CATS, F_RINGS: CATS,
    F_PAY: CATS, F_AWAKEN: PANDAS,
}  # fmt: skip

def _activates(frame: Frame) -> bool:
    """True for a pending decision that activates a square, tile or card when taken."""
    kind = frame[0]
    return kind in _ACTIVATING or (kind == F_UPGRADE and frame[2] == 1)


# Decisions that activate something; like every activation, they belong to an activation step.
_ACTIVATING = frozenset({F_ACT_TILE, F_DESERT_FX, F_COPY, F_QUEEN})

# Frames laid out by the round itself (never pushed by an effect).
_SKELETON = frozenset(
    {F_ROUND, F_ROUND_END, F_MULLIGAN, F_ZONE, F_STEP, F_STEP_END, F_ACTIVATE, F_CONFLICT, F_ORG}
)


def _check_skeleton(state: LedaState, pending: JsonReader) -> None:
    """The round's own frames must be what is left, in order, of the layout the round made.

    Between rounds: the round, then the mulligans still to decide (seat after the first player,
    then the first player). In a round: round-end, the two Organizations, the conflict, the two
    activation steps and the zone choice, each gone once done; a begun step is its step-end with
    its activation on top while it lasts. Anything above is work of an effect in progress.
    """
    stack = state.stack
    a, o = state.active, 1 - state.active
    between = stack[0][0] == F_ROUND
    layout: tuple[tuple[int, int], ...]
    if between:
        layout = ((F_MULLIGAN, o), (F_MULLIGAN, a))
    else:
        layout = ((F_ORG, o), (F_ORG, a), (F_CONFLICT, a), (F_STEP, o), (F_STEP, a), (F_ZONE, a))
    i, j = 1, 0
    while i < len(stack) and j < len(layout):
        kind, seat = stack[i][0], stack[i][1]
        if layout[j][0] == F_STEP and (kind, seat) == (F_STEP_END, layout[j][1]):
            i += 1  # this step has begun: every later frame of the layout is done
            if i < len(stack) and stack[i][:2] == (F_ACTIVATE, seat):
                i += 1
            break
        if (kind, seat) != layout[j]:
            break
        if kind == F_ZONE and i != len(stack) - 1:
            raise pending.child(i + 1).fail("nothing happens before the zone is chosen")
        i += 1
        j += 1
    for k in range(i, len(stack)):
        kind = stack[k][0]
        if kind in _SKELETON or (between and kind != F_SHUFFLE):
            raise pending.child(k).fail(f"a {FRAME_NAMES[kind]!r} frame is out of place here")
        if kind == F_SHUFFLE:
            what = stack[k][2]
            if between == (what == SHUFFLE_DECK) or (between and state.revealed):
                raise pending.child(k).fail("this shuffle cannot happen at this point")

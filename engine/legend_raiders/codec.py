"""The JSON form of a state (documented in docs/legend_raiders/state-format.md).

`state_to_json(s, observer)` hides what `observer` cannot know (other players' blind cards and the
deck's contents) as counts. `state_from_json` accepts a full state or such a view; hidden cards are
filled canonically (the lowest unseen card ids, seat by seat, then the deck) as placeholders, and
the state is validated by `boardbot.engine.legend_raiders.validation`.
"""

from __future__ import annotations

from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.legend_raiders import validation
from boardbot.engine.legend_raiders.bounds import (
    COIN_BONUS_MAX,
    COINS_MAX,
    COMPLETED_MAX,
    DECK_MAX,
    FINAL_SCORE_MAX,
    LEGACY_IDLE_TURNS_PER_PLAYER,
    N_CARDS,
    N_DIE_CARDS,
    N_TILES,
    POINTS_MAX,
    PREPARED_MAX,
    STACK_MAX,
    TOOL_DRAWS_MAX,
)
from boardbot.engine.legend_raiders.chance import bits
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.components import FACE_KINDS
from boardbot.engine.legend_raiders.knowledge import deal_hidden
from boardbot.engine.legend_raiders.rules import deck_holds_only_die_cards, visible_coins
from boardbot.engine.legend_raiders.scoring import final_scores, winner
from boardbot.engine.legend_raiders.state import (
    ACTION,
    COMPLETE,
    EMPTY,
    FINISH,
    NO_FACE,
    OVER,
    PHASE_NAMES,
    REFILL,
    REVEAL_CARD,
    PlayerState,
    RaidersState,
)

GAME_NAME = "legend_raiders"
RESUME_NAMES = {ACTION: "action", COMPLETE: "complete", FINISH: "finish", REFILL: "refill"}
_RESUME_BY_NAME = {v: k for k, v in RESUME_NAMES.items()}
_TILE_INDEX = {t: i for i, t in enumerate(C.tile_ids)}
_CARD_INDEX = {c: j for j, c in enumerate(C.card_ids)}
_ROOT_KEYS = {
    "game", "variant", "observer", "first_player", "turn", "end_triggered", "idle_turns",
    "players", "hq",
    "bag", "stack", "row", "deck", "removed_tiles", "removed_cards", "final_scores", "winner",
}
_PLAYER_KEYS = {
    "board", "character", "favourite", "tools", "torch_lit", "points", "coins_visible",
    "prepared", "completed", "cards_face_up", "cards_blind",
}
_TURN_KEYS = {
    "player", "phase", "die", "coin_bonus", "completed_this_turn", "column", "row_slot",
    "tool_draws_left", "then",
}


def tools_json(counts: tuple[int, ...]) -> JsonDict:
    """Tool counts as an object keyed by tool id."""
    return dict(zip(C.tool_ids, counts, strict=True))


def _tiles(items: tuple[int, ...] | list[int]) -> list[str]:
    return [C.tile_ids[i] for i in items]


def _cards(items: tuple[int, ...] | list[int]) -> list[str]:
    return [C.card_ids[j] for j in items]


def state_to_json(s: RaidersState, observer: int | None = None) -> JsonDict:
    """The documented JSON form; with `observer`, hidden cards appear only as counts.

    Once the game is over every hand has been revealed, so a view hides nothing.
    """
    hide_from = None if s.phase == OVER else observer
    players = []
    for seat, p in enumerate(s.players):
        players.append({
            "board": p.board + 1,
            "character": " / ".join(C.board_names[p.board]),
            "favourite": C.tool_ids[C.board_favourite[p.board]],
            "tools": tools_json(p.tools),
            "torch_lit": p.torch,
            "points": p.points,
            "coins_visible": visible_coins(len(p.prepared), p.completed),
            "prepared": _tiles(p.prepared),
            "completed": _tiles(p.completed),
            "cards_face_up": _cards(p.known),
            "cards_blind": (
                _cards(p.blind) if hide_from is None or hide_from == seat else len(p.blind)
            ),
        })
    hq_column = s.column + 1 if s.column >= 0 and s.phase != REVEAL_CARD else None
    out: JsonDict = {"game": GAME_NAME, "variant": "dice" if s.dice else "diceless"}
    if observer is not None:
        out["observer"] = observer
    out.update({
        "first_player": s.first,
        "turn": {
            "player": s.seat,
            "phase": PHASE_NAMES[s.phase],
            "die": FACE_KINDS[s.die] if s.die != NO_FACE else None,
            "coin_bonus": s.coin_bonus,
            "completed_this_turn": s.done,
            "column": hq_column,
            "row_slot": s.column + 1 if s.phase == REVEAL_CARD else None,
            "tool_draws_left": s.draws,
            "then": RESUME_NAMES.get(s.resume),
        },
        "end_triggered": s.ending,
        "players": players,
        "hq": [
            {"tile": C.tile_ids[t] if t >= 0 else None, "tools": tools_json(tools)}
            for t, tools in zip(s.hq_tiles, s.hq_tools, strict=True)
        ],
        "bag": tools_json(s.bag),
        "stack": _tiles(bits(s.stack)),
        "row": [C.card_ids[j] if j >= 0 else None for j in s.row],
        "deck": _cards(bits(s.deck)) if hide_from is None else s.deck.bit_count(),
        "removed_tiles": _tiles(bits(s.removed_tiles)),
        "removed_cards": _cards(bits(s.removed_cards)),
    })
    if s.phase == OVER:
        out["final_scores"] = list(final_scores(s))
        out["winner"] = winner(s)
    return out


class _Places:
    """Where each tile and card was found while decoding, to report duplicates by path."""

    def __init__(self) -> None:
        self.tiles: dict[int, str] = {}
        self.cards: dict[int, str] = {}

    def tile(self, r: JsonReader) -> int:
        i = _TILE_INDEX[r.as_str(C.tile_ids)]
        if i in self.tiles:
            raise r.fail(f"tile {C.tile_ids[i]!r} appears more than once (also at "
                         f"{self.tiles[i]})")
        self.tiles[i] = r.path
        return i

    def card(self, r: JsonReader) -> int:
        j = _CARD_INDEX[r.as_str(C.card_ids)]
        if j in self.cards:
            raise r.fail(f"card {C.card_ids[j]!r} appears more than once (also at "
                         f"{self.cards[j]})")
        self.cards[j] = r.path
        return j


def read_tools(r: JsonReader) -> tuple[int, ...]:
    """Tool counts from an object keyed by tool id (absent ids count 0)."""
    r.obj(C.tool_ids)
    return tuple(r.opt(t, 0).as_int(0, n) for t, n in zip(C.tool_ids, C.tool_counts, strict=True))


def _read_player(r: JsonReader, places: _Places) -> tuple[PlayerState, int | None]:
    r.obj(_PLAYER_KEYS)
    board = r.get("board").as_int(1, len(C.board_names)) - 1
    if r.has("character"):
        r.get("character").as_str([" / ".join(C.board_names[board])])
    if r.has("favourite"):
        r.get("favourite").as_str([C.tool_ids[C.board_favourite[board]]])
    tools = read_tools(r.get("tools"))
    torch = r.get("torch_lit").as_bool()
    points = r.get("points").as_int(0, POINTS_MAX)
    prepared_r = r.get("prepared").as_list(0, PREPARED_MAX)
    prepared = tuple(sorted(places.tile(t) for t in prepared_r))
    completed = tuple(places.tile(t) for t in r.get("completed").as_list(0, COMPLETED_MAX))
    known = tuple(sorted(places.card(c) for c in r.get("cards_face_up").as_list(0, N_CARDS)))
    blind_r = r.get("cards_blind")
    hidden: int | None = None
    blind: tuple[int, ...] = ()
    if isinstance(blind_r.value, int) and not isinstance(blind_r.value, bool):
        hidden = blind_r.as_int(0, N_CARDS)
    else:
        blind = tuple(sorted(places.card(c) for c in blind_r.as_list(0, N_CARDS)))
    if r.has("coins_visible"):
        coins = visible_coins(len(prepared), completed)
        if r.get("coins_visible").as_int(0, COINS_MAX) != coins:
            raise r.get("coins_visible").fail(f"the board shows {coins} coins")
    return PlayerState(board, tools, prepared, completed, torch, points, known, blind), hidden


def _opt_index(r: JsonReader, hi: int) -> int:
    return EMPTY if r.value is None else r.as_int(1, hi) - 1


def state_from_json(data: Any) -> RaidersState:
    """Decode and fully validate a state or an observer's view; errors name the JSON path."""
    root = JsonReader.document(data).obj(_ROOT_KEYS)
    root.get("game").as_str([GAME_NAME])
    dice = root.get("variant").as_str(["dice", "diceless"]) == "dice"
    places = _Places()
    players_r = root.get("players").as_list(2, 4)
    if root.has("observer"):
        root.get("observer").as_int(0, len(players_r) - 1)
    decoded = [_read_player(p, places) for p in players_r]
    players = [p for p, _ in decoded]
    for i, p in enumerate(players):
        for k in range(i):
            if players[k].board == p.board:
                raise players_r[i].get("board").fail(f"board {p.board + 1} is used twice")
    n = len(players)
    first = root.get("first_player").as_int(0, n - 1)

    turn = root.get("turn").obj(_TURN_KEYS)
    seat = turn.get("player").as_int(0, n - 1)
    phase = PHASE_NAMES.index(turn.get("phase").as_str(PHASE_NAMES))
    die_r = turn.get("die")
    die = NO_FACE if die_r.value is None else FACE_KINDS.index(die_r.as_str(FACE_KINDS))
    coin_bonus = turn.get("coin_bonus").as_int(0, COIN_BONUS_MAX)
    done = turn.get("completed_this_turn").as_int(0, C.completions_per_turn)
    column = _opt_index(turn.get("column"), C.hq_columns)
    row_slot = _opt_index(turn.get("row_slot"), C.face_up_cards)
    draws = turn.get("tool_draws_left").as_int(0, TOOL_DRAWS_MAX)
    then_r = turn.get("then")
    resume = EMPTY if then_r.value is None else _RESUME_BY_NAME[then_r.as_str(_RESUME_BY_NAME)]
    ending = root.get("end_triggered").as_bool()
    # Written by former versions, no longer used: read only to check its range.
    root.opt("idle_turns", 0).as_int(0, LEGACY_IDLE_TURNS_PER_PLAYER * n)

    hq_r = root.get("hq").as_list(C.hq_columns, C.hq_columns)
    hq_tiles = []
    hq_tools = []
    for col in hq_r:
        col.obj({"tile", "tools"})
        tile_r = col.get("tile")
        hq_tiles.append(EMPTY if tile_r.value is None else places.tile(tile_r))
        tools = read_tools(col.get("tools"))
        if sum(tools) > C.tools_per_column:
            raise col.get("tools").fail(f"at most {C.tools_per_column} tools under a column")
        hq_tools.append(tools)
    bag = read_tools(root.get("bag"))
    stack = sum(1 << places.tile(t) for t in root.get("stack").as_list(0, STACK_MAX))
    row_r = root.get("row").as_list(C.face_up_cards, C.face_up_cards)
    row = tuple(EMPTY if c.value is None else places.card(c) for c in row_r)
    deck_r = root.get("deck")
    deck_hidden: int | None = None
    deck = 0
    if isinstance(deck_r.value, int) and not isinstance(deck_r.value, bool):
        deck_hidden = deck_r.as_int(0, DECK_MAX)
    else:
        deck = sum(1 << places.card(c) for c in deck_r.as_list(0, DECK_MAX))
    removed_tiles = sum(
        1 << places.tile(t) for t in root.get("removed_tiles").as_list(0, N_TILES)
    )
    removed_cards = sum(
        1 << places.card(c) for c in root.get("removed_cards").as_list(0, N_DIE_CARDS)
    )

    missing_tiles = [t for i, t in enumerate(C.tile_ids) if i not in places.tiles]
    if missing_tiles:
        raise root.get("stack").fail(f"tiles missing from the game: {', '.join(missing_tiles)}")
    unseen = [j for j in range(len(C.card_ids)) if j not in places.cards]
    hidden_total = sum(h for _, h in decoded if h is not None) + (deck_hidden or 0)
    if hidden_total != len(unseen):
        raise root.get("deck").fail(
            f"{len(unseen)} cards are not listed anywhere but the hidden counts add up to "
            f"{hidden_total}"
        )
    state = RaidersState(
        players=tuple(players),
        dice=dice,
        first=first,
        seat=seat,
        phase=phase,
        die=die,
        coin_bonus=coin_bonus,
        done=done,
        column=row_slot if phase == REVEAL_CARD else column,
        draws=draws,
        resume=resume,
        hq_tiles=tuple(hq_tiles),
        hq_tools=tuple(hq_tools),
        bag=bag,
        stack=stack,
        row=row,
        deck=deck,
        removed_cards=removed_cards,
        removed_tiles=removed_tiles,
        ending=ending,
    )
    if unseen:
        # Placeholders: the lowest unseen ids, seat by seat, then the deck (Die cards first
        # into a deck that can hold only used Die cards).
        hands, dealt = deal_hidden(
            unseen, [h for _, h in decoded], deck_hidden or 0, deck_holds_only_die_cards(state)
        )
        filled = tuple(
            p if hand is None else p._replace(blind=hand)
            for p, hand in zip(state.players, hands, strict=True)
        )
        state = state._replace(players=filled, deck=state.deck if deck_hidden is None else dealt)
    validation.check_state(state, root, column, row_slot)
    if root.has("final_scores") or root.has("winner"):
        if phase != OVER:
            key = "final_scores" if root.has("final_scores") else "winner"
            raise root.get(key).fail("only present once the game is over")
        if root.has("final_scores"):
            got = [v.as_int(0, FINAL_SCORE_MAX) for v in root.get("final_scores").as_list(n, n)]
            if got != list(final_scores(state)):
                raise root.get("final_scores").fail(f"expected {list(final_scores(state))}")
        if root.has("winner") and root.get("winner").as_int(0, n - 1) != winner(state):
            raise root.get("winner").fail(f"the winner is seat {winner(state)}")
    return state

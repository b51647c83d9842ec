"""Helpers to build Legend Raiders states for scenario tests, by component names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from boardbot.engine.legend_raiders.state import (
    ACTION,
    EMPTY,
    NO_FACE,
    ROLL,
    PlayerState,
    RaidersState,
)

GAME = LegendRaidersGame()


def tile(name: str) -> int:
    """Tile index by id."""
    return C.tile_ids.index(name)


def card(name: str) -> int:
    """Card index by id."""
    return C.card_ids.index(name)


def tools(**counts: int) -> tuple[int, ...]:
    """Tool counts by tool id, e.g. tools(rope=1, shovel=2)."""
    for key in counts:
        assert key in C.tool_ids, key
    return tuple(counts.get(t, 0) for t in C.tool_ids)


FIVE = ("clavicola-salomonis", "grand-grimoire", "oracula-sibyllina", "prophetica", "atlantis")
"""Five completed tiles: one discovery short of the end."""


@dataclass
class P:
    """A player for `build`: names instead of indices."""

    board: int  # board number 1..4
    tools: tuple[int, ...] = (0, 0, 0, 0)
    prepared: tuple[str, ...] = ()
    completed: tuple[str, ...] = ()
    torch: bool = True
    points: int = 0
    known: tuple[str, ...] = ()
    blind: tuple[str, ...] = ()


@dataclass
class Table:
    """Everything else for `build`; unnamed tiles go to the stack, cards to the deck."""

    hq: tuple[str | None, ...] = ("lancea-longini", "horus", "pandora", "babylon")
    hq_tools: tuple[tuple[int, ...], ...] = field(
        default_factory=lambda: (tools(compass=2), tools(map=2), tools(shovel=2), tools(rope=2))
    )
    row: tuple[str | None, ...] = (
        "mission-book-weapon-idol-treasure", "discovery-idol-1", "mission-idol-treasure-place",
        "discovery-book-1",
    )
    removed_tiles: tuple[str, ...] = ()
    removed_cards: tuple[str, ...] = ()
    stack: tuple[str, ...] | None = None  # None: every tile not placed elsewhere
    deck: tuple[str, ...] | None = None  # None: every card not placed elsewhere


def build(
    players: list[P],
    table: Table | None = None,
    *,
    dice: bool = True,
    seat: int = 0,
    first: int = 0,
    phase: int | None = None,
    die: int = NO_FACE,
    coin_bonus: int = 0,
    ending: bool = False,
) -> RaidersState:
    """A consistent state (bag and stack/deck completed) checked by the JSON validator."""
    table = table or Table()
    ps = tuple(
        PlayerState(
            p.board - 1, p.tools, tuple(sorted(tile(t) for t in p.prepared)),
            tuple(tile(t) for t in p.completed), p.torch, p.points,
            tuple(sorted(card(c) for c in p.known)), tuple(sorted(card(c) for c in p.blind)),
        )
        for p in players
    )
    placed_tiles = {tile(t) for t in table.hq if t} | {tile(t) for t in table.removed_tiles}
    placed_cards = {card(c) for c in table.row if c} | {card(c) for c in table.removed_cards}
    for p in ps:
        placed_tiles |= set(p.prepared) | set(p.completed)
        placed_cards |= set(p.known) | set(p.blind)
    if table.stack is None:
        stack = sum(1 << i for i in range(len(C.tile_ids)) if i not in placed_tiles)
    else:
        stack = sum(1 << tile(t) for t in table.stack)
    if table.deck is None:
        deck = sum(1 << j for j in range(len(C.card_ids)) if j not in placed_cards)
    else:
        deck = sum(1 << card(c) for c in table.deck)
    bag = list(C.tool_counts)
    for counts in [p.tools for p in ps] + list(table.hq_tools):
        for t, n in enumerate(counts):
            bag[t] -= n
    state = RaidersState(
        players=ps,
        dice=dice,
        first=first,
        seat=seat,
        phase=phase if phase is not None else (ROLL if dice else ACTION),
        die=die,
        coin_bonus=coin_bonus,
        done=0,
        column=EMPTY,
        draws=0,
        resume=EMPTY,
        hq_tiles=tuple(tile(t) if t else EMPTY for t in table.hq),
        hq_tools=tuple(table.hq_tools),
        bag=tuple(bag),
        stack=stack,
        row=tuple(card(c) if c else EMPTY for c in table.row),
        deck=deck,
        removed_cards=sum(1 << card(c) for c in table.removed_cards),
        removed_tiles=sum(1 << tile(t) for t in table.removed_tiles),
        ending=ending,
    )
    return checked(state)


def checked(state: RaidersState) -> RaidersState:
    """`state` after a JSON round trip (which validates it)."""
    decoded = GAME.state_from_json(GAME.state_to_json(state))
    assert decoded == state
    return state


def play(state: RaidersState, *moves: str) -> RaidersState:
    """Apply moves and chance outcomes given in text notation, checking each is legal."""
    for move in moves:
        state = GAME.apply(state, GAME.action_from_str(state, move))
        checked(state)
    return state


def texts(state: RaidersState) -> list[str]:
    """The legal decisions of `state` in text notation."""
    return [GAME.action_to_str(state, a) for a in GAME.legal_actions(state)]


def phase_name(state: RaidersState) -> str:
    """The current phase as its JSON name."""
    return str(GAME.state_to_json(state)["turn"]["phase"])


# ----------------------------------------------------------------------------- engines
ENGINE_NAMES = ("python", "native")


class Engine:
    """The engine under test (Python or native) and how Python-built states reach it.

    Scenario states are built with the Python dataclasses (`build`) and handed to the engine
    through JSON (`state`); what a test reads field by field is the engine's state read back
    through JSON by the Python decoder (`py`). Everything else goes through `game`, the Python
    `Game` protocol (for the native engine, `tests.native.native_game`).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "python":
            self.game: Any = GAME
        else:
            from tests.native.native_game import native_game

            self.game = native_game("legend_raiders")

    def __repr__(self) -> str:
        return f"Engine({self.name!r})"

    @property
    def native(self) -> bool:
        return self.name == "native"

    def state(self, state: RaidersState) -> Any:
        """A Python-built state as the engine's state (through the JSON it decodes)."""
        if not self.native:
            return state
        return self.game.state_from_json(GAME.state_to_json(state))

    def py(self, state: Any) -> RaidersState:
        """The engine's state as a Python state (its JSON decoded by the Python engine)."""
        if not self.native:
            assert isinstance(state, RaidersState)
            return state
        return GAME.state_from_json(self.game.state_to_json(state))

    def build(self, players: list[P], table: Table | None = None, **kwargs: Any) -> Any:
        """`build` handed to the engine."""
        return self.state(build(players, table, **kwargs))

    def checked(self, state: Any) -> Any:
        """`state` after the engine's JSON round trip (which validates it)."""
        decoded = self.game.state_from_json(self.game.state_to_json(state))
        assert decoded == state
        return state

    def play(self, state: Any, *moves: str) -> Any:
        """Apply moves and chance outcomes given in text notation, checking each is legal."""
        for move in moves:
            state = self.game.apply(state, self.game.action_from_str(state, move))
            self.checked(state)
        return state

    def texts(self, state: Any) -> list[str]:
        """The legal decisions of `state` in text notation."""
        return [self.game.action_to_str(state, a) for a in self.game.legal_actions(state)]

    def phase_name(self, state: Any) -> str:
        """The current phase as its JSON name."""
        return str(self.game.state_to_json(state)["turn"]["phase"])

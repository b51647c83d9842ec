"""Small constructors of LEDA scenario states, and helpers to play actions by their text."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson
import pytest

from boardbot.engine.errors import EngineError, InvalidStateError
from boardbot.engine.leda.codec import state_from_json, state_to_json
from boardbot.engine.leda.data import (
    ACTION_TILE_ZONES,
    ACTION_TILES,
    CARD_BY_NAME,
    CLAN_BY_NAME,
    CLAN_CARDS,
    ITEM_BY_NAME,
    ITEM_NAMES,
    MV_TOKENS,
    SQUARE_BY_NAME,
    SQUARES,
    TILE_BY_NAME,
    ZONE_BY_NAME,
    ZONE_MASKS,
)
from boardbot.engine.leda.frames import (
    F_ACTIVATE,
    F_CONFLICT,
    F_ORG,
    F_ROUND_END,
    F_STEP,
    F_STEP_END,
    FRAME_NAMES,
)
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.leda.notation import action_from_str, action_to_str
from boardbot.engine.leda.rules import advance, apply_action, legal_actions
from boardbot.engine.leda.state import Frame, LedaState, Player, Square

# Default grid: tile id i on square i, i.e. rows of
#   food-1 food-2 food-3 food-4 / military-1 military-2 draw special /
#   temp-food-1..4 / temp-military temp-draw temp-upgrade temp-special
DEFAULT_TILES = tuple(range(SQUARES))

CLAN_PAIRS = [
    ("cats", "pandas"),
    ("cats", "sharks"),
    ("cats", "scorpions"),
    ("pandas", "sharks"),
    ("pandas", "scorpions"),
    ("sharks", "scorpions"),
]
"""Every pairing of two distinct clans."""


def sq(name: str) -> int:
    """Square index of `r1c1`-style name."""
    return SQUARE_BY_NAME[name]


def card(name: str) -> int:
    """Item id of a card / token / Action tile name."""
    return ITEM_BY_NAME[name]


def make_player(
    clan: str,
    *,
    cards: Mapping[str, Sequence[str]] | None = None,
    hand: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    food: int = 0,
    mv: Sequence[str] = (),
    military: int = 0,
    tiles: Mapping[str, tuple[str, str]] | None = None,
    tokens: Iterable[str] = (),
    rotated: Iterable[str] = (),
    specials: int = 0,
) -> Player:
    """A player on the default grid. `cards` maps squares to card stacks (bottom first) and
    `tiles` puts a tile (with a face) on a square. Cards named nowhere go to the deck; when
    `deck` is given it is the whole deck and the remaining cards join the hand."""
    clan_id = CLAN_BY_NAME[clan]
    grid = [Square(t, 0, (), False) for t in DEFAULT_TILES]
    for name, (tile, face) in (tiles or {}).items():
        # Put the named tile there; the tile it displaces takes its old square.
        tid = TILE_BY_NAME[tile]
        old = next(i for i, s in enumerate(grid) if s.tile == tid)
        grid[old] = grid[sq(name)]
        grid[sq(name)] = Square(tid, 0 if face == "front" else 1, (), False)
    for name, stack in (cards or {}).items():
        grid[sq(name)] = grid[sq(name)]._replace(cards=tuple(CARD_BY_NAME[c] for c in stack))
    for name in tokens:
        grid[sq(name)] = grid[sq(name)]._replace(token=True)
    if clan_id == CLAN_BY_NAME["sharks"]:
        # A Shark card always brought a token to its square, and tokens never leave it.
        grid = [s._replace(token=True) if s.cards else s for s in grid]
    used = {c for s in grid for c in s.cards} | {CARD_BY_NAME[c] for c in hand}
    hand_ids = [CARD_BY_NAME[c] for c in hand]
    if deck is None:
        deck_ids = [c for c in CLAN_CARDS[clan_id] if c not in used]
    else:
        deck_ids = [CARD_BY_NAME[c] for c in deck]
        rest = [c for c in CLAN_CARDS[clan_id] if c not in used and c not in deck_ids]
        hand_ids += rest
    return Player(
        clan=clan_id,
        grid=tuple(grid),
        hand=tuple(hand_ids),
        deck=tuple(deck_ids),
        food=food,
        mv=tuple(ITEM_BY_NAME[t] for t in mv),
        military=military,
        specials=specials,
        rotated=frozenset(CARD_BY_NAME[c] for c in rotated),
    )


def org_stack(active: int = 0) -> tuple[Frame, ...]:
    """Pending work at the start of the Organization phase."""
    return ((F_ROUND_END, active), (F_ORG, 1 - active), (F_ORG, active))


def conflict_stack(active: int = 0) -> tuple[Frame, ...]:
    """Pending work just before the military conflict (it runs on its own)."""
    return (*org_stack(active), (F_CONFLICT, active))


def activation_stack(seat: int, zone: int, active: int = 0) -> tuple[Frame, ...]:
    """Pending work in the middle of `seat`'s activation step of `zone` (nothing done yet)."""
    other = 1 - active
    base: tuple[Frame, ...] = ((F_ROUND_END, active), (F_ORG, other), (F_ORG, active))
    base += ((F_CONFLICT, active),)
    if seat == active:
        base += ((F_STEP, other), (F_STEP_END, seat), (F_ACTIVATE, seat, ZONE_MASKS[zone]))
    else:
        base += ((F_STEP_END, seat), (F_ACTIVATE, seat, ZONE_MASKS[zone]))
    return base


def make_state(
    p0: Player,
    p1: Player,
    *,
    stack: tuple[Frame, ...] | None = None,
    zone: str | None = "row1",
    active: int = 0,
    mv_pile: Sequence[str] | None = None,
    mv_top: Sequence[str] = (),
    action_pile: Sequence[str] | None = None,
    revealed: Sequence[str] | None = None,
    blocked: bool = False,
    seat: int = 0,
) -> LedaState:
    """A validated state; by default `seat` is about to activate `zone` (round of action-1)."""
    owned = set(p0.mv) | set(p1.mv)
    mv = (
        tuple(ITEM_BY_NAME[t] for t in mv_pile)
        if mv_pile is not None
        else tuple(ITEM_BY_NAME[t] for t in mv_top)
        + tuple(t for t in MV_TOKENS if t not in owned and ITEM_NAMES[t] not in mv_top)
    )
    z = ZONE_BY_NAME[zone] if zone is not None else -1
    if revealed is None:
        shown = tuple(t for t, zones in ACTION_TILE_ZONES.items() if z in zones)
    else:
        shown = tuple(ITEM_BY_NAME[t] for t in revealed)
    actions = (
        tuple(ITEM_BY_NAME[t] for t in action_pile)
        if action_pile is not None
        else tuple(t for t in ACTION_TILES if t not in shown)
    )
    state = LedaState(
        players=(p0, p1),
        active=active,
        action_pile=actions,
        revealed=shown,
        mv_pile=mv,
        zone=z,
        blocked=blocked,
        stack=stack if stack is not None else activation_stack(seat, z, active),
        known=(frozenset(), frozenset()),
        winner=-1,
    )
    state = advance(state)
    return check_valid(state)


def check_valid(state: LedaState) -> LedaState:
    """The state survives the JSON round trip (so it passes full validation)."""
    data = orjson.loads(orjson.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    return state


def play(state: LedaState, *texts: str) -> LedaState:
    """Apply actions given in short notation, each checked for legality."""
    for text in texts:
        state = apply_action(state, action_from_str(state, text))
    return state


def options(state: LedaState) -> list[str]:
    """The legal actions in short notation."""
    return [action_to_str(state, a) for a in legal_actions(state)]


def top_frame(state: LedaState) -> str:
    """Name of the pending decision."""
    return FRAME_NAMES[state.stack[-1][0]] if state.stack else "none"


def base_json() -> dict[str, Any]:
    """A valid mid-game state as JSON (Sharks vs Pandas, seat 0 activating row 1)."""
    p0 = make_player("sharks", cards={"r1c1": ["shark-4"]}, tokens=["r1c1"], hand=["shark-1"])
    p1 = make_player("pandas", hand=["panda-3", "panda-7"], food=2, mv=["mv-4"])
    state = make_state(p0, p1, zone="row1")
    state = play(state, "activate:r1c2")
    data: dict[str, Any] = orjson.loads(orjson.dumps(state_to_json(state)))
    return data


# ----------------------------------------------------------------------------- engines
GAME = LedaGame()


class Engine:
    """The engine under test (Python or native) and how Python-built states reach it.

    Scenario states are built with the Python constructors above (`make_player`, `make_state`)
    and handed to the engine through JSON (`state`); the engine plays them through the Python
    `Game` protocol (`game`; for the native engine, `tests.native.native_game`), and what a test
    reads field by field is the engine's state read back through JSON by the Python decoder
    (`py`). `play`, `sample` and `options` take and return Python states, so a scenario reads
    as on the Python engine alone.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "python":
            self.game: Any = GAME
        else:
            from tests.native.native_game import native_game

            self.game = native_game("leda")

    def __repr__(self) -> str:
        return f"Engine({self.name!r})"

    @property
    def native(self) -> bool:
        return self.name == "native"

    def state(self, state: LedaState) -> Any:
        """A Python-built state as the engine's state (through the JSON it decodes)."""
        if not self.native:
            return state
        return self.game.state_from_json(state_to_json(state))

    def py(self, state: Any) -> LedaState:
        """The engine's state as a Python state (its JSON decoded by the Python engine)."""
        if not self.native:
            assert isinstance(state, LedaState)
            return state
        return state_from_json(self.game.state_to_json(state))

    def checked(self, state: Any) -> Any:
        """`state` (the engine's) after the engine's JSON round trip (which validates it)."""
        assert self.game.state_from_json(self.game.state_to_json(state)) == state
        return state

    def play(self, state: LedaState, *texts: str) -> LedaState:
        """Apply actions given in short notation on the engine, each checked for legality."""
        s = self.state(state)
        for text in texts:
            s = self.checked(self.game.apply(s, self.game.action_from_str(s, text)))
        return self.py(s)

    def sample(self, state: LedaState, rng: random.Random) -> LedaState:
        """The pending shuffle drawn by the engine's sampler (`rng` seeds it) and applied."""
        s = self.state(state)
        return self.py(self.checked(self.game.apply(s, self.game.sample_chance(s, rng))))

    def conflict(self, p0: Player, p1: Player, *, active: int = 0, **kw: Any) -> LedaState:
        """The state after the military conflict of `p0` and `p1`, run by the engine.

        `make_state(p0, p1, stack=conflict_stack(active))` would run the conflict in the Python
        builder; here the engine runs it: the state is handed over one decision earlier, the
        other seat about to end its activation step of row 2 with its Draw tile (r2c3), and the
        engine plays that activation (the seat draws a card, or nothing from an empty deck),
        the end of the step, then the conflict. `kw` as for `make_state` (zone: row 2).
        """
        other = 1 - active
        draw = sq("r2c3")
        stack = (*conflict_stack(active), (F_STEP_END, other), (F_ACTIVATE, other, 1 << draw))
        kw.setdefault("zone", "row2")
        before = make_state(p0, p1, stack=stack, active=active, **kw)
        assert before.players[other].grid[draw] == Square(TILE_BY_NAME["draw"], 0, (), False)
        assert top_frame(before) == "activate", "the other seat's step is over already"
        return self.play(before, "activate:r2c3")

    def options(self, state: LedaState) -> list[str]:
        """The engine's legal actions in short notation."""
        s = self.state(state)
        return [self.game.action_to_str(s, a) for a in self.game.legal_actions(s)]

    def current_player(self, state: LedaState) -> int:
        """The seat to move by the engine (CHANCE, TERMINAL included)."""
        return int(self.game.current_player(self.state(state)))

    def new_state(self, options: Mapping[str, Any], seed: int) -> LedaState:
        """The engine's setup (its own random stream) as a Python state."""
        return self.py(self.game.new_state(options, seed))

    def decode(self, data: Any) -> LedaState:
        """`data` decoded by the engine, read back as a Python state."""
        return self.py(self.game.state_from_json(data))

    def rejects(self, data: Any, path: str, reason: str = "") -> InvalidStateError:
        """The engine refuses `data` at `path` with a reason containing `reason`; the native
        engine gives exactly the Python engine's reason."""
        with pytest.raises(InvalidStateError) as err:
            self.game.state_from_json(data)
        assert err.value.path == path, err.value
        assert reason in err.value.reason, err.value
        if self.native:
            with pytest.raises(InvalidStateError) as py_err:
                GAME.state_from_json(data)
            assert (err.value.path, err.value.reason) == (py_err.value.path, py_err.value.reason)
        return err.value

    def refuses_action(
        self, state: LedaState, form: str, value: Any, error: type[EngineError]
    ) -> EngineError:
        """Parsing `value` (`form` "str" or "json") in `state` fails with `error` exactly (not a
        subclass); the native engine gives the Python engine's path and reason."""

        def parse(game: Any, s: Any) -> Any:
            if form == "str":
                return game.action_from_str(s, value)
            return game.action_from_json(s, value)

        with pytest.raises(EngineError) as err:
            parse(self.game, self.state(state))
        assert type(err.value) is error, err.value
        if self.native:
            with pytest.raises(EngineError) as py_err:
                parse(GAME, state)
            assert type(py_err.value) is error, py_err.value
            assert (err.value.path, err.value.reason) == (py_err.value.path, py_err.value.reason)
        return err.value

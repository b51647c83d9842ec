"""Small games for the search tests; each is a BaseGame with its declared GameType."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardbot.engine.api import CHANCE, TERMINAL, Action, JsonDict, State, View
from boardbot.engine.base import BaseGame
from boardbot.engine.errors import IllegalActionError, InvalidActionError, InvalidStateError
from boardbot.engine.game_type import Chance, GameType, Information


class ToyGame(BaseGame):
    """Shared plumbing: a frozen dataclass state with `player` and `winner`, string actions."""

    state_type: type = object
    players = 2

    def num_players(self, state: State) -> int:
        """Fixed seat count."""
        return self.players

    def current_player(self, state: State) -> int:
        """The `player` field (CHANCE/TERMINAL markers included)."""
        return int(state.player)

    def returns(self, state: State) -> tuple[float, ...]:
        """1 for the winner at the end, 0 otherwise."""
        if state.player != TERMINAL:
            return (0.0,) * self.players
        return tuple(1.0 if seat == state.winner else 0.0 for seat in range(self.players))

    def scores(self, state: State) -> tuple[float, ...]:
        """Toy games score like their returns."""
        return self.returns(state)

    def state_to_json(self, state: State, observer: int | None = None) -> JsonDict:
        """Field dict of the dataclass state."""
        return {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}

    def state_from_json(self, data: Any) -> State:
        """Rebuild the dataclass state, lists becoming tuples."""
        if not isinstance(data, dict):
            raise InvalidStateError("$", "expected an object")
        values = {}
        for f in dataclasses.fields(self.state_type):
            if f.name not in data:
                raise InvalidStateError(f"$.{f.name}", "missing required field")
            value = data[f.name]
            values[f.name] = tuple(value) if isinstance(value, list) else value
        return self.state_type(**values)

    def action_to_json(self, state: State, action: Action) -> JsonDict:
        """`{"move": <text>}`."""
        return {"move": self.action_to_str(state, action)}

    def action_from_json(self, state: State, data: Any) -> Action:
        """Parse `{"move": <text>}`."""
        if not isinstance(data, dict) or not isinstance(data.get("move"), str):
            raise InvalidActionError("$.move", "expected a string")
        return self.action_from_str(state, data["move"])

    def action_to_str(self, state: State, action: Action) -> str:
        """The action's own text."""
        return str(action)

    def action_from_str(self, state: State, text: str) -> Action:
        """The legal action whose text is `text`."""
        for action in self.legal_actions(state):
            if self.action_to_str(state, action) == text:
                return action
        raise IllegalActionError("$", f"{text!r} is not legal here")

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Provided by each game."""
        raise NotImplementedError


@dataclass(frozen=True)
class NimState:
    """Stones left and the seat to move; whoever takes the last stone wins."""

    stones: int
    player: int
    winner: int = -1


class NimGame(ToyGame):
    """Take 1 to 3 stones; taking the last stone wins (a multiple of 4 left is lost)."""

    game_type = GameType("toy-nim", 2, 2, Chance.NONE, Information.PERFECT)
    state_type = NimState

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> NimState:
        """`stones` option (default 10); seat 0 moves first."""
        return NimState(int((options or {}).get("stones", 10)), 0)

    def legal_actions(self, state: NimState) -> Sequence[Action]:
        """How many stones may be taken."""
        if state.player < 0:
            return []
        return [n for n in (1, 2, 3) if n <= state.stones]

    def apply(self, state: NimState, action: Action) -> NimState:
        """Take stones; the taker of the last one wins."""
        if action not in self.legal_actions(state):
            raise IllegalActionError("$", f"cannot take {action}")
        left = state.stones - int(action)  # type: ignore[call-overload]
        if left == 0:
            return NimState(0, TERMINAL, state.player)
        return NimState(left, 1 - state.player)


@dataclass(frozen=True)
class GuessState:
    """Seat 0 guesses seat 1's hidden card or takes a coin flip."""

    hands: tuple[int, int]
    deck: tuple[int, ...]
    player: int
    winner: int = -1


class GuessGame(ToyGame):
    """Cards 1-4, one per seat; seat 0 may `guess-k` (wins iff seat 1 holds k) or `coin`.

    Under seat 0's information set a guess wins 1/3 and the coin 1/2: `coin` is right.
    A search that saw seat 1's card would guess it instead.
    """

    game_type = GameType("toy-guess", 2, 2, Chance.LISTED, Information.IMPERFECT)
    state_type = GuessState

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> GuessState:
        """Deal one card each from a seeded shuffle of 1-4."""
        cards = [1, 2, 3, 4]
        random.Random(seed).shuffle(cards)
        return GuessState((cards[0], cards[1]), tuple(cards[2:]), 0)

    def legal_actions(self, state: GuessState) -> Sequence[Action]:
        """Guesses and the coin, for seat 0 only."""
        if state.player != 0:
            return []
        return ["coin", "guess-1", "guess-2", "guess-3", "guess-4"]

    def apply(self, state: GuessState, action: Action) -> GuessState:
        """Resolve a guess, or go to the coin's chance step and resolve it."""
        if state.player == CHANCE:
            return dataclasses.replace(state, player=TERMINAL, winner=0 if action == "heads" else 1)
        if action not in self.legal_actions(state):
            raise IllegalActionError("$", f"{action!r} is not legal")
        if action == "coin":
            return dataclasses.replace(state, player=CHANCE)
        guessed = int(str(action).split("-")[1])
        return dataclasses.replace(
            state, player=TERMINAL, winner=0 if guessed == state.hands[1] else 1
        )

    def chance_outcomes(self, state: GuessState) -> Sequence[tuple[Action, float]] | None:
        """A fair coin."""
        return [("heads", 0.5), ("tails", 0.5)] if state.player == CHANCE else None

    @staticmethod
    def _deal(state: GuessState, seat: int, unseen: list[int]) -> GuessState:
        """`state` with the cards `seat` cannot see dealt in the order of `unseen`."""
        hands = [0, 0]
        hands[seat] = state.hands[seat]
        hands[1 - seat] = unseen[0]
        return dataclasses.replace(state, hands=(hands[0], hands[1]), deck=tuple(unseen[1:]))

    def observe(self, state: GuessState, seat: int) -> View:
        """The seat's own card kept, the cards it cannot see in ascending order."""
        unseen = [card for card in (1, 2, 3, 4) if card != state.hands[seat]]
        return View(seat, self._deal(state, seat, unseen))

    def determinize(self, view: View, rng: random.Random) -> GuessState:
        """Keep the seat's card, shuffle every card it cannot see."""
        state, seat = view.state, view.seat
        unseen = [card for card in (1, 2, 3, 4) if card != state.hands[seat]]
        rng.shuffle(unseen)
        return self._deal(state, seat, unseen)

    def state_to_json(self, state: GuessState, observer: int | None = None) -> JsonDict:
        """With an observer, the other hand and the deck are hidden (zeros)."""
        data = super().state_to_json(state)
        if observer is not None:
            hands = [0, 0]
            hands[observer] = state.hands[observer]
            data["hands"] = tuple(hands)
            data["deck"] = (0,) * len(state.deck)
        return data


@dataclass(frozen=True)
class KingmakerState:
    """Seat 0 picks who decides the winner; that seat then names seat 0 or another."""

    path: tuple[str, ...]
    player: int
    winner: int = -1


class KingmakerGame(ToyGame):
    """Three seats. Seat 0: `ask-1` or `ask-2`.

    `ask-1`: seat 1 crowns seat 0 or seat 1 (it crowns itself: seat 0 gets 0).
    `ask-2`: seat 2 crowns seat 0 or seat 1 (it is indifferent: seat 0 gets about 1/2).
    A search that maximised seat 0's value at every node would pick `ask-1`.
    """

    game_type = GameType("toy-kingmaker", 3, 3, Chance.NONE, Information.PERFECT)
    players = 3
    state_type = KingmakerState

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> KingmakerState:
        """Seat 0 to choose."""
        return KingmakerState((), 0)

    def legal_actions(self, state: KingmakerState) -> Sequence[Action]:
        """Seat 0 asks; the asked seat crowns."""
        if state.player == 0:
            return ["ask-1", "ask-2"]
        if state.player in (1, 2):
            return ["crown-0", "crown-1"]
        return []

    def apply(self, state: KingmakerState, action: Action) -> KingmakerState:
        """Record the choice and move on."""
        if action not in self.legal_actions(state):
            raise IllegalActionError("$", f"{action!r} is not legal")
        text = str(action)
        path = (*state.path, text)
        if state.player == 0:
            return KingmakerState(path, int(text[-1]))
        return KingmakerState(path, TERMINAL, int(text[-1]))


@dataclass(frozen=True)
class DiceState:
    """Seat 0 picks a gamble; a chance step settles it; seat 1 then has a dummy turn."""

    gamble: str
    roll: int
    player: int
    winner: int = -1


class DiceGame(ToyGame):
    """Seat 0: `coin` (wins 1/2) or `die` (wins on 3-6, 2/3). Then seat 1 `ack`s the result.

    The chance step sits between two decisions, exercising open-loop chance handling.
    """

    game_type = GameType("toy-dice", 2, 2, Chance.LISTED, Information.PERFECT)
    state_type = DiceState

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> DiceState:
        """Seat 0 to choose a gamble."""
        return DiceState("", 0, 0)

    def legal_actions(self, state: DiceState) -> Sequence[Action]:
        """Gambles for seat 0, acknowledgements for seat 1."""
        if state.player == 0:
            return ["coin", "die"]
        if state.player == 1:
            return ["ack", "sigh"]
        return []

    def apply(self, state: DiceState, action: Action) -> DiceState:
        """Choose, roll, then acknowledge."""
        if state.player == CHANCE:
            return dataclasses.replace(state, roll=int(action), player=1)  # type: ignore[call-overload]
        if action not in self.legal_actions(state):
            raise IllegalActionError("$", f"{action!r} is not legal")
        if state.player == 0:
            return dataclasses.replace(state, gamble=str(action), player=CHANCE)
        won = state.roll >= 3 if state.gamble == "die" else state.roll == 1
        return dataclasses.replace(state, player=TERMINAL, winner=0 if won else 1)

    def chance_outcomes(self, state: DiceState) -> Sequence[tuple[Action, float]] | None:
        """A die (1-6) or a coin (1-2)."""
        if state.player != CHANCE:
            return None
        faces = 6 if state.gamble == "die" else 2
        return [(face, 1.0 / faces) for face in range(1, faces + 1)]


@dataclass(frozen=True)
class NeedleState:
    """Seat 0 picks one of `moves` actions; only the needle wins."""

    moves: int
    needle: int
    player: int
    winner: int = -1


class NeedleGame(ToyGame):
    """Seat 0 picks `m0` .. `m<moves-1>`; `m<needle>` wins, every other move loses.

    `policy_weights` points at the needle (weight 10, the others 1): a search with priors
    expands it first, a uniform one finds it only by chance.
    """

    game_type = GameType("toy-needle", 2, 2, Chance.NONE, Information.PERFECT)
    state_type = NeedleState

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> NeedleState:
        """`moves` (default 20) and `needle` (default 13) options; seat 0 to choose."""
        opts = options or {}
        return NeedleState(int(opts.get("moves", 20)), int(opts.get("needle", 13)), 0)

    def legal_actions(self, state: NeedleState) -> Sequence[Action]:
        """Every move, for seat 0 only."""
        return [f"m{i}" for i in range(state.moves)] if state.player == 0 else []

    def apply(self, state: NeedleState, action: Action) -> NeedleState:
        """The needle wins for seat 0; anything else wins for seat 1."""
        if action not in self.legal_actions(state):
            raise IllegalActionError("$", f"{action!r} is not legal")
        won = action == f"m{state.needle}"
        return dataclasses.replace(state, player=TERMINAL, winner=0 if won else 1)

    def policy_weights(self, state: NeedleState, actions: Sequence[Action], /) -> Sequence[float]:
        """10 for the needle, 1 for every other move."""
        return [10.0 if a == f"m{state.needle}" else 1.0 for a in actions]

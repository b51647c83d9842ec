"""Hostile gRPC requests for every RPC: bad states, seats, names, moves, budgets, deadlines."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import orjson

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from fuzz import values
from fuzz.mutators import (
    Mutation,
    PathIndex,
    Vocab,
    apply_all,
    build_vocab,
    index_paths,
    mutate,
    mutate_text,
    stack_size,
)
from fuzz.seeds import Seed, by_game, setups

INT32 = (-(2**31), 2**31 - 1)
PRESETS = ("beginner", "easy", "medium", "hard", "expert")
CHEAP_PRESETS = ("beginner", "easy")
TINY_DEADLINES = (1e-6, 0.001, 0.005, 0.02, 0.04)
"""Deadlines (seconds) too short for any search."""
METHOD_WEIGHTS = {
    "ListGames": 3, "NewGame": 12, "LegalMoves": 20, "ApplyMove": 24,
    "ChooseMove": 16, "Analyze": 13, "AnalyzeStream": 8,
}
SEARCH_METHODS = ("ChooseMove", "Analyze", "AnalyzeStream")
REQUEST_TYPES: dict[str, Any] = {
    "ListGames": pb.ListGamesRequest, "NewGame": pb.NewGameRequest,
    "LegalMoves": pb.LegalMovesRequest, "ApplyMove": pb.ApplyMoveRequest,
    "ChooseMove": pb.ChooseMoveRequest, "Analyze": pb.AnalyzeRequest,
    "AnalyzeStream": pb.AnalyzeStreamRequest,
}
HOSTILE_SETTINGS: dict[str, tuple[Any, ...]] = {
    "iterations": (0, -1, -(2**31), 2**31 - 1, 1_000_001, 1, 1_000_000),
    "time_ms": (0.0, -1.0, float("nan"), float("inf"), float("-inf"), 1e-300, 1e308, 0.001,
                60_000.0, 60_000.5),
    "workers": (0, -1, 1, 2, 2**31 - 1, -(2**31)),
    "exploration": (0.0, -1.0, float("nan"), float("inf"), float("-inf"), 1e308, -0.0, 1e-300),
    "temperature": (0.0, -1.0, float("nan"), float("inf"), float("-inf"), 1e308, -0.0, 1e-300),
}
"""Out-of-range, non-finite and extreme values for each search setting."""


@dataclass
class StateSpec:
    """How a request's state bytes are made: a seed document with mutations, or raw bytes."""

    base: Any = None
    mutations: list[Mutation] = field(default_factory=list)
    encoding: str = "orjson"
    """orjson, or json (the standard library: NaN, Infinity and big integers pass through)."""
    raw: bytes | None = None
    pad_to: int = 0
    """Grow the bytes to this size with trailing spaces (still valid JSON)."""

    def encode(self) -> bytes:
        """The bytes sent."""
        if self.raw is not None:
            data = self.raw
        else:
            doc = apply_all(self.base, self.mutations)
            data = encode_json(doc, self.encoding)
        if self.pad_to > len(data):
            data += b" " * (self.pad_to - len(data))
        return data


def encode_json(doc: Any, encoding: str = "orjson") -> bytes:
    """`doc` as JSON bytes: orjson when asked and able, else the standard library (which writes
    NaN, Infinity, big integers and lone surrogates, escaped)."""
    if encoding == "orjson":
        try:
            return orjson.dumps(doc)
        except (orjson.JSONEncodeError, TypeError):
            pass
    try:
        return json.dumps(doc, separators=(",", ":")).encode()
    except (RecursionError, ValueError):
        return orjson.dumps(None)


@dataclass
class GrpcCase:
    """One request: method, fields, state, deadline (None: no deadline)."""

    index: int
    method: str
    fields: dict[str, Any]
    state: StateSpec | None
    timeout: float | None
    game: str = ""
    """The game of the seed the request was made from (to check answers)."""
    seed_label: str = ""
    budget: str = "none"
    """cheap, preset, heavy or hostile: the search budget asked for (search RPCs)."""

    def message(self) -> Any:
        """The protobuf request (strings a protobuf cannot carry, lone surrogates, become ?)."""
        fields = wire_fields(self.fields)
        if self.method == "AnalyzeStream":
            inner = dict(fields.pop("analysis", {}))
            _fill(inner, self.state)
            return pb.AnalyzeStreamRequest(analysis=_analysis(inner), **fields)
        _fill(fields, self.state)
        if "settings" in fields:
            fields["settings"] = pb.SearchSettings(**fields["settings"])
        return REQUEST_TYPES[self.method](**fields)

    def state_bytes(self) -> int:
        """Size of the state sent (0 without one)."""
        return len(self.state.encode()) if self.state is not None else 0


def wire_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """A copy of `fields` whose strings are valid UTF-8 (protobuf refuses anything else)."""
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if isinstance(value, dict):
            value = wire_fields(value)
        elif isinstance(value, str):
            value = value.encode("utf-8", "replace").decode("utf-8")
        out[key] = value
    return out


def _fill(fields: dict[str, Any], state: StateSpec | None) -> None:
    if state is not None:
        fields["state_json"] = state.encode()


def _analysis(fields: dict[str, Any]) -> Any:
    if "settings" in fields:
        fields["settings"] = pb.SearchSettings(**fields["settings"])
    return pb.AnalyzeRequest(**fields)


@dataclass(frozen=True)
class Target:
    """What the requests are aimed at: the server's size and time bounds."""

    max_message_bytes: int
    max_time_ms: float


class GrpcCaseFactory:
    """Makes request `i` of a run from the run's seed alone."""

    def __init__(self, run_seed: int, seeds: list[Seed], target: Target) -> None:
        self.run_seed = run_seed
        self.seeds = seeds
        self.decisions = [s for s in seeds if s.to_move >= 0 and s.moves]
        self.target = target
        grouped = by_game(seeds)
        self.games = list(grouped)
        self.vocab: dict[str, Vocab] = {
            game: build_vocab([s.doc for s in group] + [m[1] for s in group for m in s.moves])
            for game, group in grouped.items()
        }
        self.options = [(s.game, s.options) for s in setups()]
        self._indexes: dict[str, PathIndex] = {}

    def case(self, index: int) -> GrpcCase:
        """Request number `index`."""
        rng = random.Random(f"{self.run_seed}/grpc/{index}")
        method = rng.choices(list(METHOD_WEIGHTS), list(METHOD_WEIGHTS.values()))[0]
        if rng.random() < 0.04:
            return GrpcCase(index, method, {}, None, self._deadline(rng, "cheap"))
        if method == "ListGames":
            return GrpcCase(index, method, {}, None, self._deadline(rng, "cheap"))
        if method == "NewGame":
            return self._new_game(rng, index)
        seed = rng.choice(self.decisions if rng.random() < 0.85 else self.seeds)
        fields: dict[str, Any] = {"game": self._game(rng, seed.game)}
        state = self._state(rng, seed)
        if method == "LegalMoves":
            fields["seat"] = self._seat(rng, seed)
            return GrpcCase(index, method, fields, state, self._deadline(rng, "cheap"),
                            seed.game, seed.label)
        if method == "ApplyMove":
            fields.update(self._move(rng, seed))
            fields["seed"] = self._uint64(rng)
            return GrpcCase(index, method, fields, state, self._deadline(rng, "cheap"),
                            seed.game, seed.label)
        budget, search = self._search_fields(rng)
        fields.update(search)
        fields["seat"] = self._seat(rng, seed)
        fields["seed"] = self._uint64(rng)
        if method != "ChooseMove":
            fields["top_k"] = self._top_k(rng)
        if method == "AnalyzeStream":
            fields = {"analysis": fields, **self._stream_periods(rng, budget)}
        return GrpcCase(index, method, fields, state, self._deadline(rng, budget), seed.game,
                        seed.label, budget)

    # -- fields -----------------------------------------------------------------------------

    def _game(self, rng: random.Random, game: str) -> str:
        if rng.random() < 0.88:
            return game
        return rng.choice((
            "", "chess", game.upper(), f" {game}", f"{game}\x00", game.replace("_", "-"),
            rng.choice(self.games), values.huge_string(rng), values.random_text(rng),
            "../../etc/passwd", "leda" * 300,
        ))

    def _state(self, rng: random.Random, seed: Seed) -> StateSpec:
        roll = rng.random()
        if roll < 0.45:
            return StateSpec(seed.doc)
        if roll < 0.85:
            paths = self._indexes.get(seed.label)
            if paths is None:
                paths = self._indexes[seed.label] = index_paths(seed.doc)
            _, mutations = mutate(rng, seed.doc, self.vocab[seed.game], paths, stack_size(rng))
            encoding = "orjson" if rng.random() < 0.85 else "json"
            return StateSpec(seed.doc, mutations, encoding)
        limit = self.target.max_message_bytes
        whole = orjson.dumps(seed.doc)
        raws = (
            b"", b"{", b"null", b"[]", b"0", b'"leda"', b"\xff\xfe\x00", b"\xef\xbb\xbf" + whole,
            whole[: rng.randrange(len(whole))], whole + b"}", b"[" * 1100 + b"]" * 1100,
            whole.replace(b"0", b"NaN", 1), b"{" + b'"a":1,' * 10_000 + b'"a":2}',
        )
        if rng.random() < 0.9:
            return StateSpec(raw=rng.choice(raws))
        pad_to = rng.choice((limit - 2048, limit - 200, limit + 200, limit * 2))
        return StateSpec(seed.doc, pad_to=pad_to)

    def _seat(self, rng: random.Random, seed: Seed) -> int:
        if rng.random() < 0.85:
            return max(seed.to_move, 0)
        return rng.choice((-1, -2, seed.players, seed.players + 1, *INT32,
                           rng.randrange(seed.players)))

    def _uint64(self, rng: random.Random) -> int:
        return rng.choice((0, 1, 2**63, 2**64 - 1, rng.randrange(2**64)))

    def _move(self, rng: random.Random, seed: Seed) -> dict[str, Any]:
        roll = rng.random()
        if not seed.moves or roll < 0.05:
            return rng.choice(({}, {"move_json": b""}, {"notation": ""},
                               {"notation": values.odd_string(rng)}))
        notation, doc = rng.choice(seed.moves)
        vocab = self.vocab[seed.game]
        if roll < 0.45:
            return {"move_json": orjson.dumps(doc)}
        if roll < 0.75:
            return {"notation": notation}
        if roll < 0.88:
            moved, _ = mutate(rng, doc, vocab, None, stack_size(rng))
            return {"move_json": encode_json(moved, rng.choice(("orjson", "json")))}
        return {"notation": mutate_text(rng, notation, vocab)}

    def _search_fields(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        roll = rng.random()
        if roll < 0.75:
            budget = "cheap"
            preset = rng.choice(("", *PRESETS))
            settings: dict[str, Any] = {"iterations": rng.randint(1, 30)}
        elif roll < 0.87:
            budget, preset, settings = "preset", rng.choice(CHEAP_PRESETS), {}
        elif roll < 0.9:
            budget = "heavy"
            preset = rng.choice(("hard", "expert", "medium"))
            settings = rng.choice(
                ({}, {"iterations": 1_000_000}, {"time_ms": self.target.max_time_ms})
            )
        else:
            budget = "hostile"
            preset = rng.choice(("", *CHEAP_PRESETS))
            settings = {"iterations": rng.randint(1, 30)}
            for key, choices in HOSTILE_SETTINGS.items():
                if rng.random() < 0.4:
                    settings[key] = rng.choice(choices)
        if rng.random() < 0.08:
            preset = rng.choice(("BEGINNER", "nightmare", " easy", values.huge_string(rng),
                                 values.random_text(rng), "medium\x00"))
        return budget, {"preset": preset, "settings": settings}

    def _top_k(self, rng: random.Random) -> int:
        if rng.random() < 0.75:
            return rng.choice((0, 1, 3, 10))
        return rng.choice((-1, *INT32, 1_000_000))

    def _stream_periods(self, rng: random.Random, budget: str) -> dict[str, int]:
        if budget == "heavy":
            return {"every_ms": rng.choice((0, 50, 200))}
        return {
            "every_iterations": rng.choice((0, 0, 1, 5, 100, -1, *INT32)),
            "every_ms": rng.choice((0, 0, 1, 10, 100, -1, *INT32)),
        }

    def _deadline(self, rng: random.Random, budget: str) -> float | None:
        roll = rng.random()
        if roll < 0.12:
            return None
        if roll < 0.3:
            return rng.choice(TINY_DEADLINES)
        if budget == "heavy":
            return rng.uniform(0.3, 1.5)
        return rng.uniform(0.5, 3.0)

    def _new_game(self, rng: random.Random, index: int) -> GrpcCase:
        game, options = rng.choice(self.options)
        fields: dict[str, Any] = {"game": self._game(rng, game), "seed": self._uint64(rng)}
        roll = rng.random()
        if roll < 0.45:
            fields["options_json"] = orjson.dumps(options)
        elif roll < 0.55:
            pass  # empty options: the defaults
        elif roll < 0.9:
            doc, _ = mutate(rng, dict(options) or {"players": 2}, self.vocab[game], None,
                            stack_size(rng))
            fields["options_json"] = encode_json(doc, rng.choice(("orjson", "json")))
        else:
            fields["options_json"] = rng.choice((b"{", b"[]", b"null", b"\xff", b"1",
                                                 values.huge_string(rng).encode()))
        if rng.random() < 0.3:
            fields["players"] = rng.choice((-1, 0, 1, 2, 3, 4, 5, *INT32))
        elif "players" in options:
            fields["players"] = options["players"]
        return GrpcCase(index, "NewGame", fields, None, self._deadline(rng, "cheap"), game)

"""Hostile gRPC requests for every RPC: bad states, seats, names, moves, budgets, deadlines."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import orjson

from boardbot.engine import CHANCE, EngineError, get_game
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
    "ListGames": 3, "NewGame": 12, "LegalMoves": 20, "ApplyMove": 24, "ViewState": 8,
    "ChooseMove": 16, "Analyze": 13, "AnalyzeStream": 8,
}
SEARCH_METHODS = ("ChooseMove", "Analyze", "AnalyzeStream")
REQUEST_TYPES: dict[str, Any] = {
    "ListGames": pb.ListGamesRequest, "NewGame": pb.NewGameRequest,
    "LegalMoves": pb.LegalMovesRequest, "ApplyMove": pb.ApplyMoveRequest,
    "ViewState": pb.ViewStateRequest, "ChooseMove": pb.ChooseMoveRequest,
    "Analyze": pb.AnalyzeRequest,
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
ELO_TARGETS = (0.0, 100.0, 350.0, 600.0, 900.0, 1200.0, -1.0, -1e-9, 5000.0, 1e308, -1e308,
               float("nan"), float("inf"), float("-inf"), 2.0**63)
"""`target_elo` values: inside and outside the calibrated ranges, and not finite."""
NEST_DEPTHS = (40, 300, 1000, 2000, 5000)
"""Nesting depths of the deep-JSON cases (state_json and options_json); the server refuses
more than 32 levels."""
NEST_MARK = "\u0000nest\u0000"
"""A placeholder string replaced by the deep nesting once the document is written."""
RAW_SHARE = 0.05
"""Share of requests sent as raw bytes: a mutated serialized message (`raw_request`)."""
TOKENLESS_SHARE = 0.02
"""Share of requests sent without the token (expected: UNAUTHENTICATED)."""
NEST_SHARE = 0.02
"""Share of requests whose state_json or options_json nests 40 to 5,000 levels deep."""
HOSTILE_OUTCOMES = (
    "shuffle:", "shuffle:0", "shuffle:0,0", "shuffle:1,0", "shuffle:-1", "shuffle:99",
    "shuffle:0,1,2,3,4,5,6,7,8,9,10,11,12,13", "roll:tool", "roll:coin", "roll:", "draw:map",
    "draw:", "reveal:", "reveal:mjollnir", "roll:torch",
)
"""Chance outcomes in notation, possible or not, for ApplyMove at a chance step."""


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
    raw: bytes | None = None
    """Bytes sent as the whole request instead of the message of `fields` (malformed ones)."""
    tokenless: bool = False
    """Sent without the token (a server with `--token` must refuse it UNAUTHENTICATED)."""
    expect: str = ""
    """An expectation beyond the common ones: "json-path" (INVALID_ARGUMENT naming a JSON
    path), "malformed" (raw bytes that are no valid message: MALFORMED_REQUEST)."""

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


def parses(method: str, raw: bytes) -> bool:
    """True if `raw` decodes as a request message of `method` (as the server decodes it)."""
    try:
        REQUEST_TYPES[method].FromString(raw)
    except Exception:  # DecodeError, or an unknown method
        return False
    return True


def chance_forms(seed: Seed) -> list[tuple[str, Any]]:
    """The chance outcomes of a seed at a chance step, as (notation, JSON): every listed
    outcome, or a few sampled ones (a LEDA shuffle)."""
    game = get_game(seed.game)
    try:
        state = game.state_from_json(seed.doc)
        listed = game.chance_outcomes(state)
        rng = random.Random(seed.label)
        actions = [a for a, _ in listed] if listed is not None else [
            game.sample_chance(state, rng) for _ in range(3)
        ]
        return [(game.action_to_str(state, a), game.action_to_json(state, a)) for a in actions]
    except EngineError:
        return []


def invalid_utf8(rng: random.Random, case: GrpcCase, data: bytes) -> bytes:
    """`data` with the bytes of one of its string fields (game, preset, notation,
    session_key) turned into invalid UTF-8 of the same length."""
    fields = case.fields.get("analysis", case.fields)
    texts = [v.encode() for k, v in fields.items()
             if isinstance(v, str) and v and k in ("game", "preset", "notation", "session_key")]
    bad = rng.choice((b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80",
                      b"\xc0\xaf"))
    for text in texts:
        if text in data and len(text) >= len(bad):
            at = rng.randrange(len(text) - len(bad) + 1)
            return data.replace(text, text[:at] + bad + text[at + len(bad):], 1)
    # No string field to spoil: add a game field (1) of invalid UTF-8.
    return data + b"\x0a" + bytes([len(bad)]) + bad


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
        self.chances = [s for s in seeds if s.to_move == CHANCE and "/view" not in s.label]
        self.outcomes = {s.label: chance_forms(s) for s in self.chances}

    def case(self, index: int) -> GrpcCase:
        """Request number `index`: mostly a hostile request of one method; some are sent as
        mutated raw bytes, without the token, or with JSON nested thousands of levels deep."""
        rng = random.Random(f"{self.run_seed}/grpc/{index}")
        family = rng.random()
        case = self._case(rng, index)
        if family < RAW_SHARE:
            return self._raw(rng, case)
        if family < RAW_SHARE + TOKENLESS_SHARE:
            case.tokenless = True
            return case
        if family < RAW_SHARE + TOKENLESS_SHARE + NEST_SHARE:
            return self._nested(rng, case)
        return case

    def _case(self, rng: random.Random, index: int) -> GrpcCase:
        method = rng.choices(list(METHOD_WEIGHTS), list(METHOD_WEIGHTS.values()))[0]
        if rng.random() < 0.04:
            return GrpcCase(index, method, {}, None, self._deadline(rng, "cheap"))
        if method == "ListGames":
            return GrpcCase(index, method, {}, None, self._deadline(rng, "cheap"))
        if method == "NewGame":
            return self._new_game(rng, index)
        at_chance = method in ("LegalMoves", "ApplyMove") and self.chances and rng.random() < 0.3
        if at_chance:
            seed = rng.choice(self.chances)
        else:
            seed = rng.choice(self.decisions if rng.random() < 0.85 else self.seeds)
        fields: dict[str, Any] = {"game": self._game(rng, seed.game)}
        state = self._state(rng, seed)
        if method in ("LegalMoves", "ViewState"):
            fields["seat"] = self._seat(rng, seed)
            if at_chance and rng.random() < 0.7:
                fields["seat"] = -1
            return GrpcCase(index, method, fields, state, self._deadline(rng, "cheap"),
                            seed.game, seed.label)
        if method == "ApplyMove":
            fields.update(self._outcome(rng, seed) if at_chance else self._move(rng, seed))
            fields["seed"] = self._uint64(rng)
            if rng.random() < 0.3:
                fields["manual_chance"] = True
            return GrpcCase(index, method, fields, state, self._deadline(rng, "cheap"),
                            seed.game, seed.label)
        budget, search = self._search_fields(rng)
        fields.update(search)
        fields["seat"] = self._seat(rng, seed)
        fields["seed"] = self._uint64(rng)
        if method != "ChooseMove" or rng.random() < 0.3:
            fields["top_k"] = self._top_k(rng)
        if rng.random() < 0.1:
            fields["target_elo"] = rng.choice(ELO_TARGETS)
            if rng.random() < 0.6:
                fields["preset"] = ""
            if rng.random() < 0.6:
                fields["settings"] = rng.choice(({}, {"time_ms": 200.0}, {"iterations": 10}))
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

    def _outcome(self, rng: random.Random, seed: Seed) -> dict[str, Any]:
        """A chance outcome for ApplyMove at a chance step: a possible one (notation or JSON),
        a hostile one, a mutated one, or none (the server draws it)."""
        forms = self.outcomes.get(seed.label, [])
        roll = rng.random()
        if forms and roll < 0.45:
            notation, doc = rng.choice(forms)
            if rng.random() < 0.5:
                return {"notation": notation}
            return {"move_json": orjson.dumps(doc)}
        if roll < 0.65:
            return {"notation": rng.choice(HOSTILE_OUTCOMES)}
        if forms and roll < 0.85:
            _, doc = rng.choice(forms)
            moved, _ = mutate(rng, doc, self.vocab[seed.game], None, stack_size(rng))
            return {"move_json": encode_json(moved, rng.choice(("orjson", "json")))}
        if roll < 0.92:
            order = rng.choice(([], [0], [0, 0], [1, 0], list(range(14)), [-1, 0], [2**63]))
            return {"move_json": orjson.dumps({"type": "shuffle", "order": order})}
        return {}

    def _raw(self, rng: random.Random, case: GrpcCase) -> GrpcCase:
        """`case` sent as mutated bytes of its serialized message: bytes flipped, cut short,
        invalid UTF-8 put into a string field, or a field of a bad wire type."""
        data = bytearray(case.message().SerializeToString())
        roll = rng.random()
        if roll < 0.3 and data:
            for _ in range(rng.choice((1, 1, 2, 4))):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif roll < 0.55 and data:
            del data[rng.randrange(len(data)):]
        elif roll < 0.85:
            data = bytearray(invalid_utf8(rng, case, bytes(data)))
        else:
            bad = rng.choice((b"\x0f\x01", b"\x0e", b"\x0a\xff\xff\xff\xff\x0f", b"\x07"))
            at = rng.choice((0, len(data)))
            data[at:at] = bad
        case.raw = bytes(data)
        case.tokenless = rng.random() < 0.2
        if not parses(case.method, case.raw):
            case.expect = "malformed"
        return case

    def _nested(self, rng: random.Random, case: GrpcCase) -> GrpcCase:
        """`case` with a value deep in its state (or NewGame's options) nested 300 to 5,000
        levels: the answer must be INVALID_ARGUMENT naming a JSON path."""
        depth = rng.choice(NEST_DEPTHS)
        opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
        nest = (opener * depth + "0" + closer * depth).encode()
        mark = orjson.dumps(NEST_MARK)
        if case.method == "NewGame":
            key = rng.choice(("players", "clans", "variant", "extra"))
            case.fields["options_json"] = orjson.dumps({key: NEST_MARK}).replace(mark, nest)
        elif case.state is not None and isinstance(case.state.base, dict):
            base = case.state.base
            paths = [p for p in index_paths(base).by_kind.get("list", []) if p]
            if paths:
                doc = apply_all(base, [Mutation("set", rng.choice(paths), NEST_MARK)])
            else:
                doc = {**base, "extra": NEST_MARK}
            case.state = StateSpec(raw=orjson.dumps(doc).replace(mark, nest))
        else:
            return case
        case.expect = "json-path"
        return case

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
        if rng.random() < 0.3:
            fields["manual_chance"] = True
        return GrpcCase(index, "NewGame", fields, None, self._deadline(rng, "cheap"), game)

"""Models a search names: the shipped ones by name (`leda-2p`), any other by file path, each
loaded once per process and checked against the game it is asked to guide."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from boardbot.engine.api import Features, Game
from boardbot.search.api import SearchConfig
from boardbot.search.errors import InvalidConfigError
from boardbot.search.network import Network

MODELS_DIR = Path(__file__).with_name("models")
"""Where the shipped models live (`<game>-<players>p.bbnet`, each with its card)."""

MODEL_SUFFIX = ".bbnet"

_NAME = re.compile(r"[a-z_]+-[0-9]p")

AUTO_MODEL = "auto"
"""The model setting that picks, at each search, the shipped model of the searched game for
the state's seat count, and no model where none is shipped (`with_model_for`)."""

NO_MODEL = "none"
"""The model setting, in a bot name or a request, that turns a preset's model off."""


def is_model_name(spec: str) -> bool:
    """True when `spec` has the form of a shipped model's name (`leda-2p`), not of a path."""
    return _NAME.fullmatch(spec) is not None


def shipped_models() -> list[str]:
    """The names of the models shipped in the package."""
    return sorted(p.name.removesuffix(MODEL_SUFFIX) for p in MODELS_DIR.glob(f"*{MODEL_SUFFIX}"))


def model_name(game: str, players: int) -> str:
    """The shipped name of the model for `game` with `players` seats (`legend_raiders-3p`)."""
    return f"{game}-{players}p"


def with_model_for(config: SearchConfig, game: str, players: int) -> SearchConfig:
    """`config` with an `auto` model replaced by the shipped model of `game` for `players` seats
    (no model when none is shipped); any other config unchanged."""
    if config.model != AUTO_MODEL:
        return config
    name = model_name(game, players)
    shipped = (MODELS_DIR / f"{name}{MODEL_SUFFIX}").is_file()
    return config.replace(model=name if shipped else None)


def model_path(spec: str) -> Path:
    """The file a model setting names: a shipped model's name or a path (InvalidConfigError
    when there is no such model)."""
    if is_model_name(spec):
        path = MODELS_DIR / f"{spec}{MODEL_SUFFIX}"
        if not path.is_file():
            shipped = ", ".join(shipped_models()) or "none"
            raise InvalidConfigError(f"model: no shipped model named {spec!r} (shipped: {shipped})")
        return path
    path = Path(spec)
    if not path.is_file():
        raise InvalidConfigError(f"model: no model file at {spec!r}")
    return path.resolve()


def load_network(spec: str) -> Network:
    """The network a model setting names, read once per file version in this process."""
    path = model_path(spec)
    stat = path.stat()
    return _load(str(path), stat.st_size, stat.st_mtime_ns)


@cache
def _load(path: str, size: int, mtime_ns: int) -> Network:
    try:
        return Network.load(Path(path))
    except ValueError as err:
        raise InvalidConfigError(f"model {path}: {err}") from None


def check_fits(network: Network, game: Game, players: int) -> None:
    """InvalidConfigError unless `network` reads `game`'s features for `players` seats as the
    game defines them now (the native core's wording)."""
    reason = misfit(network, game, players)
    if reason is not None:
        raise InvalidConfigError(f"the model does not fit: {reason}")


def misfit(network: Network, game: Game, players: int) -> str | None:
    """Why `network` cannot guide `game` with `players` seats, or None."""
    if not isinstance(game, Features):
        return f"{game.name} defines no features"
    if network.game != game.name:
        return f"it was trained for {network.game}, not {game.name}"
    if network.players != players:
        return f"it was trained for {network.players} players, the game has {players}"
    if network.features_version != game.features_version:
        return (
            f"it reads features version {network.features_version}, the game defines "
            f"version {game.features_version}"
        )
    sizes = (game.feature_size(players), game.action_feature_size())
    if (network.feature_size, network.action_feature_size) != sizes:
        return (
            f"it reads {network.feature_size} features and {network.action_feature_size} "
            f"action features, the game gives {sizes[0]} and {sizes[1]}"
        )
    return None

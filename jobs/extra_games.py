"""Games registered from the environment (`BOARDBOT_EXTRA_GAMES`), in servers and workers."""

from __future__ import annotations

import os

from boardbot.engine.registry import register_game

ENV_VAR = "BOARDBOT_EXTRA_GAMES"


def register_env_games(value: str | None = None) -> list[str]:
    """Register each `name=package.module:Class` of a comma-separated list; return the names."""
    text = os.environ.get(ENV_VAR, "") if value is None else value
    names = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, target = item.partition("=")
        if not sep or ":" not in target:
            raise ValueError(f"{ENV_VAR}: expected name=package.module:Class, got {item!r}")
        register_game(name.strip(), target.strip())
        names.append(name.strip())
    return names

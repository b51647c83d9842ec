"""Optional packages (the package's extras), imported when a command needs them."""

from __future__ import annotations

import importlib
from types import ModuleType

from boardbot.engine.errors import BoardbotError


class MissingExtraError(BoardbotError, RuntimeError):
    """An optional package a command needs is not installed."""


def import_extra(module: str, extra: str, purpose: str) -> ModuleType:
    """Import `module`, or raise MissingExtraError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{purpose} needs the {module} package, which is not installed: install boardbot "
            f"with its `{extra}` extra (in a checkout: pip install -e '.[{extra}]')"
        ) from None

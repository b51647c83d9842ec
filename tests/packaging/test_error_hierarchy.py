"""One error hierarchy: every exception class boardbot defines derives from BoardbotError."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import boardbot
from boardbot.engine.errors import BoardbotError


def _exception_classes() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(boardbot.__path__, "boardbot."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == info.name and issubclass(value, BaseException):
                found.append(value)
    return found


def test_every_boardbot_exception_derives_from_boardbot_error() -> None:
    classes = _exception_classes()
    names = {c.__name__ for c in classes}
    # The walk reaches every layer (a guard against a walk that finds nothing).
    assert {"EngineError", "SearchError", "RequestError", "MatchError", "CommandError"} <= names
    assert [c.__qualname__ for c in classes if not issubclass(c, BoardbotError)] == []


def test_compatible_second_bases_are_kept() -> None:
    from boardbot.search.bots import UnknownBotError
    from boardbot.search.errors import SearchError
    from boardbot.search.parallel import SearchWorkerError
    from boardbot.search.presets import UnknownPresetError
    from boardbot.search.rollout import UnknownRolloutPolicyError
    from boardbot.tools.match import MatchError

    assert issubclass(SearchError, ValueError)
    assert issubclass(UnknownRolloutPolicyError, SearchError)
    assert issubclass(UnknownRolloutPolicyError, ValueError)
    assert issubclass(UnknownPresetError, KeyError)
    assert issubclass(UnknownBotError, KeyError)
    assert issubclass(SearchWorkerError, RuntimeError)
    assert issubclass(MatchError, RuntimeError)

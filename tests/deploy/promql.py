"""A coarse reading of PromQL: the metrics, label matchers, grouping labels and numbers of an
expression (enough to check them against what the server exports, not a parser)."""

from __future__ import annotations

import re

KEYWORDS = frozenset({
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless",
    "offset", "bool", "inf", "nan",
})
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)")
_IDENTIFIER = re.compile(r"(?<![\w.:$])([a-zA-Z_:][\w:]*)(\s*\()?")
_SELECTOR = re.compile(r"([a-zA-Z_:][\w:]*)\s*\{([^}]*)\}")
_MATCHER = re.compile(r'(\w+)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"')
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def metric_names(expr: str) -> set[str]:
    """The metric names an expression selects (functions, keywords and labels left out)."""
    text = _STRING.sub('""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = _GROUPING.sub(" ", text)
    text = re.sub(r"\$\w+", " ", text)  # Grafana's variables
    names = set()
    for match in _IDENTIFIER.finditer(text):
        name, call = match.group(1), match.group(2)
        if call is None and name not in KEYWORDS:
            names.add(name)
    return names


def selectors(expr: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Each `metric{...}` of the expression with its (label, operator, value) matchers."""
    return [
        (match.group(1), _MATCHER.findall(match.group(2)))
        for match in _SELECTOR.finditer(expr)
    ]


def grouping_labels(expr: str) -> set[str]:
    """Labels named in `by`, `without`, `on`, `ignoring` and `group_*` clauses."""
    return {
        label.strip()
        for group in _GROUPING.findall(expr)
        for label in group.split(",")
        if label.strip()
    }


def numbers(text: str) -> list[float]:
    """Every number written in `text` (inside label values and durations too)."""
    return [float(number) for number in _NUMBER.findall(text)]

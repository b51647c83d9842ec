"""The page's own files: which request path names which file, and nothing outside them."""

from __future__ import annotations

import re
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"

MAX_NAME_CHARS = 200
"""Longest file name (with its folders) a request may ask for; longer ones are no file."""

_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*")
"""Plain names only: no `..`, no hidden file, no escape, no NUL byte."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}


def find(path: str) -> Path | None:
    """The file a request path names (`/` is the board), or None when it names none."""
    name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
    if name == path or len(name) > MAX_NAME_CHARS or not _NAME.fullmatch(name):
        return None
    try:
        file = (STATIC_DIR / name).resolve()
        found = file.is_relative_to(STATIC_DIR) and file.is_file()
    except (OSError, ValueError):
        return None
    return file if found else None


def content_type(file: Path) -> str:
    """The Content-Type a file is served with."""
    return CONTENT_TYPES.get(file.suffix, "application/octet-stream")

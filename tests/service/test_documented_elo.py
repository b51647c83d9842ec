"""Every documented command with a target Elo works: `--elo N` on a move asked of a server,
and every `elo=N` bot of a documented match or ladder (checked against the game's calibration,
not played)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from boardbot.cli.main import build_parser, main
from boardbot.search.bots import make_bot
from tests.service.servers import Served

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COMMAND = re.compile(r"(?:\.venv/bin/)?boardbot (?:move|analyze|play|match|ladder) [^`\n]*")
"""A boardbot command that can take a target Elo, in a code block or a code span."""
TARGET = re.compile(r"--elo\b|\belo[=:]\d")


def documented() -> list[tuple[str, str]]:
    """(file, command) of every documented command that names a target Elo, comments cut."""
    found = []
    for path in DOCS:
        for match in COMMAND.finditer(path.read_text()):
            command = match.group(0).split("  #", 1)[0].strip()
            if TARGET.search(command):
                found.append((path.name, command.removeprefix(".venv/bin/")))
    return found


def fenced_block_of(name: str, command: str) -> list[str]:
    """The commands of the fenced block of `name` that holds `command`, in order."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "docs" / name).read_text(), re.S)
    block = next(b for b in blocks if command in b)
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def test_the_docs_show_target_elo_commands() -> None:
    commands = [command for _, command in documented()]
    assert any(c.startswith("boardbot move") and "--elo" in c for c in commands)
    assert any(c.startswith("boardbot ladder") and "elo=" in c for c in commands)


@pytest.mark.parametrize(("name", "command"), documented())
def test_a_documented_target_elo_is_accepted(name: str, command: str) -> None:
    args = build_parser().parse_args(shlex.split(command)[1:])
    if args.command in ("match", "ladder"):
        bots = [bot for bot in args.bots.split(",") if TARGET.search(bot)]
        assert bots, command
        for bot in bots:
            make_bot(bot, args.game, args.engine)  # EloOutOfRangeError outside the calibration
    else:
        assert args.elo is not None, command


def test_the_documented_move_at_a_target_elo_runs(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    command = next(c for _, c in documented() if c.startswith("boardbot move") and "--elo" in c)
    monkeypatch.chdir(tmp_path)
    for step in fenced_block_of("api.md", command):
        words = shlex.split(step)
        if words[1] in ("new", "apply"):  # the files the command reads, made locally
            assert main(words[1:]) == 0, step
    capsys.readouterr()
    assert main([*shlex.split(command)[1:], "--server", served.address, "--json"]) == 0
    assert capsys.readouterr().out.startswith("{")

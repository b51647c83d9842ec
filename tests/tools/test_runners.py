"""The local runners: every job's result once, tagged with its position."""

from __future__ import annotations

import sys

import pytest

from boardbot.tools.extras import MissingExtraError
from boardbot.tools.runners import ProcessRunner, SerialRunner, make_runner


def test_serial_runner_keeps_job_order() -> None:
    assert list(SerialRunner().imap(abs, [-3, 1, -2])) == [(0, 3), (1, 1), (2, 2)]


def test_process_runner_yields_every_result_with_its_position() -> None:
    jobs = [-5, 4, -3, 2, -1]
    assert sorted(ProcessRunner(2).imap(abs, jobs)) == [(i, abs(j)) for i, j in enumerate(jobs)]


def test_the_choice_of_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(make_runner(1), SerialRunner)
    pool = make_runner(3)
    assert isinstance(pool, ProcessRunner) and pool.workers == 3
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingExtraError, match=r"pip install -e '\.\[ray\]'"):
        make_runner(1, "")

"""Progress shown for its reader (ecwidth.progress): one line per step off a terminal, nothing when disabled."""

import io

import pytest

from ecwidth.progress import Steps, progress_wanted


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_each_step_is_one_line(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    stream = io.StringIO()  # what a notebook, a CI log or a redirect is
    with Steps(2, "ecwidth survey", stream=stream) as steps:
        steps.done("a", "0.1 s")
        steps.done("b", "failed")
    assert stream.getvalue() == "ecwidth survey [1/2] a: 0.1 s\necwidth survey [2/2] b: failed\n"


def test_on_a_terminal_a_bar_and_no_lines(monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    stream = Terminal()
    with Steps(2, "ecwidth survey", stream=stream) as steps:
        steps.done("a", "0.1 s")
    assert "ecwidth survey:" in stream.getvalue() and "[1/2] a" not in stream.getvalue()


@pytest.mark.parametrize(("value", "wanted"), [("1", False), ("true", False), ("", True), ("0", True)])
def test_tqdm_disable_turns_every_kind_off(monkeypatch, value, wanted):
    monkeypatch.setenv("TQDM_DISABLE", value)
    assert progress_wanted() is wanted
    stream = Terminal()
    with Steps(1, "x", stream=stream) as steps:
        steps.done("a", "ok")
    assert bool(stream.getvalue()) is wanted
    assert progress_wanted(False) is False

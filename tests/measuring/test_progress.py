"""Progress shown for its reader (ecwidth.progress): one line per step off a terminal, nothing when disabled."""

import io

import pytest

from ecwidth.measuring.progress import Steps, progress_wanted


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


def test_each_line_is_one_write(monkeypatch):
    """A notebook stores every write as an output of its own: a line and its newline written apart are two."""
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    writes = []

    class Recorder(io.StringIO):
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

    with Steps(2, "ecwidth survey", stream=Recorder()) as steps:
        steps.done("a", "0.1 s")
        steps.done("b", "0.2 s")
    assert writes == ["ecwidth survey [1/2] a: 0.1 s\n", "ecwidth survey [2/2] b: 0.2 s\n"]


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


def _subcommands() -> dict:
    from ecwidth.cli.parser import build_parser

    return next(action for action in build_parser()._actions if action.dest == "command").choices


@pytest.mark.parametrize("command", list(_subcommands()))
def test_every_command_takes_no_progress(command):
    assert any(action.option_strings == ["--no-progress"] for action in _subcommands()[command]._actions)


def test_no_progress_silences_a_profile_measurement(tmp_path, capsys, monkeypatch):
    import json

    from ecwidth.cli.commands import main
    from tests.tiny_configs import tiny_config

    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(tiny_config("llava")))
    assert main(["measure", "--config", str(path), "--dummy", "profile"]) == 0
    assert "profile items [1/1] image" in capsys.readouterr().err
    assert main(["measure", "--config", str(path), "--dummy", "profile", "--no-progress"]) == 0
    assert "profile items" not in capsys.readouterr().err.replace("profile items on the CPU", "")

"""A table's .json, .csv and .md are written as one set: every target checked first, the .json replaced last.

The rows are table fixtures ("toy-*" models), not widths claimed for real models.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ecwidth.records import atomic
from ecwidth.records.atomic import UnwritableError, WriteInterrupted
from ecwidth.records.table import WidthTable
from tests.width_tables import toy_row

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["encoder_widths.csv", "encoder_widths.json", "encoder_widths.md"]
OLD = WidthTable([toy_row("toy-old", "image", 64)])
NEW = WidthTable([toy_row("toy-new", "image", 128), toy_row("toy-new", "video", 128)])


def contents(folder: Path) -> dict[str, bytes]:
    """Every plain file in ``folder``, temporaries included, by name."""
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder holding the old table's three files."""
    OLD.write(tmp_path / "out")
    return tmp_path / "out"


def test_a_write_leaves_the_three_files_and_nothing_else(folder):
    assert NEW.write(folder) == [
        folder / "encoder_widths.json",
        folder / "encoder_widths.csv",
        folder / "encoder_widths.md",
    ]
    assert sorted(os.listdir(folder)) == NAMES  # no temporary file left
    assert WidthTable.read(folder / "encoder_widths.json") == WidthTable.read(folder / "encoder_widths.csv") == NEW


def test_a_folder_where_the_md_should_be_is_refused_before_the_old_json_and_csv_change(folder):
    (folder / "encoder_widths.md").unlink()
    (folder / "encoder_widths.md").mkdir()
    before = contents(folder)
    with pytest.raises(UnwritableError, match=r"cannot write .*encoder_widths\.md: it is a folder; move it away"):
        NEW.write(folder)
    assert contents(folder) == before and set(before) == {"encoder_widths.json", "encoder_widths.csv"}
    assert not os.listdir(folder / "encoder_widths.md")


def test_a_fifo_where_the_md_should_be_is_refused_unopened(folder):
    (folder / "encoder_widths.md").unlink()
    os.mkfifo(folder / "encoder_widths.md")  # opening it to write would wait for a reader
    before = contents(folder)
    with pytest.raises(UnwritableError, match=r"encoder_widths\.md: it is not a regular file"):
        NEW.write(folder)
    assert contents(folder) == before


def test_a_file_where_the_folder_should_be_is_refused(tmp_path):
    (tmp_path / "out").write_text("a file")
    with pytest.raises(UnwritableError, match=r"out is a file, not a folder"):
        NEW.write(tmp_path / "out" / "tables")
    assert (tmp_path / "out").read_text() == "a file"


def test_the_json_is_replaced_last_and_the_old_json_stands_until_then(folder, monkeypatch):
    old_json = (folder / "encoder_widths.json").read_bytes()
    real_replace = os.replace
    seen = []

    def replace(src, dst):
        seen.append((Path(dst).name, (folder / "encoder_widths.json").read_bytes() == old_json))
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace)
    NEW.write(folder)
    assert seen == [("encoder_widths.csv", True), ("encoder_widths.md", True), ("encoder_widths.json", True)]
    assert WidthTable.read(folder / "encoder_widths.json") == NEW


def test_a_failed_rename_of_the_json_keeps_the_old_record_and_says_what_was_replaced(folder, monkeypatch):
    old_json = (folder / "encoder_widths.json").read_bytes()
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst).suffix == ".json":
            raise OSError(30, "Read-only file system")
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace)
    with pytest.raises(UnwritableError) as raised:
        NEW.write(folder)
    message = str(raised.value)
    assert "cannot replace" in message and "Read-only file system" in message
    assert "encoder_widths.csv, " in message and "encoder_widths.md already replaced" in message
    assert message.endswith("encoder_widths.json kept their old content. Fix the cause and write again.")
    assert (folder / "encoder_widths.json").read_bytes() == old_json
    assert sorted(os.listdir(folder)) == NAMES


def test_a_full_disk_while_writing_leaves_every_old_file_and_no_temporary_file(folder, monkeypatch):
    before = contents(folder)
    real_fsync = os.fsync
    calls = []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 2:  # the second of three new files
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    with pytest.raises(UnwritableError, match=r"encoder_widths\.md: No space left on device; nothing was replaced"):
        NEW.write(folder)
    assert contents(folder) == before


def test_sigterm_before_the_renames_leaves_the_old_set_and_no_temporary_file(folder, monkeypatch):
    before = contents(folder)
    real_fsync = os.fsync

    def fsync_then_signal(fd):
        real_fsync(fd)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(atomic.os, "fsync", fsync_then_signal)
    with pytest.raises(WriteInterrupted):
        NEW.write(folder)
    assert contents(folder) == before
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is gone again


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_the_renames_waits_until_the_set_is_whole(folder, monkeypatch, signum):
    real_replace = os.replace

    def replace_then_signal(src, dst):
        real_replace(src, dst)
        if Path(dst).suffix == ".csv":  # the first rename
            os.kill(os.getpid(), signum)

    monkeypatch.setattr(atomic.os, "replace", replace_then_signal)
    with pytest.raises(KeyboardInterrupt):  # WriteInterrupted for SIGTERM
        NEW.write(folder)
    assert WidthTable.read(folder / "encoder_widths.json") == WidthTable.read(folder / "encoder_widths.csv") == NEW
    assert (folder / "encoder_widths.md").read_text() == NEW.render_markdown()
    assert sorted(os.listdir(folder)) == NAMES


#: Run in a child that the file permissions bind (root is not bound by them unless it drops the capabilities).
_WRITE_IN_A_CHILD = """
import sys
from ecwidth.records.atomic import UnwritableError
from ecwidth.records.table import WidthTable
try:
    WidthTable.read(sys.argv[1]).write(sys.argv[2])
except UnwritableError as error:
    print(error)
    sys.exit(3)
"""


def _write_as_a_user_the_permissions_bind(table: Path, folder: Path) -> subprocess.CompletedProcess:
    bound = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: nothing makes root obey file permissions")
        bound = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
    return subprocess.run(
        [*bound, sys.executable, "-c", _WRITE_IN_A_CHILD, str(table), str(folder)],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


@pytest.mark.parametrize(
    "locked, expected",
    [
        ("", r"the folder .*out is read-only; make it writable or write elsewhere \(nothing was written\)"),
        ("encoder_widths.csv", r"encoder_widths\.csv: the file is read-only; make it writable \(chmod u\+w\)"),
    ],
    ids=["folder", "file"],
)
def test_a_read_only_folder_or_file_is_refused_before_anything_changes(folder, tmp_path, locked, expected):
    NEW.to_json(tmp_path / "new.json")
    before = contents(folder)
    target = folder / locked
    mode = target.stat().st_mode
    target.chmod(0o555 if target.is_dir() else 0o444)
    try:
        child = _write_as_a_user_the_permissions_bind(tmp_path / "new.json", folder)
    finally:
        target.chmod(mode)
    assert child.returncode == 3, child.stderr[-2000:]
    assert child.stdout.count("\n") == 1
    assert re.search(expected, child.stdout), child.stdout
    assert contents(folder) == before


def test_survey_into_a_folder_whose_md_is_a_folder_is_one_error_line_and_keeps_the_old_table(tmp_path, capsys):
    from ecwidth.cli.commands import main
    from tests.tiny_configs import tiny_config

    config = tmp_path / "tiny-qwen3-vl.json"
    config.write_text(json.dumps(tiny_config("qwen3_vl")))
    folder = tmp_path / "out"
    OLD.write(folder)
    (folder / "encoder_widths.md").unlink()
    (folder / "encoder_widths.md").mkdir()
    before = contents(folder)
    assert main(["survey", "--models", str(config), "-o", str(folder), "--device", "cpu", "--no-progress"]) == 2
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if line.startswith("ecwidth: error:")]
    assert line.startswith(f"ecwidth: error: cannot write {folder / 'encoder_widths.md'}: it is a folder")
    assert contents(folder) == before

"""The ``ecwidth lookup`` and ``ecwidth export`` commands, on fixture tables ("toy-*" models)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ecwidth.cli.commands import main
from ecwidth.engines.releases import DEFAULT
from ecwidth.records.table import WidthTable
from tests.width_tables import toy_row

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def table_path(tmp_path) -> Path:
    path = tmp_path / "widths.json"
    WidthTable(
        [
            toy_row("toy-a", "image", 64, deepstack_levels=3),
            toy_row("toy-a", "video", 64, deepstack_levels=3),
            toy_row("toy-b", "audio", 16),
            toy_row("toy-p", "image", 48, deepstack_levels=3, source="predicted", dummy="none"),
        ]
    ).to_json(path)
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_lookup_prints_the_int(capsys, table_path):
    assert run(capsys, "lookup", table_path, "toy-a", "video") == (0, "64\n", "")


def test_lookup_reads_csv(capsys, table_path, tmp_path):
    WidthTable.from_json(table_path).to_csv(tmp_path / "widths.csv")
    assert run(capsys, "lookup", tmp_path / "widths.csv", "toy-b", "audio") == (0, "16\n", "")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["toy-z", "image"],
            r"ecwidth: error: model 'toy-z' is not in the width table; models in the table: \['toy-a'",
        ),
        (["toy-a", "audio"], r"ecwidth: error: .*'audio'; measured: \['image', 'video'\]"),
    ],
)
def test_lookup_errors(capsys, table_path, argv, expected):
    code, out, err = run(capsys, "lookup", table_path, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert re.match(expected, err)


def test_lookup_bad_table(capsys, tmp_path):
    (tmp_path / "bad.json").write_text('{"schema_version": 1, "rows": [', encoding="utf-8")
    code, out, err = run(capsys, "lookup", tmp_path / "bad.json", "toy-a", "image")
    assert code == 2
    assert err.startswith(f"ecwidth: error: {tmp_path / 'bad.json'}: not valid JSON")


def test_export_producer_json(capsys, table_path, tmp_path):
    code, out, _ = run(capsys, "export", table_path, "--model", "toy-a", "--format", "producer-json")
    assert code == 0
    assert json.loads(out) == {
        "mm_encoder_output_widths": {"image": 64, "video": 64},
        "engine": {"name": DEFAULT.engine, "version": DEFAULT.version},
    }

    target = tmp_path / "out" / "producer.json"
    assert run(capsys, "export", table_path, "--model", "toy-a", "--format", "producer-json", "-o", target) == (
        0,
        "",
        "",
    )
    assert target.read_text() == out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--format", "producer-json"], "--format producer-json needs --model"),
        (["--format", "producer-json", "--model", "toy-p"], "is predicted, not measured"),
        (["--format", "csv", "--model", "toy-z"], "model 'toy-z' is not in the width table"),
    ],
)
def test_export_errors(capsys, table_path, argv, expected):
    code, out, err = run(capsys, "export", table_path, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("ecwidth: error: ") and expected in err


def test_export_csv_and_md(capsys, table_path, tmp_path):
    code, out, _ = run(capsys, "export", table_path, "--format", "csv", "--model", "toy-a")
    assert code == 0
    (tmp_path / "a.csv").write_text(out, encoding="utf-8")
    assert WidthTable.from_csv(tmp_path / "a.csv") == WidthTable.from_json(table_path).for_model("toy-a")

    assert run(capsys, "export", table_path, "--format", "md", "-o", tmp_path / "all.md") == (0, "", "")
    assert (tmp_path / "all.md").read_text() == WidthTable.from_json(table_path).render_markdown()


def test_export_unwritable_output(capsys, table_path, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, "export", table_path, "--format", "csv", "-o", blocker / "sub" / "t.csv")
    assert code == 2
    assert err.startswith("ecwidth: error: ") and "Traceback" not in err


def test_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["export", "t.json", "--format", "xml"])
    assert caught.value.code == 2


def test_module_entry_point_missing_model(table_path):
    result = subprocess.run(
        [sys.executable, "-m", "ecwidth", "lookup", str(table_path), "toy-z", "image"],
        capture_output=True, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("ecwidth: error: model 'toy-z' is not in the width table")

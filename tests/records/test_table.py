"""Width tables: validation, exact round trips, atomic writes, merge.

The rows are table fixtures ("toy-*" models), not widths claimed for real models.
"""

import json
import os
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from ecwidth.engines import releases
from ecwidth.errors import MissingWidthError, TableError
from ecwidth.records import formats
from ecwidth.records.atomic import write_text_atomic
from ecwidth.records.table import COLUMNS, SCHEMA_VERSION, WidthRow, WidthTable

SHA = "ab" * 32


def row(model: str = "toy-a", modality: str = "image", width: int = 64, **changes) -> WidthRow:
    base = WidthRow(
        model=model,
        modality=modality,
        options={},
        encoder_width=width,
        lm_hidden_size=16,
        width_ratio=width / 16,
        deepstack_levels=3,
        source="measured",
        predicted_width=width,
        matches_prediction=True,
        ecwidth_version="0.1.0",
        torch_version="2.13.0",
        transformers_version="5.24.0",
        device="cpu",
        dtype="float32",
        dummy="minimal",
        measured_at="2026-01-31T12:00:00+00:00",
        config_sha256=SHA,
    )
    return replace(base, **changes)


@pytest.fixture
def table() -> WidthTable:
    return WidthTable(
        [
            row("toy-b", "audio", 16, deepstack_levels=0, width_ratio=1.0),
            row("toy-a", "video", 64),
            row("toy-a", "image", 64, lm_hidden_size=48, width_ratio=64 / 48),  # a float that needs full precision
            row('toy-c, "quoted" | piped', "image", 1 << 20),
        ]
    )


def write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def json_rows(*rows: dict) -> dict:
    return {"schema_version": SCHEMA_VERSION, "columns": list(COLUMNS), "rows": list(rows)}


def good_row(**changes) -> dict:
    values = {column: getattr(row(), column) for column in COLUMNS}
    values.update(changes)
    return values


# --- shape -----------------------------------------------------------------


def test_column_order_is_stable():
    assert COLUMNS == (
        "model", "modality", "options", "engine", "engine_version", "encoder_width", "lm_hidden_size",
        "width_ratio", "deepstack_levels", "source", "predicted_width", "matches_prediction", "ecwidth_version", "torch_version",
        "transformers_version", "device", "dtype", "dummy", "measured_at", "config_sha256",
    )  # fmt: skip


def test_rows_sorted_and_frame_columns(table):
    assert [(r.model, r.modality) for r in table.rows] == sorted((r.model, r.modality) for r in table)
    assert len(table) == 4
    assert table.models() == ["toy-a", "toy-b", 'toy-c, "quoted" | piped']
    assert list(table.to_frame().columns) == list(COLUMNS)
    assert list(WidthTable([]).to_frame().columns) == list(COLUMNS)
    assert WidthTable([]).to_frame().empty


def test_equality_ignores_input_order(table):
    assert WidthTable(reversed(table.rows)) == table
    assert WidthTable(table.rows[1:]) != table


def test_duplicate_rows_named():
    with pytest.raises(
        TableError,
        match=r"model='toy-a', modality='image', options=engine defaults, engine=vllm==0.33.0 at rows \[0, 2\]",
    ):
        WidthTable([row(), row("toy-a", "video"), row()])


def test_constructor_validates_rows():
    with pytest.raises(
        TableError, match=r"row 0 \(model='toy-a', modality='image'\): encoder_width must be an int >= 1"
    ):
        WidthTable([row(encoder_width=0)])
    with pytest.raises(TableError, match="expected a WidthRow, got dict"):
        WidthTable([good_row()])


# --- lookups ---------------------------------------------------------------


def test_widths_and_width(table):
    assert table.widths("toy-a") == {"image": 64, "video": 64}
    assert table.width("toy-b", "audio") == 16
    with pytest.raises(MissingWidthError, match=r"'audio'.*\['image', 'video'\]"):
        table.width("toy-a", "audio")
    with pytest.raises(TableError, match=r"'toy-z' is not in the width table.*'toy-a', 'toy-b'"):
        table.width("toy-z", "image")


# --- merge -----------------------------------------------------------------


def test_merge_names_every_conflict():
    ours = WidthTable([row("toy-a", "image", 64), row("toy-a", "video", 64), row("toy-b", "audio", 16)])
    theirs = WidthTable([row("toy-a", "image", 16), row("toy-a", "video", 32), row("toy-b", "audio", 16)])
    with pytest.raises(TableError, match="conflict on 2 row") as caught:
        ours.merge(theirs)
    message = str(caught.value)
    assert "modality='image', options=engine defaults, engine=vllm==0.33.0: 64 here, 16 in the other table" in message
    assert "modality='video', options=engine defaults, engine=vllm==0.33.0: 64 here, 32 in the other table" in message
    assert "audio" not in message


def test_merge_overwrite_and_no_row_lost():
    ours = WidthTable([row("toy-a", "image", 64), row("toy-b", "audio", 16, torch_version="ours")])
    theirs = WidthTable([row("toy-a", "image", 32), row("toy-b", "audio", 16, torch_version="theirs"), row("toy-c")])
    merged = ours.merge(theirs, overwrite=True)
    assert merged.widths("toy-a") == {"image": 32}
    assert merged.rows[1].torch_version == "theirs"
    assert len(merged) == 3

    kept = ours.merge(WidthTable([row("toy-b", "audio", 16, torch_version="theirs"), row("toy-c")]))
    assert kept.rows[1].torch_version == "ours"  # equal width: our row wins without overwrite
    assert [r.model for r in kept] == ["toy-a", "toy-b", "toy-c"]
    assert len(ours) == 2  # merge returns a new table


# --- round trips -----------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_round_trip_unchanged(table, tmp_path, suffix):
    path = tmp_path / f"widths{suffix}"
    getattr(table, f"to_{suffix[1:]}")(path)
    back = WidthTable.read(path)
    assert back == table
    pd.testing.assert_frame_equal(back.to_frame(), table.to_frame())
    assert back.rows[0].width_ratio == 64 / 48
    assert type(back.rows[0].matches_prediction) is bool
    getattr(back, f"to_{suffix[1:]}")(tmp_path / f"again{suffix}")
    assert (tmp_path / f"again{suffix}").read_bytes() == path.read_bytes()


def test_empty_table_round_trip(tmp_path):
    paths = WidthTable([]).write(tmp_path)
    assert [p.name for p in paths] == ["encoder_widths.json", "encoder_widths.csv", "encoder_widths.md"]
    assert WidthTable.from_json(paths[0]) == WidthTable.from_csv(paths[1]) == WidthTable([])


def test_json_layout(table, tmp_path):
    table.to_json(tmp_path / "t.json")
    document = json.loads((tmp_path / "t.json").read_text())
    assert document["schema_version"] == 3
    assert document["columns"] == list(COLUMNS)
    assert list(document["rows"][0]) == list(COLUMNS)


def test_markdown(table, tmp_path):
    table.to_markdown(tmp_path / "t.md")
    lines = (tmp_path / "t.md").read_text().splitlines()
    assert lines[0] == "# Encoder output widths"
    pipe_rows = [line for line in lines if line.startswith("|")]
    assert len(pipe_rows) == 2 + len(table)
    assert 'toy-c, "quoted" \\| piped' in pipe_rows[-1]
    assert len({line.replace("\\|", "").count("|") for line in pipe_rows}) == 1


# --- from_json errors: every message names the file and, where there is one, the row ---


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([good_row(), {k: v for k, v in good_row(modality="video").items() if k != "dtype"}],
         r"row 1 \(model='toy-a', modality='video'\): missing column\(s\) dtype"),
        ([good_row(), good_row(modality="video", colour="blue")],
         r"row 1 \(model='toy-a', modality='video'\): unknown column\(s\) colour"),
        ([good_row(encoder_width=True)], r"row 0 \(model='toy-a', modality='image'\): encoder_width must be an int >= 1, got True"),
        ([good_row(encoder_width=4096.0)], r"row 0 .*: encoder_width must be an int >= 1, got 4096.0"),
        ([good_row(lm_hidden_size="4096")], r"row 0 .*: lm_hidden_size must be an int >= 1, got '4096'"),
        ([good_row(deepstack_levels=-1, source="guessed")],
         r"row 0 .*: deepstack_levels must be an int >= 0, got -1; source must be one of measured, predicted"),
        ([good_row(config_sha256="abc", measured_at="yesterday")], r"measured_at must be an ISO-8601 UTC.*config_sha256 must be 64 lowercase hex"),
        ([good_row(width_ratio=float("inf"))], r"row 0 .*: width_ratio must be a finite number"),
        ([good_row(), good_row()], r"duplicate rows .*model='toy-a', modality='image', options=engine defaults, engine=vllm==0.33.0 at rows \[0, 1\]"),
        ([good_row(), ["toy-a", "image", 64]], r"row 1: a row must be an object .* got list"),
        ([{"model": {"nested": [[[["junk"]]]]}, "modality": None}], r"row 0 \(model=\{'nested'.*, modality=None\): missing column"),
    ],
    ids=["missing-key", "extra-key", "bool-width", "float-width", "str-width", "ranges", "strings",
         "inf-ratio", "duplicates", "row-is-list", "nested-junk"],
)  # fmt: skip
def test_from_json_row_errors(tmp_path, rows, expected):
    path = write_json(tmp_path / "table.json", json_rows(*rows))
    with pytest.raises(TableError, match=expected) as caught:
        WidthTable.from_json(path)
    assert str(caught.value).startswith(str(path))


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"encoder_width": 10**300, "predicted_width": 10**300}, r"encoder_width 1000.* is past any real width"),
        ({"width_ratio": 3.0}, r"width_ratio 3.0 contradicts encoder_width / lm_hidden_size"),
        ({"matches_prediction": False}, r"matches_prediction false contradicts predicted_width"),
    ],
    ids=["huge", "ratio", "match-flag"],
)
def test_rows_that_contradict_themselves_are_named(tmp_path, changes, expected):
    path = write_json(tmp_path / "table.json", json_rows(good_row(**changes)))
    with pytest.raises(TableError, match=rf"row 0 .*{expected}"):
        WidthTable.from_json(path)


def test_a_duplicated_key_is_refused(tmp_path):
    path = tmp_path / "table.json"
    path.write_text(json.dumps(json_rows(good_row())).replace('"rows":', '"schema_version": 1, "rows":'))
    with pytest.raises(TableError, match="duplicate key 'schema_version'"):
        WidthTable.from_json(path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"schema_version": 4, "rows": []}', "schema_version is 4, but this ecwidth reads schema_version 1, 2 or 3"),
        ('{"schema_version": true, "rows": []}', "schema_version is True"),
        ('{"rows": []}', "no schema_version"),
        ('{"schema_version": 1, "rows": {}}', "'rows' must be a list"),
        ('{"schema_version": 1}', "'rows' must be a list"),
        ("[1, 2]", "a width table is a JSON object"),
        ("not json at all", "not valid JSON"),
        ('{"schema_version": 1, "rows": [{"model": "toy', "not valid JSON .*truncated"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"schema_version": 1, "rows": [' + "9" * 5000 + "]}", "a number with more digits than any real value"),
        ("", "not valid JSON"),
    ],
    ids=["schema-4", "schema-bool", "no-schema", "rows-object", "no-rows", "top-list", "not-json",
         "truncated", "deep-nesting", "too-many-digits", "empty"],
)  # fmt: skip
def test_from_json_file_errors(tmp_path, text, expected):
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match=expected) as caught:
        WidthTable.from_json(path)
    assert str(caught.value).startswith(str(path))


def test_truncated_real_file(table, tmp_path):
    path = tmp_path / "table.json"
    table.to_json(path)
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(TableError, match=f"^{path}: not valid JSON"):
        WidthTable.from_json(path)


def test_unreadable_paths(tmp_path):
    with pytest.raises(TableError, match="cannot read width table .*missing.json"):
        WidthTable.from_json(tmp_path / "missing.json")
    with pytest.raises(TableError, match="cannot read width table"):
        WidthTable.from_csv(tmp_path)
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(TableError, match="not a UTF-8 text file"):
        WidthTable.from_json(tmp_path / "bin.json")
    with pytest.raises(TableError, match=r"unknown width table format '\.txt'"):
        WidthTable.read(tmp_path / "t.txt")


# --- from_csv errors --------------------------------------------------------


def csv_with(tmp_path: Path, table: WidthTable, old: str, new: str) -> Path:
    path = tmp_path / "table.csv"
    text = table.render_csv()
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("bad", ["4096.5", "abc", "", "-4", "true"])
def test_from_csv_bad_width(tmp_path, bad):
    path = csv_with(tmp_path, WidthTable([row(width=77)]), ",77,", f",{bad},")
    with pytest.raises(
        TableError,
        match=rf"^{path} row 0 \(line 2, model='toy-a', modality='image'\): encoder_width must be an int >= 1, got '?{bad}'?$",
    ):
        WidthTable.from_csv(path)


def test_from_csv_structure_errors(table, tmp_path):
    path = csv_with(tmp_path, table, "config_sha256", "config_hash")
    with pytest.raises(
        TableError,
        match=r"header: missing column\(s\) \['config_sha256'\], unknown or repeated column\(s\) \['config_hash'\]",
    ):
        WidthTable.from_csv(path)

    path.write_text(table.render_csv()[:-70], encoding="utf-8")
    with pytest.raises(TableError, match=rf"^{path} row 3 \(line 5.*\): 19 cell\(s\), the header has 20"):
        WidthTable.from_csv(path)

    path.write_text("", encoding="utf-8")
    with pytest.raises(TableError, match="empty file"):
        WidthTable.from_csv(path)

    lines = table.render_csv().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1] + lines[1], encoding="utf-8")
    with pytest.raises(TableError, match=rf"^{path}: duplicate rows"):
        WidthTable.from_csv(path)

    path.write_text(lines[0] + '"unterminated', encoding="utf-8")
    with pytest.raises(TableError, match=rf"^{path} line 2: malformed CSV"):
        WidthTable.from_csv(path)


def test_from_csv_bad_bool(table, tmp_path):
    path = csv_with(tmp_path, WidthTable([row()]), ",true,", ",yes,")
    with pytest.raises(TableError, match="matches_prediction must be true or false, got 'yes'"):
        WidthTable.from_csv(path)


# --- atomic writes ------------------------------------------------------------


def test_failed_replace_leaves_old_file(table, tmp_path, monkeypatch):
    path = tmp_path / "table.json"
    WidthTable([row()]).to_json(path)
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        table.to_json(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.json"]  # no temp file left


def test_failed_render_leaves_every_old_file(table, tmp_path, monkeypatch):
    old = WidthTable([row()]).write(tmp_path)
    before = {p: p.read_bytes() for p in old}

    def broken(self):
        raise RuntimeError("render failed")

    monkeypatch.setattr(WidthTable, "render_markdown", broken)
    with pytest.raises(RuntimeError):
        table.write(tmp_path)
    monkeypatch.setattr(formats.json, "dumps", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        table.to_json(old[0])
    assert {p: p.read_bytes() for p in old} == before


def test_write_text_atomic_creates_parents_and_replaces(tmp_path):
    path = tmp_path / "a" / "b" / "t.txt"
    write_text_atomic(path, "one")
    write_text_atomic(path, "twö")
    assert path.read_text(encoding="utf-8") == "twö"
    assert os.listdir(path.parent) == ["t.txt"]
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(path, "\ud800")
    assert path.read_text(encoding="utf-8") == "twö"


def test_a_table_renders_as_an_html_table_in_jupyterlab():
    from tests.width_tables import toy_row

    table = WidthTable([toy_row("qwen3-vl-2b-instruct", "image", 8192), toy_row("<b>x</b>", "image", 2048)])
    html = table._repr_html_()
    assert html.startswith(f"<table><caption>WidthTable: 2 row(s) over 2 model(s) under {releases.DEFAULT}</caption>")
    assert "<th>engine</th>" in html and f"<td>{releases.DEFAULT}</td>" in html
    assert html.count("<tr>") == 3 and "<td>8192</td>" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html  # cells are escaped

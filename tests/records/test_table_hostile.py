"""Hostile names, numbers and sizes: a table ecwidth writes always reads back, a CSV export never runs a formula,
and an absurd value or file is one ecwidth error, never a bare ValueError, a traceback or a hang."""

import csv
import io
import json
import re
import time

import pytest

import ecwidth
from ecwidth.errors import EcwidthError, MalformedReportError, TableError
from ecwidth.records import formats
from ecwidth.records.strict_json import StrictJSONError, loads_strict
from ecwidth.records.table import MAX_TABLE_BYTES, WidthTable
from tests.width_tables import toy_row

NAMES = [
    "line\rbreak",  # a lone CR: the writer ends lines with \n, so it must be quoted
    "line\nbreak",
    "crlf\r\nname",
    "trailing\r",
    "\rleading",
    'comma, "quote"',
    '=HYPERLINK("http://example.com","x")',
    "+1",
    "-1",
    "@SUM(A1)",
    "\tTab",
    "'=quoted already",
    "''=twice",
    "'plain quote",
    "'",
    "＝full-width",
    "nul\x00byte",
    "ünïcödé 模型",
    "x" * 200_000,  # past the csv module's default field limit of 131072 characters
]
SPREADSHEET_FORMULA = re.compile("[=+\\-@\t\r\n\uff1d\uff0b\uff0d\uff20]")


@pytest.fixture
def hostile() -> WidthTable:
    return WidthTable([toy_row(name, "image", 64) for name in NAMES] + [toy_row("ok", "=cmd|' /C calc'!A0", 8)])


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_any_name_round_trips_exactly(hostile, tmp_path, suffix):
    path = tmp_path / f"t{suffix}"
    getattr(hostile, f"to_{suffix[1:]}")(path)
    limit = csv.field_size_limit()
    back = WidthTable.read(path)
    assert csv.field_size_limit() == limit  # raised while reading ecwidth's own file only
    assert back == hostile
    assert sorted(back.models()) == sorted([*NAMES, "ok"])
    hostile.write(tmp_path / "all")  # the survey's three files
    assert WidthTable.read(tmp_path / "all" / "encoder_widths.csv") == hostile


def test_no_csv_cell_is_a_formula_and_only_those_are_changed(hostile, monkeypatch):
    text = hostile.render_csv()
    monkeypatch.setattr(csv, "field_size_limit", csv.field_size_limit)  # restored after the test
    csv.field_size_limit(len(text))
    records = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    assert len(records) == 1 + len(hostile)  # a CR in a name never splits a row
    cells = [cell for record in records for cell in record]
    assert not [cell for cell in cells if SPREADSHEET_FORMULA.match(cell)]
    written = {record[0] for record in records[1:]}
    assert '\'=HYPERLINK("http://example.com","x")' in written and "'+1" in written and "'\tTab" in written
    assert "'''=twice" in written and "'plain quote" in written and "'" in written  # quotes before a formula only
    assert "'\rleading" in written and "line\rbreak" in written
    assert [record[1] for record in records if record[0] == "ok"] == ["'=cmd|' /C calc'!A0"]
    assert text.count("\r") == sum(name.count("\r") for name in NAMES)  # each inside its quoted cell


def test_an_unquoted_cr_is_quoted():
    text = WidthTable([toy_row("a\rb", "image", 8)]).render_csv()
    assert '"a\rb"' in text and text.count("\n") == 2


def test_a_hand_written_csv_with_formula_quotes_reads_by_the_rule(tmp_path):
    """Reading removes exactly one leading quote, and only before a formula character."""
    text = WidthTable([toy_row("placeholder", "image", 8)]).render_csv()
    path = tmp_path / "t.csv"
    for cell, name in [("'=x", "=x"), ("''=x", "'=x"), ("'x", "'x"), ("'-1", "-1"), ("=x", "=x")]:
        path.write_text(text.replace("placeholder", cell), encoding="utf-8")
        assert WidthTable.read(path).models() == [name]


def test_a_name_that_utf8_cannot_write_is_refused_when_the_row_enters_a_table():
    with pytest.raises(TableError, match="model must be text that UTF-8 can write"):
        WidthTable([toy_row("bad\ud800", "image", 8)])


# --- numbers past any real value -------------------------------------------------


@pytest.mark.parametrize("column", ["encoder_width", "lm_hidden_size", "predicted_width", "deepstack_levels"])
def test_an_absurd_int_in_a_row_is_a_table_error(column):
    changes = {column: 10**5000}
    with pytest.raises(TableError) as caught:
        WidthTable([toy_row("toy", "image", 8, **changes)])
    assert "digits" in str(caught.value) or "past any real width" in str(caught.value)
    assert len(str(caught.value)) < 2000


def test_an_absurd_ratio_or_option_in_a_row_is_a_table_error():
    with pytest.raises(TableError, match="width_ratio must be a finite number, got <an int of about 5001 digits>"):
        WidthTable([toy_row("toy", "image", 8, width_ratio=10**5000)])
    with pytest.raises(TableError, match="options"):
        WidthTable([toy_row("toy", "image", 8, options={"video_pruning_rate": 10**5000})])
    with pytest.raises(TableError, match="options"):
        WidthTable([toy_row("toy", "image", 8, options={"video_pruning_rate": 10**400})])


def test_an_absurd_width_in_a_report_is_the_documented_error():
    for report in ({"image": 10**5000}, {"image": 2**64}, {"x" * 10**6: 8.5}):
        with pytest.raises(MalformedReportError, match="rank 0") as caught:
            ecwidth.reconcile([report])
        assert len(str(caught.value)) < 500
    with pytest.raises(MalformedReportError, match="reports must be a list"):
        ecwidth.reconcile({"image": 10**5000})
    with pytest.raises(MalformedReportError):
        ecwidth.get_width({"image": 10**5000}, "image")
    with pytest.raises(ecwidth.MissingWidthError):
        ecwidth.get_width({"image": 8}, ["image"])


def test_an_absurd_number_in_a_table_file_is_a_table_error(tmp_path):
    document = json.loads(WidthTable([toy_row("toy", "image", 8)]).render_json())
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document).replace('"encoder_width": 8', '"encoder_width": 1' + "0" * 5000))
    with pytest.raises(TableError, match=f"^{path}: holds a number with more digits than any real value"):
        WidthTable.read(path)
    csv_path = tmp_path / "t.csv"
    text = WidthTable([toy_row("toy", "image", 8)]).render_csv()
    csv_path.write_text(text.replace(",8,16,", ",1" + "0" * 5000 + ",16,", 1))
    with pytest.raises(TableError, match="encoder_width must be an int >= 1"):
        WidthTable.read(csv_path)


# --- bounded reading -------------------------------------------------------------


def test_duplicate_keys_are_found_in_one_pass():
    """200,000 keys: a quadratic check (each key counted against the list) would take hours; this is linear."""
    keys = ", ".join(f'"k{i}": {i}' for i in range(200_000))
    started = time.perf_counter()
    assert len(loads_strict("{" + keys + "}")) == 200_000
    with pytest.raises(StrictJSONError, match=r"duplicate key 'k0', 'k1', 'k2', 'k3', 'k4' and 2 more in one object"):
        loads_strict("{" + keys + ', "k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6}')
    assert time.perf_counter() - started < 10  # about 0.3 s; a quadratic check: hours


def test_a_table_with_60000_extra_keys_in_a_row_is_refused_quickly(tmp_path):
    document = json.loads(WidthTable([toy_row("toy", "image", 8)]).render_json())
    document["rows"][0].update({f"extra{i}": i for i in range(60_000)})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    started = time.perf_counter()
    with pytest.raises(
        TableError, match=r"unknown column\(s\) extra0, extra1, .* and 59992 more\. A row has"
    ) as caught:
        WidthTable.read(path)
    assert time.perf_counter() - started < 10  # about 0.1 s
    assert len(str(caught.value)) < 1000


def test_a_csv_header_of_60000_columns_is_refused_quickly(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(",".join(["model"] * 60_000) + "\n", encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(TableError, match=r"unknown or repeated column\(s\) \['model'\]"):
        WidthTable.read(path)
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_a_table_file_past_the_limit_is_refused_unread(tmp_path, suffix):
    path = tmp_path / f"huge{suffix}"
    with open(path, "wb") as handle:
        handle.truncate(MAX_TABLE_BYTES + 1)  # sparse: nothing is written, and nothing may be read
    with pytest.raises(TableError) as caught:
        WidthTable.read(path)
    message = str(caught.value)
    assert message == (
        f"{path}: {MAX_TABLE_BYTES + 1} bytes, past the 64 MiB that any real width table stays under; "
        "ecwidth refuses it rather than reading it"
    )


def test_a_table_past_the_limit_is_not_written(tmp_path, monkeypatch):
    table = WidthTable([toy_row(f"toy-{i}", "image", 8) for i in range(20)])
    table.write(tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.setattr(formats, "MAX_TABLE_BYTES", 1000)
    for write in (table.to_json, table.to_csv):
        with pytest.raises(TableError, match=r"refusing to write a (JSON|CSV) width table of \d+ bytes: past the 1000"):
            write(tmp_path / "encoder_widths.json")
    with pytest.raises(TableError, match="refusing to write"):
        table.write(tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_table_limit_leaves_room_for_thousands_of_rows():
    rows = [toy_row(f"org/model-with-a-long-name-{i:05d}", "image", 4096, lm_hidden_size=4096) for i in range(5000)]
    table = WidthTable(rows)
    assert len(table.render_json()) * 10 < MAX_TABLE_BYTES


def test_errors_are_ecwidth_errors():
    assert issubclass(TableError, EcwidthError) and issubclass(MalformedReportError, EcwidthError)

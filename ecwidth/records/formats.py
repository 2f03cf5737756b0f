"""A width table's rows as text: JSON and CSV both ways, Markdown and HTML for people.

Files round-trip exactly: what ``render_json``/``render_csv`` write,
``rows_from_json``/``rows_from_csv`` read back as the same rows.

Reading is bounded: a table file past ``MAX_TABLE_BYTES`` is refused unread,
and no table past it is rendered, so whatever ecwidth writes it reads back.

CSV cells a spreadsheet would evaluate are neutralised: a cell that starts
with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return or a line feed (or
their full-width forms ``＝＋－＠``), after any number of single quotes, is
written with one more single quote in front (``=HYPERLINK(...)`` is written
``'=HYPERLINK(...)``), and reading removes exactly one leading quote from
such a cell, so the round trip through ``WidthTable.read`` is exact. Every
other cell is written as it is. Cells holding a comma, a quote, a carriage
return or a line feed are quoted.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from ecwidth.engines.runtime import describe_options
from ecwidth.errors import TableError
from ecwidth.records.rows import (
    COLUMN_TYPES,
    COLUMNS,
    SCHEMA_1_COLUMNS,
    SCHEMA_2_COLUMNS,
    SHOWN_COLUMNS,
    WidthRow,
    clipped,
    release_of,
    releases_held,
    short_repr,
    upgraded_row,
    validate_row,
    where_row,
)
from ecwidth.records.strict_json import StrictJSONError, TooLargeError, format_limit, loads_strict, read_bounded

#: 2 added ``options``; 3 added ``engine`` and ``engine_version``. Schema 1 tables (no options column) still
#: read, as measured with the engine's defaults; schema 1 and 2 tables read as vLLM 0.32.0 (``releases.LEGACY``).
SCHEMA_VERSION = 3
READABLE_SCHEMA_VERSIONS = (1, 2, 3)
#: The largest table file ecwidth reads or writes: about 90,000 JSON rows (some 700 bytes each), where the
#: whole catalog under every known engine release and option setting is a few hundred.
MAX_TABLE_BYTES = 64 << 20

_CSV_INT = re.compile(r"-?[0-9]+")
#: The columns Markdown and HTML show people, in order; ``options`` only once a row was measured with one set.
_PEOPLE_COLUMNS = (
    "model", "modality", "options", "engine", "encoder_width", "lm_hidden_size", "width_ratio", "deepstack_levels",
    "source", "predicted_width", "matches_prediction", "dummy", "device", "dtype",
)  # fmt: skip
#: A cell a spreadsheet would evaluate, after any single quotes ecwidth put in front (see the module docstring).
_FORMULA = re.compile("'*[=+\\-@\t\r\n\uff1d\uff0b\uff0d\uff20]")
_FORMULA_READ = re.compile("'+[=+\\-@\t\r\n\uff1d\uff0b\uff0d\uff20]")
#: Characters that make a CSV cell need quotes (the writer ends lines with \n, so \r must be named too).
_NEEDS_QUOTES = re.compile('[,"\r\n]')


# -- writing -----------------------------------------------------------------------------


def render_json(rows: Sequence[WidthRow]) -> str:
    """``{"schema_version", "columns", "rows"}``, indented, one object per row.

    Raises:
        TableError: The text is past ``MAX_TABLE_BYTES``, more than ecwidth reads back.
    """
    document = {"schema_version": SCHEMA_VERSION, "columns": list(COLUMNS), "rows": [asdict(row) for row in rows]}
    return _check_size(json.dumps(document, indent=2, allow_nan=False) + "\n", "JSON")


def render_csv(rows: Sequence[WidthRow]) -> str:
    """A header of ``COLUMNS``, then one line per row; cells as the module docstring says.

    Raises:
        TableError: The text is past ``MAX_TABLE_BYTES``, more than ecwidth reads back.
    """
    lines = [",".join(_csv_cell(column) for column in COLUMNS)]
    lines += [",".join(_csv_cell(_format_cell(value)) for value in asdict(row).values()) for row in rows]
    return _check_size("".join(line + "\n" for line in lines), "CSV")


def render_markdown(rows: Sequence[WidthRow]) -> str:
    """A pipe table for people; the JSON and CSV files carry the full provenance."""
    columns = _columns_for_people(rows)
    numeric = {column for column in columns if COLUMN_TYPES[column] in (int, float)}
    lines = [
        "# Encoder output widths",
        "",
        f"{_summary(rows)}. encoder_width is the last dim of the per-item embeddings an EC producer ships; "
        "versions, time and config hash are in the .json/.csv.",
        "",
        "| " + " | ".join(columns) + " |",
        "|" + "|".join("---:" if column in numeric else "---" for column in columns) + "|",
    ]
    lines += ["| " + " | ".join(_markdown_cell(row, column) for column in columns) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def render_html(rows: Sequence[WidthRow]) -> str:
    """An HTML table of the columns ``render_markdown`` shows, the ratio rounded, every cell escaped."""
    columns = _columns_for_people(rows)
    head = "".join(f"<th>{column}</th>" for column in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_html_cell(row, column))}</td>" for column in columns) + "</tr>"
        for row in rows
    )
    caption = html.escape(f"WidthTable: {_summary(rows)}")
    return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _columns_for_people(rows: Sequence[WidthRow]) -> list[str]:
    """The options column once a row was measured with an option set, so a table of engine defaults reads as it
    did before rows had options; always the engine."""
    with_options = any(row.options for row in rows)
    return [column for column in _PEOPLE_COLUMNS if with_options or column != "options"]


def _summary(rows: Sequence[WidthRow]) -> str:
    """``"3 row(s) over 2 model(s) under vLLM 0.33.0"``: every release the rows answer for, none for no rows."""
    names = [str(release) for release in releases_held(rows)]
    under = ""
    if names:
        under = " under " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    return f"{len(rows)} row(s) over {len({row.model for row in rows})} model(s){under}"


def _csv_cell(text: str) -> str:
    """One CSV cell as ecwidth writes it: a formula neutralised with a leading quote, quoted where it must be."""
    if _FORMULA.match(text):
        text = "'" + text
    if _NEEDS_QUOTES.search(text):
        text = '"' + text.replace('"', '""') + '"'
    return text


def _format_cell(value: object) -> str:
    """A cell as JSON writes it: true/false, shortest exact float, plain int and str, options as a JSON object."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return json.dumps(value, sort_keys=True, allow_nan=False)
    return repr(value) if isinstance(value, float) else str(value)


def _people_cell(row: WidthRow, column: str) -> str:
    """A cell for people: options described, the engine release as messages name it (``vLLM 0.33.0``)."""
    if column == "engine":
        return str(release_of(row))
    value = getattr(row, column)
    return describe_options(value) if column == "options" else _format_cell(value)


def _markdown_cell(row: WidthRow, column: str) -> str:
    return _people_cell(row, column).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _html_cell(row: WidthRow, column: str) -> str:
    """A cell for the eye: the ratio to 3 significant digits, options described; the files keep the exact value."""
    if column == "width_ratio":
        return f"{row.width_ratio:.3g}×"
    return _people_cell(row, column)


def _check_size(text: str, kind: str) -> str:
    """``text`` if a table of that size reads back; the bound is ``MAX_TABLE_BYTES``.

    Raises:
        TableError: The rendering is past the bound.
    """
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    if size > MAX_TABLE_BYTES:
        raise TableError(
            f"refusing to write a {kind} width table of {size} bytes: past the {format_limit(MAX_TABLE_BYTES)} "
            "that ecwidth reads back (WidthTable.read). Write fewer rows, or shorter names."
        )
    return text


# -- reading -----------------------------------------------------------------------------


def rows_from_json(path: Path) -> list[WidthRow]:
    """The validated rows of a JSON table, numbered from 0 in messages, as in ``"rows"``.

    Raises:
        TableError: The file is unreadable, past ``MAX_TABLE_BYTES``, not JSON (or truncated), not a
            table of a schema this ecwidth reads (``READABLE_SCHEMA_VERSIONS``), or holds an invalid row;
            the message names the file, and the row where there is one.
    """
    text = _read_text(path, "JSON")
    try:
        document = loads_strict(text)
    except StrictJSONError as error:
        raise TableError(
            f"{path}: {error}; the file may be truncated or hand-edited. "
            "Re-export it with WidthTable.to_json or `ecwidth export`."
        ) from None
    if not isinstance(document, dict):
        raise TableError(
            f"{path}: a width table is a JSON object with schema_version and rows, got {type(document).__name__}"
        )
    if "schema_version" not in document:
        raise TableError(f"{path}: no schema_version; expected {SCHEMA_VERSION}. Re-export the table.")
    version = document["schema_version"]
    if isinstance(version, bool) or version not in READABLE_SCHEMA_VERSIONS:
        readable = ", ".join(map(str, READABLE_SCHEMA_VERSIONS[:-1])) + f" or {READABLE_SCHEMA_VERSIONS[-1]}"
        raise TableError(
            f"{path}: schema_version is {short_repr(version)}, but this ecwidth reads schema_version {readable}. "
            "Re-export the table with this ecwidth, or use the ecwidth that wrote it."
        )
    rows = document.get("rows")
    if not isinstance(rows, list):
        raise TableError(f"{path}: 'rows' must be a list of row objects, got {short_repr(rows)}")
    if version < SCHEMA_VERSION:
        rows = [upgraded_row(row, version) for row in rows]
    return [validate_row(row, where_row(f"{path} ", index, row)) for index, row in enumerate(rows)]


def rows_from_csv(path: Path) -> list[WidthRow]:
    """The validated rows of a CSV table, numbered from 0 in messages; lines from 1 (the header).

    Raises:
        TableError: The file is unreadable, past ``MAX_TABLE_BYTES`` or malformed, its header is not
            ``COLUMNS`` (nor schema 2's or schema 1's columns), or a row is invalid; the message names the
            file, and the row and line where there is one.
    """
    reader = csv.reader(io.StringIO(_read_text(path, "CSV"), newline=""), strict=True)
    schemas = {3: COLUMNS, 2: SCHEMA_2_COLUMNS, 1: SCHEMA_1_COLUMNS}
    try:
        with _csv_field_limit(MAX_TABLE_BYTES):  # the file is at most that long, so no cell is longer
            header = next(reader, None)
            if header is None:
                raise TableError(f"{path}: empty file; a CSV width table starts with the header {','.join(COLUMNS)}")
            header = [_csv_text(cell) for cell in header]
            counts = Counter(header)
            schema = next(
                (number for number, columns in schemas.items() if len(header) == len(columns)
                 and counts.keys() == set(columns) and max(counts.values()) == 1),
                None,
            )  # fmt: skip
            if schema is None:
                missing = [column for column in COLUMNS if column not in counts]
                extra = sorted(clipped(c) for c, n in counts.items() if c not in COLUMNS or n > 1)
                more = f" and {len(extra) - SHOWN_COLUMNS} more" if len(extra) > SHOWN_COLUMNS else ""
                raise TableError(
                    f"{path} header: missing column(s) {missing}, unknown or repeated column(s) "
                    f"{extra[:SHOWN_COLUMNS]}{more}. The header must be {','.join(COLUMNS)}."
                )
            checked = []
            for index, record in enumerate(reader):
                record = [_csv_text(cell) for cell in record]
                where = where_row(f"{path} ", index, dict(zip(header, record)), line=reader.line_num)
                if len(record) != len(header):
                    raise TableError(f"{where}: {len(record)} cell(s), the header has {len(header)}; truncated file?")
                row = {column: _parse_cell(column, text) for column, text in zip(header, record)}
                checked.append(validate_row(upgraded_row(row, schema), where))
    except csv.Error as error:
        raise TableError(f"{path} line {reader.line_num}: malformed CSV ({error}); re-export the table.") from None
    return checked


def _read_text(path: Path, kind: str) -> str:
    shown = clipped(str(path))
    if "\0" in str(path):
        raise TableError(f"cannot read width table {shown!r}: a path never holds a NUL character")
    try:
        if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO would be read until it ends
            raise TableError(f"cannot read width table {path}: not a regular file; pass a .json or .csv table")
        data = read_bounded(path, MAX_TABLE_BYTES, what="width table")
    except TooLargeError as error:
        raise TableError(f"{path}: {error}") from None
    except OSError as error:  # missing, unreadable, a folder, a name past the filesystem's limits
        raise TableError(f"cannot read width table {shown}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TableError(f"{path}: not a UTF-8 text file ({error.reason}); expected a {kind} width table") from None


def _csv_text(cell: str) -> str:
    """A cell's text as it was before ``_csv_cell`` neutralised it (the csv reader has undone the quoting)."""
    return cell[1:] if _FORMULA_READ.match(cell) else cell


def _parse_cell(column: str, text: str) -> object:
    """A CSV cell back to its column's type; unparsable text stays text for validation to report."""
    kind = COLUMN_TYPES[column]
    if column == "options":
        try:
            return loads_strict(text)
        except StrictJSONError:  # validation reports the text
            return text
    try:
        if kind is int and _CSV_INT.fullmatch(text):
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        return text
    if kind is bool and text in ("true", "false"):
        return text == "true"
    return text


@contextmanager
def _csv_field_limit(limit: int) -> Iterator[None]:
    """The csv module's per-cell limit (131072 characters by default) raised to ``limit`` for the block."""
    previous = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(previous)

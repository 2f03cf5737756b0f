"""Width tables: measured (or predicted) encoder output widths with provenance.

A table is the survey's committed result and the source every export is
made from, so it is strict both ways: every row is validated on the way in
(the error names the file and the row), files round-trip exactly, and every
write is atomic and fully rendered first, so a failed export never leaves a
half-written table behind.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_type_hints

from ecwidth.engines.runtime import describe_options, recorded_options
from ecwidth.errors import TableError
from ecwidth.records.atomic import write_text_atomic
from ecwidth.records.reconcile import MAX_WIDTH, get_width
from ecwidth.records.strict_json import StrictJSONError, loads_strict

if TYPE_CHECKING:
    import pandas as pd  # imported where a frame is made: lookups and exports stay quick

#: 2 added ``options``; schema 1 tables (no options column) still read, as measured with the engine's defaults.
SCHEMA_VERSION = 2
READABLE_SCHEMA_VERSIONS = (1, 2)


@dataclass(frozen=True)
class WidthRow:
    """One (model, modality, options) width and how it was obtained.

    The field order is the stable column order of every exported table.
    ``options`` are the engine's runtime options the width was measured with,
    only those set away from the default (``{}``: the engine's defaults;
    ``{"video_pruning_rate": 0.5}``: video pruning on), so one model can hold
    rows for several settings. ``source`` is ``"measured"`` or ``"predicted"``;
    ``dummy`` is the dummy item size used to measure (``"minimal"``/``"profile"``),
    ``"none"`` for predicted rows. Rows are validated when they enter a ``WidthTable``.
    """

    model: str
    modality: str
    options: dict[str, Any] = field(hash=False)  # a dict: hashing a row skips it
    encoder_width: int
    lm_hidden_size: int
    width_ratio: float
    deepstack_levels: int
    source: str
    predicted_width: int
    matches_prediction: bool
    ecwidth_version: str
    torch_version: str
    transformers_version: str
    device: str
    dtype: str
    dummy: str
    measured_at: str
    config_sha256: str


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(WidthRow))
#: The columns of a schema 1 table, written before rows recorded their options.
SCHEMA_1_COLUMNS: tuple[str, ...] = tuple(column for column in COLUMNS if column != "options")

_TYPES: dict[str, type] = get_type_hints(WidthRow)
_MIN_INT = {"encoder_width": 1, "lm_hidden_size": 1, "predicted_width": 1, "deepstack_levels": 0}
_CHOICES = {"source": ("measured", "predicted"), "dummy": ("minimal", "profile", "none")}
_NON_EMPTY = ("model", "modality")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CSV_INT = re.compile(r"-?[0-9]+")
_MARKDOWN_COLUMNS = (
    "model", "modality", "options", "encoder_width", "lm_hidden_size", "width_ratio", "deepstack_levels",
    "source", "predicted_width", "matches_prediction", "dummy", "device", "dtype",
)  # fmt: skip


def _show(value: object) -> str:
    """A short repr for error messages, safe on hostile values."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _where(prefix: str, index: int, row: object, line: int | None = None) -> str:
    """``"<prefix> row <index> (line <n>, model='x', modality='y')"`` for error messages."""
    parts = [f"line {line}"] if line is not None else []
    if isinstance(row, Mapping):
        parts += [f"{key}={_show(row[key])}" for key in ("model", "modality") if key in row]
        if isinstance(row.get("options"), Mapping) and row["options"]:
            parts.append(f"options={_show(row['options'])}")
    detail = f" ({', '.join(parts)})" if parts else ""
    return f"{prefix}row {index}{detail}"


def _value_problem(column: str, value: Any) -> str | None:
    """What is wrong with ``value`` in ``column``, or None when it is valid."""
    kind = _TYPES[column]
    if column == "options":
        return _options_problem(value)
    if kind is int:
        minimum = _MIN_INT[column]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            return f"{column} must be an int >= {minimum}, got {_show(value)}"
    elif kind is float:
        try:
            finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(float(value))
        except OverflowError:  # an int too large for a float
            finite = False
        if not finite:
            return f"{column} must be a finite number, got {_show(value)}"
    elif kind is bool:
        if not isinstance(value, bool):
            return f"{column} must be true or false, got {_show(value)}"
    elif not isinstance(value, str):
        return f"{column} must be a string, got {_show(value)}"
    elif column in _CHOICES and value not in _CHOICES[column]:
        return f"{column} must be one of {', '.join(_CHOICES[column])}, got {_show(value)}"
    elif column in _NON_EMPTY and not value:
        return f"{column} must not be empty"
    elif column == "config_sha256" and not _SHA256.fullmatch(value):
        return f"config_sha256 must be 64 lowercase hex digits, got {_show(value)}"
    elif column == "measured_at" and not _is_utc_timestamp(value):
        return f"measured_at must be an ISO-8601 UTC time such as '2026-01-31T12:00:00+00:00', got {_show(value)}"
    return None


def _options_problem(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return (
            f"options must be an object of runtime option name to value ({{}}: the engine's defaults), "
            f"got {_show(value)}"
        )
    try:
        recorded_options(value)
    except ValueError as error:
        return f"options: {error}"
    return None


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Options as a sortable, comparable part of a row's key."""
    return tuple(sorted(options.items()))


def _key(row: WidthRow) -> tuple[str, str, tuple[tuple[str, Any], ...]]:
    """What identifies a row: (model, modality, options)."""
    return row.model, row.modality, _options_key(row.options)


def _describe_key(row: WidthRow) -> str:
    return f"model={row.model!r}, modality={row.modality!r}, options={describe_options(row.options)}"


def _is_utc_timestamp(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).utcoffset() == timedelta(0)
    except ValueError:
        return False


def _contradictions(row: Mapping[str, Any]) -> list[str]:
    """What a row's well-typed values say against each other, or against any real encoder."""
    problems = [
        f"{column} {row[column]} is past any real width (at most {MAX_WIDTH})"
        for column in ("encoder_width", "lm_hidden_size", "predicted_width")
        if row[column] > MAX_WIDTH
    ]
    if problems:
        return problems
    ratio = row["encoder_width"] / row["lm_hidden_size"]
    if not math.isclose(row["width_ratio"], ratio, rel_tol=1e-9):
        problems.append(f"width_ratio {row['width_ratio']} contradicts encoder_width / lm_hidden_size = {ratio:.6g}")
    if row["matches_prediction"] != (row["predicted_width"] == row["encoder_width"]):
        problems.append(
            f"matches_prediction {str(row['matches_prediction']).lower()} contradicts predicted_width "
            f"{row['predicted_width']} against encoder_width {row['encoder_width']}"
        )
    return problems


def _validate_row(mapping: object, where: str) -> WidthRow:
    """Check one row's keys and values and build the ``WidthRow``.

    Raises:
        TableError: ``mapping`` is not a mapping, lacks or adds columns (named),
            or holds a value of the wrong type or range (every bad column named).
            The message starts with ``where``.
    """
    if not isinstance(mapping, Mapping):
        raise TableError(
            f"{where}: a row must be an object of column name to value, got {type(mapping).__name__} {_show(mapping)}"
        )
    missing = [column for column in COLUMNS if column not in mapping]
    extra = sorted(_show(key) if not isinstance(key, str) else key for key in mapping if key not in COLUMNS)
    if missing or extra:
        found = [f"missing column(s) {', '.join(missing)}"] if missing else []
        found += [f"unknown column(s) {', '.join(extra)}"] if extra else []
        raise TableError(f"{where}: {'; '.join(found)}. A row has exactly the columns {', '.join(COLUMNS)}.")
    problems = [problem for column in COLUMNS if (problem := _value_problem(column, mapping[column]))]
    problems = problems or _contradictions(mapping)
    if problems:
        raise TableError(f"{where}: {'; '.join(problems)}")
    values = {column: mapping[column] for column in COLUMNS}
    values["width_ratio"] = float(values["width_ratio"])
    values["options"] = recorded_options(values["options"])
    return WidthRow(**values)


def _from_schema_1(row: object) -> object:
    """A schema 1 row as today's: rows then had no options column and were measured with the engine's defaults."""
    if isinstance(row, Mapping) and "options" not in row:
        return {**row, "options": {}}
    return row  # not a row, or one with a column schema 1 lacks: validation names it


def _format_cell(value: object) -> str:
    """A cell as JSON writes it: true/false, shortest exact float, plain int and str, options as a JSON object."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return json.dumps(value, sort_keys=True, allow_nan=False)
    return repr(value) if isinstance(value, float) else str(value)


def _parse_cell(column: str, text: str) -> object:
    """A CSV cell back to its column's type; unparsable text stays text for validation to report."""
    kind = _TYPES[column]
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


def _markdown_cell(row: WidthRow, column: str) -> str:
    value = getattr(row, column)
    text = describe_options(value) if column == "options" else _format_cell(value)
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _html_cell(row: WidthRow, column: str) -> str:
    """A cell for the eye: the ratio to 3 significant digits, options described; the files keep the exact value."""
    value = getattr(row, column)
    if column == "width_ratio":
        return f"{value:.3g}×"
    return describe_options(value) if column == "options" else _format_cell(value)


def _read_text(path: Path, kind: str) -> str:
    if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO would be read until it ends, if ever
        raise TableError(f"cannot read width table {path}: not a regular file; pass a .json or .csv table")
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            return handle.read()
    except OSError as error:
        raise TableError(f"cannot read width table {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise TableError(f"{path}: not a UTF-8 text file ({error.reason}); expected a {kind} width table") from None


class WidthTable:
    """An immutable set of ``WidthRow`` with at most one row per (model, modality, options).

    Rows are kept sorted by (model, modality, options), so two tables with the
    same rows are equal whatever order they were given in. Lookups and producer
    configs are for one setting of the runtime options, the engine's defaults
    unless ``video_pruning_rate`` says otherwise.
    """

    def __init__(self, rows: Iterable[WidthRow]) -> None:
        """Validate ``rows`` and keep them sorted.

        Raises:
            TableError: ``rows`` is not an iterable, a row is not a valid ``WidthRow`` (names the row), or two
                rows share a (model, modality, options) (names every duplicate and where).
        """
        if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
            raise TableError(
                f"a width table is made of an iterable of WidthRow, got {type(rows).__name__} {_show(rows)}"
            )
        checked = []
        for index, row in enumerate(rows):
            if not isinstance(row, WidthRow):
                raise TableError(f"row {index}: expected a WidthRow, got {type(row).__name__} {_show(row)}")
            values = asdict(row)
            checked.append(_validate_row(values, _where("", index, values)))
        seen: dict[tuple, list[int]] = {}
        for index, row in enumerate(checked):
            seen.setdefault(_key(row), []).append(index)
        duplicates = [f"{_describe_key(checked[at[0]])} at rows {at}" for at in seen.values() if len(at) > 1]
        if duplicates:
            raise TableError(
                f"duplicate rows for the same (model, modality, options): {'; '.join(duplicates)}. "
                "Keep one row per key (WidthTable.merge resolves two tables)."
            )
        self._rows = tuple(sorted(checked, key=_key))

    @property
    def rows(self) -> tuple[WidthRow, ...]:
        """The rows, sorted by (model, modality, options)."""
        return self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[WidthRow]:
        return iter(self._rows)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WidthTable):
            return NotImplemented
        return self._rows == other._rows

    def __repr__(self) -> str:
        return f"WidthTable({len(self)} rows, models={self.models()})"

    def _repr_html_(self) -> str:
        """JupyterLab shows a table as an HTML table of the columns ``render_markdown`` shows, the ratio rounded."""
        columns = self._columns_for_people()
        head = "".join(f"<th>{column}</th>" for column in columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(_html_cell(row, column))}</td>" for column in columns) + "</tr>"
            for row in self._rows
        )
        caption = f"WidthTable: {len(self)} row(s) over {len(self.models())} model(s)"
        return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def _columns_for_people(self) -> list[str]:
        """The Markdown and HTML columns: options once a row was measured with an option set."""
        with_options = any(row.options for row in self._rows)
        return [column for column in _MARKDOWN_COLUMNS if with_options or column != "options"]

    def models(self) -> list[str]:
        """The model names in the table, sorted, each once."""
        return sorted({row.model for row in self._rows})

    def for_model(self, model: str, *, video_pruning_rate: float | None = None) -> WidthTable:
        """The table restricted to one model's rows: every setting, or the one ``video_pruning_rate`` names.

        Raises:
            TableError: ``model`` has no rows (lists the models in the table), or
                none measured with that setting (lists the settings it has).
        """
        rows = [row for row in self._rows if row.model == model]
        if not rows:
            raise TableError(f"model {model!r} is not in the width table; models in the table: {self.models()}")
        table = WidthTable(rows)
        return table if video_pruning_rate is None else table.with_options(video_pruning_rate=video_pruning_rate)

    def with_options(self, *, video_pruning_rate: float) -> WidthTable:
        """The rows measured with one setting of the runtime options (``video_pruning_rate`` 0: off).

        Raises:
            TableError: No row has that setting; lists the settings there are.
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
        """
        options = recorded_options({"video_pruning_rate": video_pruning_rate})
        chosen = [row for row in self._rows if row.options == options]
        if not chosen:
            models = self.models()
            scope = f"model {models[0]!r}" if len(models) == 1 else "the width table"
            settings = "; ".join(sorted({describe_options(row.options) for row in self._rows})) or "none (no rows)"
            raise TableError(
                f"{scope} has no rows measured with {describe_options(options)}; its rows were measured with: "
                f"{settings}. Pick one of those (--video-pruning-rate), or measure this setting."
            )
        return WidthTable(chosen)

    def to_frame(self) -> pd.DataFrame:
        """The rows as a DataFrame with exactly ``COLUMNS``, sorted by (model, modality, options)."""
        import pandas as pd

        return pd.DataFrame([asdict(row) for row in self._rows], columns=list(COLUMNS))

    def widths(self, model: str, *, video_pruning_rate: float = 0.0) -> dict[str, int]:
        """``{modality: encoder_width}`` for one model, measured with ``video_pruning_rate`` (0: off, the default).

        Raises:
            TableError: ``model`` is not in the table, or has no rows with that setting (see ``for_model``).
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
        """
        rows = self.for_model(model, video_pruning_rate=video_pruning_rate)
        return {row.modality: row.encoder_width for row in rows}

    def width(self, model: str, modality: str, *, video_pruning_rate: float = 0.0) -> int:
        """The encoder output width of one model's modality, measured with ``video_pruning_rate`` (0: off).

        Raises:
            TableError: ``model`` is not in the table, or has no rows with that setting (see ``for_model``).
            MissingWidthError: ``modality`` has no row for ``model``; lists the ones that do.
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
        """
        return get_width(self.widths(model, video_pruning_rate=video_pruning_rate), modality)

    def producer_config(self, model: str, *, video_pruning_rate: float = 0.0) -> dict[str, dict[str, int]]:
        """The EC producer field serving engines keep: ``{"mm_encoder_output_widths": {...}}``.

        A producer runs with one setting, so the config is for the rows measured
        with ``video_pruning_rate`` (0: off, the engine's default).

        Raises:
            TableError: ``model`` is not in the table or has no rows with that
                setting, or any of its rows is predicted: a producer's transfer
                buffers must not be sized from a guess.
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
        """
        rows = self.for_model(model, video_pruning_rate=video_pruning_rate).rows
        predicted = [row.modality for row in rows if row.source == "predicted"]
        if predicted:
            raise TableError(
                f"refusing to build a producer config for {model!r}: the width of {', '.join(predicted)} "
                "is predicted, not measured, and a producer must not be sized from a guess. "
                "Measure the model first, then export the measured table."
            )
        return {"mm_encoder_output_widths": {row.modality: row.encoder_width for row in rows}}

    def render_producer_config(self, model: str, *, video_pruning_rate: float = 0.0) -> str:
        """The JSON text of one model's producer config file, as ``ecwidth export`` and the notebooks write it.

        Raises:
            TableError, UnsupportedOptionError: As ``producer_config``.
        """
        config = self.producer_config(model, video_pruning_rate=video_pruning_rate)
        return json.dumps(config, indent=2, sort_keys=True) + "\n"

    def merge(self, other: WidthTable, *, overwrite: bool = False) -> WidthTable:
        """A new table with the rows of both; no row is ever dropped silently.

        Rows are matched by (model, modality, options): a width with pruning on
        never conflicts with the same model's width with it off. A key in both
        tables with different ``encoder_width`` is a conflict. With
        ``overwrite``, ``other``'s row replaces ours for every shared key
        (conflicting or not); without it, shared keys with equal widths keep
        our row (provenance included) and any conflict is an error.

        Raises:
            TableError: ``other`` is not a table, or without ``overwrite`` the tables conflict; names every
                conflicting (model, modality, options) and both widths.
        """
        if not isinstance(other, WidthTable):
            raise TableError(f"merge takes another WidthTable, got {type(other).__name__} {_show(other)}")
        merged = {_key(row): row for row in self._rows}
        conflicts = [
            f"{_describe_key(row)}: {merged[key].encoder_width} here, {row.encoder_width} in the other table"
            for row in other
            if (key := _key(row)) in merged and merged[key].encoder_width != row.encoder_width
        ]
        if conflicts and not overwrite:
            raise TableError(
                f"width tables conflict on {len(conflicts)} row(s): {'; '.join(conflicts)}. "
                "Re-measure to find out which is right, or merge with overwrite=True to take the other table's rows."
            )
        for row in other:
            key = _key(row)
            if overwrite or key not in merged:
                merged[key] = row
        return WidthTable(merged.values())

    def render_json(self) -> str:
        """The JSON text ``to_json`` writes."""
        document = {
            "schema_version": SCHEMA_VERSION,
            "columns": list(COLUMNS),
            "rows": [asdict(row) for row in self._rows],
        }
        return json.dumps(document, indent=2, allow_nan=False) + "\n"

    def render_csv(self) -> str:
        """The CSV text ``to_csv`` writes: a header of ``COLUMNS``, then one line per row."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows([_format_cell(value) for value in asdict(row).values()] for row in self._rows)
        return buffer.getvalue()

    def render_markdown(self) -> str:
        """A pipe table for people; the JSON and CSV files carry the full provenance.

        The options column appears once a row was measured with an option set,
        so a table of engine defaults reads as it did before rows had options.
        """
        columns = self._columns_for_people()
        numeric = {column for column in columns if _TYPES[column] in (int, float)}
        lines = [
            "# Encoder output widths",
            "",
            f"{len(self)} row(s) over {len(self.models())} model(s). encoder_width is the last dim of the "
            "per-item embeddings an EC producer ships; versions, time and config hash are in the .json/.csv.",
            "",
            "| " + " | ".join(columns) + " |",
            "|" + "|".join("---:" if column in numeric else "---" for column in columns) + "|",
        ]
        lines += ["| " + " | ".join(_markdown_cell(row, column) for column in columns) + " |" for row in self._rows]
        return "\n".join(lines) + "\n"

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Write the table as JSON (schema_version, columns, rows), atomically.

        Raises:
            OSError: ``path`` cannot be written; any old file there is untouched.
        """
        write_text_atomic(path, self.render_json())

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write the table as CSV, atomically; ``from_csv`` reads it back exactly.

        Raises:
            OSError: ``path`` cannot be written; any old file there is untouched.
        """
        write_text_atomic(path, self.render_csv())

    def to_markdown(self, path: str | os.PathLike[str]) -> None:
        """Write the pipe table ``render_markdown`` gives, atomically.

        Raises:
            OSError: ``path`` cannot be written; any old file there is untouched.
        """
        write_text_atomic(path, self.render_markdown())

    def write(self, directory: str | os.PathLike[str], stem: str = "encoder_widths") -> list[Path]:
        """Write ``<stem>.json``, ``<stem>.csv`` and ``<stem>.md`` into ``directory``.

        All three are rendered before any file is touched.

        Raises:
            OSError: A file cannot be written; files not yet replaced keep their old content.
        """
        directory = Path(directory)
        rendered = {
            directory / f"{stem}.json": self.render_json(),
            directory / f"{stem}.csv": self.render_csv(),
            directory / f"{stem}.md": self.render_markdown(),
        }
        for path, text in rendered.items():
            write_text_atomic(path, text)
        return list(rendered)

    @classmethod
    def from_json(cls, path: str | os.PathLike[str]) -> WidthTable:
        """Read and validate a table ``to_json`` wrote. Rows are numbered from 0, as in ``"rows"``.

        Raises:
            TableError: The file is unreadable, not JSON (or truncated), not a
                table of a schema this ecwidth reads (``READABLE_SCHEMA_VERSIONS``;
                schema 1 rows read as measured with the engine's defaults), or
                holds an invalid or duplicate row;
                the message names the file, and the row where there is one.
        """
        path = Path(path)
        text = _read_text(path, "JSON")
        try:
            document = loads_strict(text)
        except StrictJSONError as error:
            raise TableError(
                f"{path}: {error}; the file may be truncated or hand-edited. "
                "Re-export it with WidthTable.to_json or `ecwidth export`."
            ) from None
        except ValueError as error:  # e.g. an int past Python's digit limit
            raise TableError(f"{path}: cannot be parsed as a width table ({error}); re-export it.") from None
        if not isinstance(document, dict):
            raise TableError(
                f"{path}: a width table is a JSON object with schema_version and rows, got {type(document).__name__}"
            )
        if "schema_version" not in document:
            raise TableError(f"{path}: no schema_version; expected {SCHEMA_VERSION}. Re-export the table.")
        version = document["schema_version"]
        if isinstance(version, bool) or version not in READABLE_SCHEMA_VERSIONS:
            raise TableError(
                f"{path}: schema_version is {_show(version)}, but this ecwidth reads schema_version "
                f"{' or '.join(map(str, READABLE_SCHEMA_VERSIONS))}. "
                "Re-export the table with this ecwidth, or use the ecwidth that wrote it."
            )
        rows = document.get("rows")
        if not isinstance(rows, list):
            raise TableError(f"{path}: 'rows' must be a list of row objects, got {_show(rows)}")
        if version == 1:
            rows = [_from_schema_1(row) for row in rows]
        checked = [_validate_row(row, _where(f"{path} ", index, row)) for index, row in enumerate(rows)]
        return cls._from_file(path, checked)

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str]) -> WidthTable:
        """Read and validate a table ``to_csv`` wrote. Rows are numbered from 0; lines from 1 (the header).

        Raises:
            TableError: The file is unreadable or malformed, its header is not
                ``COLUMNS`` (or schema 1's ``SCHEMA_1_COLUMNS``, whose rows read as
                measured with the engine's defaults), or a row is invalid or duplicated; the message
                names the file, and the row and line where there is one.
        """
        path = Path(path)
        reader = csv.reader(io.StringIO(_read_text(path, "CSV"), newline=""), strict=True)
        try:
            header = next(reader, None)
            if header is None:
                raise TableError(f"{path}: empty file; a CSV width table starts with the header {','.join(COLUMNS)}")
            schema_1 = sorted(header) == sorted(SCHEMA_1_COLUMNS)
            if sorted(header) != sorted(COLUMNS) and not schema_1:
                missing = [column for column in COLUMNS if column not in header]
                extra = sorted({column for column in header if column not in COLUMNS or header.count(column) > 1})
                raise TableError(
                    f"{path} header: missing column(s) {missing}, unknown or repeated column(s) {extra}. "
                    f"The header must be {','.join(COLUMNS)}."
                )
            checked = []
            for index, record in enumerate(reader):
                where = _where(f"{path} ", index, dict(zip(header, record)), line=reader.line_num)
                if len(record) != len(header):
                    raise TableError(f"{where}: {len(record)} cell(s), the header has {len(header)}; truncated file?")
                row = {column: _parse_cell(column, text) for column, text in zip(header, record)}
                checked.append(_validate_row(_from_schema_1(row) if schema_1 else row, where))
        except csv.Error as error:
            raise TableError(f"{path} line {reader.line_num}: malformed CSV ({error}); re-export the table.") from None
        return cls._from_file(path, checked)

    @classmethod
    def _from_file(cls, path: Path, rows: list[WidthRow]) -> WidthTable:
        try:
            return cls(rows)
        except TableError as error:
            raise TableError(f"{path}: {error}") from None

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> WidthTable:
        """Read a ``.json`` or ``.csv`` width table, by suffix.

        Raises:
            TableError: ``path`` is not a path, the suffix is neither, or the file is invalid
                (see ``from_json``/``from_csv``).
        """
        if not isinstance(path, (str, os.PathLike)):
            raise TableError(
                f"a width table is read from a path (str or os.PathLike), got {type(path).__name__} {path!r}"
            )
        path = Path(path)
        readers = {".json": cls.from_json, ".csv": cls.from_csv}
        if path.suffix.lower() not in readers:
            raise TableError(f"{path}: unknown width table format {path.suffix!r}; ecwidth reads .json and .csv tables")
        return readers[path.suffix.lower()](path)

"""Width tables: measured (or predicted) encoder output widths with provenance.

A table is the survey's committed result and the source every export is
made from, so it is strict both ways: every row is validated on the way in
(the error names the file and the row), files round-trip exactly, and every
write is atomic and fully rendered first, so a failed export never leaves a
half-written table behind.

Every row names the engine release it answers for (``engine``,
``engine_version``: ``vllm`` ``0.33.0``), and the release is part of the
row's key, so one table holds a model under several releases side by side.
Tables written before rows recorded it (schema 1 and 2) read as
``ecwidth.engines.releases.LEGACY`` (vLLM 0.32.0).

Reading is bounded: a table file past ``MAX_TABLE_BYTES`` is refused unread,
and no table past it is written, so whatever ecwidth writes it reads back.

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
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_type_hints

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import describe_options, recorded_options
from ecwidth.errors import TableError
from ecwidth.records.atomic import write_text_atomic
from ecwidth.records.reconcile import MAX_WIDTH, get_width
from ecwidth.records.strict_json import StrictJSONError, TooLargeError, format_limit, loads_strict, read_bounded

if TYPE_CHECKING:
    import pandas as pd  # imported where a frame is made: lookups and exports stay quick

#: 2 added ``options``; 3 added ``engine`` and ``engine_version``. Schema 1 tables (no options column) still
#: read, as measured with the engine's defaults; schema 1 and 2 tables read as vLLM 0.32.0 (``releases.LEGACY``).
SCHEMA_VERSION = 3
READABLE_SCHEMA_VERSIONS = (1, 2, 3)
#: The largest table file ecwidth reads or writes: about 90,000 JSON rows (some 700 bytes each), where the
#: whole catalog under every known engine release and option setting is a few hundred.
MAX_TABLE_BYTES = 64 << 20
#: More DeepStack levels than any tower has layers (real towers have a few hundred at most, 3 of them DeepStack).
MAX_DEEPSTACK_LEVELS = 1024
#: What ``for_model``'s and ``with_options``' ``engine=`` take for the rows of every engine release.
ALL_ENGINES = "all"


@dataclass(frozen=True)
class WidthRow:
    """One (model, modality, options, engine release) width and how it was obtained.

    The field order is the stable column order of every exported table.
    ``options`` are the engine's runtime options the width was measured with,
    only those set away from the default (``{}``: the engine's defaults;
    ``{"video_pruning_rate": 0.5}``: video pruning on), so one model can hold
    rows for several settings. ``engine`` and ``engine_version`` name the
    release the row answers for (``"vllm"``, ``"0.33.0"``), one of
    ``releases.RELEASES``; they are keyword-only and default to
    ``releases.DEFAULT``. ``source`` is ``"measured"`` or ``"predicted"``;
    ``dummy`` is the dummy item size used to measure (``"minimal"``/``"profile"``),
    ``"none"`` for predicted rows. Rows are validated when they enter a ``WidthTable``.
    """

    model: str
    modality: str
    options: dict[str, Any] = field(hash=False)  # a dict: hashing a row skips it
    engine: str = field(default=releases.DEFAULT.engine, kw_only=True)
    engine_version: str = field(default=releases.DEFAULT.version, kw_only=True)
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
_ENGINE_COLUMNS = ("engine", "engine_version")
#: The columns of a schema 2 table, written before rows recorded their engine release.
SCHEMA_2_COLUMNS: tuple[str, ...] = tuple(column for column in COLUMNS if column not in _ENGINE_COLUMNS)
#: The columns of a schema 1 table, written before rows recorded their options.
SCHEMA_1_COLUMNS: tuple[str, ...] = tuple(column for column in SCHEMA_2_COLUMNS if column != "options")

_TYPES: dict[str, type] = get_type_hints(WidthRow)
_MIN_INT = {"encoder_width": 1, "lm_hidden_size": 1, "predicted_width": 1, "deepstack_levels": 0}
_CHOICES = {"source": ("measured", "predicted"), "dummy": ("minimal", "profile", "none")}
_NON_EMPTY = ("model", "modality")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CSV_INT = re.compile(r"-?[0-9]+")
_MARKDOWN_COLUMNS = (
    "model", "modality", "options", "engine", "encoder_width", "lm_hidden_size", "width_ratio", "deepstack_levels",
    "source", "predicted_width", "matches_prediction", "dummy", "device", "dtype",
)  # fmt: skip
#: Column names an error lists before it says how many more there are.
_SHOWN_COLUMNS = 8
#: A cell a spreadsheet would evaluate, after any single quotes ecwidth put in front (see the module docstring).
_FORMULA = re.compile("'*[=+\\-@\t\r\n\uff1d\uff0b\uff0d\uff20]")
_FORMULA_READ = re.compile("'+[=+\\-@\t\r\n\uff1d\uff0b\uff0d\uff20]")
#: Characters that make a CSV cell need quotes (the writer ends lines with \n, so \r must be named too).
_NEEDS_QUOTES = re.compile('[,"\r\n]')


def _show(value: object) -> str:
    """A short repr for error messages, safe on hostile values."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past Python's digit limit, a self-nesting value
        if isinstance(value, int):
            return f"<an int of about {int(value.bit_length() * 0.30103) + 1} digits>"
        return f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _listed(names: list[str]) -> str:
    """``"a, b, c"``, the first ``_SHOWN_COLUMNS`` of them and how many more."""
    more = f" and {len(names) - _SHOWN_COLUMNS} more" if len(names) > _SHOWN_COLUMNS else ""
    return ", ".join(names[:_SHOWN_COLUMNS]) + more


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
    elif not _encodable(value):
        return f"{column} must be text that UTF-8 can write (no lone surrogates), got {_show(value)}"
    elif column in _CHOICES and value not in _CHOICES[column]:
        return f"{column} must be one of {', '.join(_CHOICES[column])}, got {_show(value)}"
    elif column in _NON_EMPTY and not value:
        return f"{column} must not be empty"
    elif column == "config_sha256" and not _SHA256.fullmatch(value):
        return f"config_sha256 must be 64 lowercase hex digits, got {_show(value)}"
    elif column == "measured_at" and not _is_utc_timestamp(value):
        return f"measured_at must be an ISO-8601 UTC time such as '2026-01-31T12:00:00+00:00', got {_show(value)}"
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _options_problem(value: Any) -> str | None:
    if not isinstance(value, Mapping):
        return (
            f"options must be an object of runtime option name to value ({{}}: the engine's defaults), "
            f"got {_show(value)}"
        )
    try:
        recorded_options(value)
    except (ValueError, OverflowError) as error:  # OverflowError: an int too large for a float
        return f"options: {_show_text(str(error))}"
    return None


def _show_text(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."


def _release_problem(row: Mapping[str, Any]) -> str | None:
    """What is wrong with a well-typed row's (engine, engine_version), or None when ecwidth knows the release."""
    known = {(release.engine, release.version) for release in releases.RELEASES}
    if (row["engine"], row["engine_version"]) in known:
        return None
    return (
        f"engine {_show(row['engine'])} version {_show(row['engine_version'])} is not a release ecwidth knows; "
        f"known: {releases.known()}"
    )


def _release_of(row: WidthRow) -> Release:
    return next(r for r in releases.RELEASES if (r.engine, r.version) == (row.engine, row.engine_version))


def _release_order(release: Release) -> tuple[str, tuple[int, ...]]:
    return release.engine, releases.version_tuple(release.version)


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Options as a sortable, comparable part of a row's key."""
    return tuple(sorted(options.items()))


def _key(row: WidthRow) -> tuple[str, str, tuple[int, ...], str, tuple[tuple[str, Any], ...]]:
    """What identifies a row, in the order rows are sorted: (model, engine, engine_version, modality, options)."""
    return row.model, row.engine, releases.version_tuple(row.engine_version), row.modality, _options_key(row.options)


def _describe_key(row: WidthRow) -> str:
    return (
        f"model={row.model!r}, modality={row.modality!r}, options={describe_options(row.options)}, "
        f"engine={row.engine}=={row.engine_version}"
    )


def _is_utc_timestamp(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).utcoffset() == timedelta(0)
    except ValueError:
        return False


def _contradictions(row: Mapping[str, Any]) -> list[str]:
    """What a row's well-typed values say against each other, against any real encoder, or the known releases."""
    problems = [
        f"{column} {_show(row[column])} is past any real width (at most {MAX_WIDTH})"
        for column in ("encoder_width", "lm_hidden_size", "predicted_width")
        if row[column] > MAX_WIDTH
    ]
    if row["deepstack_levels"] > MAX_DEEPSTACK_LEVELS:
        problems.append(
            f"deepstack_levels {_show(row['deepstack_levels'])} is past any real tower's layer count "
            f"(at most {MAX_DEEPSTACK_LEVELS})"
        )
    problems += [problem] if (problem := _release_problem(row)) else []
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
    extra = sorted(_show(key) if not isinstance(key, str) else _show_text(key) for key in mapping if key not in COLUMNS)
    if missing or extra:
        found = [f"missing column(s) {_listed(missing)}"] if missing else []
        found += [f"unknown column(s) {_listed(extra)}"] if extra else []
        raise TableError(f"{where}: {'; '.join(found)}. A row has exactly the columns {', '.join(COLUMNS)}.")
    problems = [problem for column in COLUMNS if (problem := _value_problem(column, mapping[column]))]
    problems = problems or _contradictions(mapping)
    if problems:
        raise TableError(f"{where}: {'; '.join(problems)}")
    values = {column: mapping[column] for column in COLUMNS}
    values["width_ratio"] = float(values["width_ratio"])
    values["options"] = recorded_options(values["options"])
    return WidthRow(**values)


def _upgraded(row: object, schema: int) -> object:
    """A schema 1 or 2 row as today's: schema 1 rows had no options and were measured with the engine's defaults;
    schema 1 and 2 rows had no engine columns and answer for ``releases.LEGACY`` (vLLM 0.32.0)."""
    if not isinstance(row, Mapping):
        return row  # validation names it
    added: dict[str, Any] = {}
    if schema < 2 and "options" not in row:
        added["options"] = {}
    if schema < 3:
        legacy = {"engine": releases.LEGACY.engine, "engine_version": releases.LEGACY.version}
        added.update({column: value for column, value in legacy.items() if column not in row})
    return {**row, **added} if added else row  # a row with a column its schema lacks: validation takes it


def _csv_cell(text: str) -> str:
    """One CSV cell as ecwidth writes it: a formula neutralised with a leading quote, quoted where it must be."""
    if _FORMULA.match(text):
        text = "'" + text
    if _NEEDS_QUOTES.search(text):
        text = '"' + text.replace('"', '""') + '"'
    return text


def _csv_text(cell: str) -> str:
    """A cell's text as it was before ``_csv_cell`` neutralised it (the csv reader has undone the quoting)."""
    return cell[1:] if _FORMULA_READ.match(cell) else cell


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


def _people_cell(row: WidthRow, column: str) -> str:
    """A cell for people: options described, the engine release as messages name it (``vLLM 0.33.0``)."""
    if column == "engine":
        return str(_release_of(row))
    value = getattr(row, column)
    return describe_options(value) if column == "options" else _format_cell(value)


def _markdown_cell(row: WidthRow, column: str) -> str:
    return _people_cell(row, column).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _html_cell(row: WidthRow, column: str) -> str:
    """A cell for the eye: the ratio to 3 significant digits, options described; the files keep the exact value."""
    if column == "width_ratio":
        return f"{row.width_ratio:.3g}×"
    return _people_cell(row, column)


def _read_text(path: Path, kind: str) -> str:
    shown = _show_text(str(path))
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


def _one_release(engine: str | Release | None) -> str | Release | None:
    """``engine`` for a look-up that answers for one release: ``ALL_ENGINES`` would mix them.

    Raises:
        TableError: ``engine`` is ``ALL_ENGINES``.
    """
    if isinstance(engine, str) and engine.strip().lower() == ALL_ENGINES:
        raise TableError(
            f"widths and producer configs are for one engine release; name one of {releases.known()} "
            f"(or None), not {engine!r}"
        )
    return engine


@contextmanager
def _csv_field_limit(limit: int) -> Iterator[None]:
    """The csv module's per-cell limit (131072 characters by default) raised to ``limit`` for the block."""
    previous = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(previous)


class WidthTable:
    """An immutable set of ``WidthRow`` with at most one row per (model, modality, options, engine release).

    Rows are kept sorted by (model, engine, engine_version, modality,
    options), so two tables with the same rows are equal whatever order they
    were given in. Lookups and producer configs are for one engine release
    and one setting of the runtime options, the engine's defaults unless
    ``video_pruning_rate`` says otherwise.

    ``engine=`` on the look-ups names the release: ``"vllm==0.33.0"``,
    ``"sglang"`` (its newest), ``"vllm"`` (``releases.DEFAULT``), a
    ``releases.Release``, or ``None``: the only release the rows in question
    (the model's, for a model's look-up) hold, else ``releases.DEFAULT`` where
    they hold it, else a ``TableError`` listing the releases they hold.
    ``for_model`` and ``with_options`` also take ``ALL_ENGINES`` (``"all"``):
    the rows of every release.
    """

    def __init__(self, rows: Iterable[WidthRow]) -> None:
        """Validate ``rows`` and keep them sorted.

        Raises:
            TableError: ``rows`` is not an iterable, a row is not a valid ``WidthRow`` (names the row; an
                engine release ecwidth does not know names the known ones), or two rows share a (model,
                modality, options, engine release) (names every duplicate and where).
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
                f"duplicate rows for the same (model, modality, options, engine): {'; '.join(duplicates)}. "
                "Keep one row per key (WidthTable.merge resolves two tables)."
            )
        self._rows = tuple(sorted(checked, key=_key))

    @classmethod
    def _of_checked(cls, rows: Iterable[WidthRow]) -> WidthTable:
        """A table of rows taken from a valid table: sorted and unique already, so not checked again."""
        table = cls.__new__(cls)
        table._rows = tuple(rows)
        return table

    @property
    def rows(self) -> tuple[WidthRow, ...]:
        """The rows, sorted by (model, engine, engine_version, modality, options)."""
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
        return f"WidthTable({len(self)} rows, models={self.models()}, engines={self.engines()})"

    def _repr_html_(self) -> str:
        """JupyterLab shows a table as an HTML table of the columns ``render_markdown`` shows, the ratio rounded."""
        columns = self._columns_for_people()
        head = "".join(f"<th>{column}</th>" for column in columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(_html_cell(row, column))}</td>" for column in columns) + "</tr>"
            for row in self._rows
        )
        caption = f"WidthTable: {len(self)} row(s) over {len(self.models())} model(s){self._engines_phrase()}"
        caption = html.escape(caption)
        return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def _columns_for_people(self) -> list[str]:
        """The Markdown and HTML columns: options once a row was measured with an option set; always the engine."""
        with_options = any(row.options for row in self._rows)
        return [column for column in _MARKDOWN_COLUMNS if with_options or column != "options"]

    def _engines_phrase(self) -> str:
        """``" under vLLM 0.33.0"`` (every release the rows answer for), or ``""`` for no rows."""
        held = self._releases()
        if not held:
            return ""
        names = [str(release) for release in held]
        return " under " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])

    def models(self) -> list[str]:
        """The model names in the table, sorted, each once (under any engine release)."""
        return sorted({row.model for row in self._rows})

    def _releases(self) -> list[Release]:
        return sorted({_release_of(row) for row in self._rows}, key=_release_order)

    def engines(self) -> list[str]:
        """The engine releases the rows answer for, as ``releases.Release.key`` spells them (``"vllm==0.33.0"``)."""
        return [release.key for release in self._releases()]

    def _pick_release(self, engine: str | Release | None, scope: str) -> Release | None:
        """The release ``engine`` means for these rows (see the class docstring); None for ``ALL_ENGINES``.

        Raises:
            UnknownEngineError: ``engine`` names no release ecwidth knows; names the known ones.
            TableError: None of the rows answer for that release, or ``engine`` is None and the rows hold
                several releases, the default not among them; lists the releases the rows hold.
        """
        if isinstance(engine, str) and engine.strip().lower() == ALL_ENGINES:
            return None
        held = self._releases()
        listed = ", ".join(release.key for release in held) or "none (no rows)"
        if engine is None:
            if len(held) <= 1:
                return held[0] if held else releases.DEFAULT
            if releases.DEFAULT in held:
                return releases.DEFAULT
            raise TableError(
                f"{scope} holds rows for {len(held)} engine releases ({listed}), none of them the default "
                f"({releases.DEFAULT.key}); name one with engine= (--engine)"
            )
        chosen = releases.release(engine)
        if chosen not in held:
            raise TableError(
                f"{scope} has no rows for {chosen.key}; its rows are for: {listed}. "
                f"Pick one of those (--engine), or measure under {chosen.key}."
            )
        return chosen

    def _scope(self) -> str:
        models = self.models()
        return f"model {_show(models[0])}" if len(models) == 1 else "the width table"

    def with_engine(self, engine: str | Release | None = None) -> WidthTable:
        """The rows that answer for one engine release (``engine`` as in the class docstring).

        Raises:
            UnknownEngineError: ``engine`` names no release ecwidth knows.
            TableError: No row answers for that release, or ``engine`` is None and the table holds several
                releases, the default not among them; lists the releases it holds.
        """
        chosen = self._pick_release(engine, self._scope())
        if chosen is None:
            return self
        return WidthTable._of_checked(row for row in self._rows if _release_of(row) == chosen)

    def for_model(
        self,
        model: str,
        *,
        video_pruning_rate: float | None = None,
        engine: str | Release | None = None,
    ) -> WidthTable:
        """One model's rows under one engine release: every setting, or the one ``video_pruning_rate`` names.

        ``engine`` as in the class docstring, resolved over this model's rows; ``ALL_ENGINES`` keeps every release.

        Raises:
            TableError: ``model`` has no rows (lists the models in the table), none under that release (lists
                the releases it has), or none measured with that setting (lists the settings it has).
            UnknownEngineError: ``engine`` names no release ecwidth knows.
        """
        rows = [row for row in self._rows if row.model == model]
        if not rows:
            raise TableError(f"model {_show(model)} is not in the width table; models in the table: {self.models()}")
        table = WidthTable._of_checked(rows).with_engine(engine)
        if video_pruning_rate is None:
            return table
        return table.with_options(video_pruning_rate=video_pruning_rate, engine=ALL_ENGINES)

    def with_options(self, *, video_pruning_rate: float, engine: str | Release | None = None) -> WidthTable:
        """The rows of one engine release measured with one setting of the runtime options (``video_pruning_rate``).

        ``video_pruning_rate`` 0 is off, the engine's default.

        ``engine`` as in the class docstring; ``ALL_ENGINES`` keeps that setting's rows under every release.

        Raises:
            TableError: No row has that release or setting; lists the ones there are.
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
            UnknownEngineError: ``engine`` names no release ecwidth knows.
        """
        options = recorded_options({"video_pruning_rate": video_pruning_rate})
        table = self.with_engine(engine)
        chosen = [row for row in table._rows if row.options == options]
        if not chosen:
            settings = "; ".join(sorted({describe_options(row.options) for row in table._rows})) or "none (no rows)"
            held = table.engines()
            under = f" under {held[0]}" if len(held) == 1 else ""
            raise TableError(
                f"{self._scope()} has no rows measured with {describe_options(options)}{under}; its rows "
                f"were measured with: {settings}. Pick one of those (--video-pruning-rate), or measure this setting."
            )
        return WidthTable._of_checked(chosen)

    def to_frame(self) -> pd.DataFrame:
        """The rows as a DataFrame with exactly ``COLUMNS``, sorted as ``rows``."""
        import pandas as pd

        return pd.DataFrame([asdict(row) for row in self._rows], columns=list(COLUMNS))

    def widths(
        self, model: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
    ) -> dict[str, int]:
        """``{modality: encoder_width}`` for one model under one engine release, measured with ``video_pruning_rate``.

        ``video_pruning_rate`` 0 (the default) is off; ``engine`` as in the class docstring.

        Raises:
            TableError: ``model`` is not in the table, or has no rows with that release or setting (see ``for_model``).
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
            UnknownEngineError: ``engine`` names no release ecwidth knows.
        """
        rows = self.for_model(model, video_pruning_rate=video_pruning_rate, engine=_one_release(engine))
        return {row.modality: row.encoder_width for row in rows}

    def width(
        self, model: str, modality: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
    ) -> int:
        """The encoder output width of one model's modality under one engine release, with ``video_pruning_rate``.

        Raises:
            TableError: ``model`` is not in the table, or has no rows with that release or setting (see ``for_model``).
            MissingWidthError: ``modality`` has no row for ``model``; lists the ones that do.
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
            UnknownEngineError: ``engine`` names no release ecwidth knows.
        """
        return get_width(self.widths(model, video_pruning_rate=video_pruning_rate, engine=engine), modality)

    def producer_config(
        self, model: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
    ) -> dict[str, Any]:
        """The EC producer field serving engines keep, and the release it is for.

        ``{"mm_encoder_output_widths": {modality: width}, "engine": {"name": "vllm", "version": "0.33.0"}}``.
        A producer runs one engine release with one setting, so the config is for
        the rows of that release (``engine`` as in the class docstring) measured
        with ``video_pruning_rate`` (0: off, the engine's default).

        Raises:
            TableError: ``model`` is not in the table or has no rows with that
                release or setting, or any of its rows is predicted: a producer's
                transfer buffers must not be sized from a guess.
            UnsupportedOptionError: ``video_pruning_rate`` is out of range.
            UnknownEngineError: ``engine`` names no release ecwidth knows.
        """
        rows = self.for_model(model, video_pruning_rate=video_pruning_rate, engine=_one_release(engine)).rows
        predicted = [row.modality for row in rows if row.source == "predicted"]
        if predicted:
            raise TableError(
                f"refusing to build a producer config for {_show(model)}: the width of {', '.join(predicted)} "
                "is predicted, not measured, and a producer must not be sized from a guess. "
                "Measure the model first, then export the measured table."
            )
        return {
            "mm_encoder_output_widths": {row.modality: row.encoder_width for row in rows},
            "engine": {"name": rows[0].engine, "version": rows[0].engine_version},
        }

    def render_producer_config(
        self, model: str, *, video_pruning_rate: float = 0.0, engine: str | Release | None = None
    ) -> str:
        """The JSON text of one model's producer config file, as ``ecwidth export`` and the notebooks write it.

        Raises:
            TableError, UnsupportedOptionError, UnknownEngineError: As ``producer_config``.
        """
        config = self.producer_config(model, video_pruning_rate=video_pruning_rate, engine=engine)
        return json.dumps(config, indent=2, sort_keys=True) + "\n"

    def merge(self, other: WidthTable, *, overwrite: bool = False) -> WidthTable:
        """A new table with the rows of both; no row is ever dropped silently.

        Rows are matched by (model, modality, options, engine release): a
        width with pruning on never conflicts with the same model's width with
        it off, nor a width under one release with one under another. A key in
        both tables with different ``encoder_width`` is a conflict. With
        ``overwrite``, ``other``'s row replaces ours for every shared key
        (conflicting or not); without it, shared keys with equal widths keep
        our row (provenance included) and any conflict is an error.

        Raises:
            TableError: ``other`` is not a table, or without ``overwrite`` the tables conflict; names every
                conflicting (model, modality, options, engine) and both widths.
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
        return WidthTable._of_checked(sorted(merged.values(), key=_key))

    def render_json(self) -> str:
        """The JSON text ``to_json`` writes.

        Raises:
            TableError: The text is past ``MAX_TABLE_BYTES``, more than ecwidth reads back.
        """
        document = {
            "schema_version": SCHEMA_VERSION,
            "columns": list(COLUMNS),
            "rows": [asdict(row) for row in self._rows],
        }
        return _check_size(json.dumps(document, indent=2, allow_nan=False) + "\n", "JSON")

    def render_csv(self) -> str:
        """The CSV text ``to_csv`` writes: a header of ``COLUMNS``, then one line per row.

        Lines end with ``\n``; a cell holding a comma, a quote, ``\r`` or ``\n`` is quoted, and a cell a
        spreadsheet would evaluate gets a leading single quote that reading removes (module docstring).

        Raises:
            TableError: The text is past ``MAX_TABLE_BYTES``, more than ecwidth reads back.
        """
        lines = [",".join(_csv_cell(column) for column in COLUMNS)]
        lines += [",".join(_csv_cell(_format_cell(value)) for value in asdict(row).values()) for row in self._rows]
        return _check_size("".join(line + "\n" for line in lines), "CSV")

    def render_markdown(self) -> str:
        """A pipe table for people; the JSON and CSV files carry the full provenance.

        The options column appears once a row was measured with an option set,
        so a table of engine defaults reads as it did before rows had options.
        The engine column names each row's release (``vLLM 0.33.0``).
        """
        columns = self._columns_for_people()
        numeric = {column for column in columns if _TYPES[column] in (int, float)}
        lines = [
            "# Encoder output widths",
            "",
            f"{len(self)} row(s) over {len(self.models())} model(s){self._engines_phrase()}. encoder_width is the "
            "last dim of the per-item embeddings an EC producer ships; versions, time and config hash are in the "
            ".json/.csv.",
            "",
            "| " + " | ".join(columns) + " |",
            "|" + "|".join("---:" if column in numeric else "---" for column in columns) + "|",
        ]
        lines += ["| " + " | ".join(_markdown_cell(row, column) for column in columns) + " |" for row in self._rows]
        return "\n".join(lines) + "\n"

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Write the table as JSON (schema_version, columns, rows), atomically.

        Raises:
            TableError: The table is past ``MAX_TABLE_BYTES``; nothing is written.
            OSError: ``path`` cannot be written; any old file there is untouched.
        """
        write_text_atomic(path, self.render_json())

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write the table as CSV, atomically; ``from_csv`` reads it back exactly.

        Raises:
            TableError: The table is past ``MAX_TABLE_BYTES``; nothing is written.
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
            TableError: The table is past ``MAX_TABLE_BYTES``; nothing is written.
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
            TableError: The file is unreadable, past ``MAX_TABLE_BYTES``, not JSON (or truncated), not a
                table of a schema this ecwidth reads (``READABLE_SCHEMA_VERSIONS``;
                schema 1 rows read as measured with the engine's defaults, schema 1 and 2
                rows as vLLM 0.32.0's), or holds an invalid or duplicate row;
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
                f"{path}: schema_version is {_show(version)}, but this ecwidth reads schema_version {readable}. "
                "Re-export the table with this ecwidth, or use the ecwidth that wrote it."
            )
        rows = document.get("rows")
        if not isinstance(rows, list):
            raise TableError(f"{path}: 'rows' must be a list of row objects, got {_show(rows)}")
        if version < SCHEMA_VERSION:
            rows = [_upgraded(row, version) for row in rows]
        checked = [_validate_row(row, _where(f"{path} ", index, row)) for index, row in enumerate(rows)]
        return cls._from_file(path, checked)

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str]) -> WidthTable:
        """Read and validate a table ``to_csv`` wrote. Rows are numbered from 0; lines from 1 (the header).

        Raises:
            TableError: The file is unreadable, past ``MAX_TABLE_BYTES`` or malformed, its header is not
                ``COLUMNS`` (or schema 2's ``SCHEMA_2_COLUMNS``, whose rows read as vLLM 0.32.0's, or
                schema 1's ``SCHEMA_1_COLUMNS``, whose rows also read as measured with the engine's
                defaults), or a row is invalid or duplicated; the message
                names the file, and the row and line where there is one.
        """
        path = Path(path)
        reader = csv.reader(io.StringIO(_read_text(path, "CSV"), newline=""), strict=True)
        schemas = {3: COLUMNS, 2: SCHEMA_2_COLUMNS, 1: SCHEMA_1_COLUMNS}
        try:
            with _csv_field_limit(MAX_TABLE_BYTES):  # the file is at most that long, so no cell is longer
                header = next(reader, None)
                if header is None:
                    raise TableError(
                        f"{path}: empty file; a CSV width table starts with the header {','.join(COLUMNS)}"
                    )
                header = [_csv_text(cell) for cell in header]
                counts = Counter(header)
                schema = next(
                    (number for number, columns in schemas.items() if len(header) == len(columns)
                     and counts.keys() == set(columns) and max(counts.values()) == 1),
                    None,
                )  # fmt: skip
                if schema is None:
                    missing = [column for column in COLUMNS if column not in counts]
                    extra = sorted(_show_text(c) for c, n in counts.items() if c not in COLUMNS or n > 1)
                    more = f" and {len(extra) - _SHOWN_COLUMNS} more" if len(extra) > _SHOWN_COLUMNS else ""
                    raise TableError(
                        f"{path} header: missing column(s) {missing}, unknown or repeated column(s) "
                        f"{extra[:_SHOWN_COLUMNS]}{more}. The header must be {','.join(COLUMNS)}."
                    )
                checked = []
                for index, record in enumerate(reader):
                    record = [_csv_text(cell) for cell in record]
                    where = _where(f"{path} ", index, dict(zip(header, record)), line=reader.line_num)
                    if len(record) != len(header):
                        raise TableError(
                            f"{where}: {len(record)} cell(s), the header has {len(header)}; truncated file?"
                        )
                    row = {column: _parse_cell(column, text) for column, text in zip(header, record)}
                    checked.append(_validate_row(_upgraded(row, schema), where))
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
                f"a width table is read from a path (str or os.PathLike), got {type(path).__name__} {_show(path)}"
            )
        path = Path(path)
        readers = {".json": cls.from_json, ".csv": cls.from_csv}
        if path.suffix.lower() not in readers:
            raise TableError(f"{path}: unknown width table format {path.suffix!r}; ecwidth reads .json and .csv tables")
        return readers[path.suffix.lower()](path)

"""One width table row: its columns, the rules its values obey, and the key that identifies it.

Every row that enters a table, from a file or from code, is checked here, so
the rules live in one place and every error names the row it is about.
Tables written before rows recorded their options (schema 1) or their engine
release (schema 1 and 2) are upgraded row by row: schema 1 rows read as
measured with the engine's defaults, schema 1 and 2 rows as
``ecwidth.engines.releases.LEGACY``'s (vLLM 0.32.0).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any, get_type_hints

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import describe_options, recorded_options
from ecwidth.errors import TableError
from ecwidth.records.reconcile import MAX_WIDTH

#: More DeepStack levels than any tower has layers (real towers have a few hundred at most, 3 of them DeepStack).
MAX_DEEPSTACK_LEVELS = 1024


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
#: Each column's Python type, as ``WidthRow`` declares it.
COLUMN_TYPES: dict[str, type] = get_type_hints(WidthRow)
#: Column names an error lists before it says how many more there are.
SHOWN_COLUMNS = 8

_MIN_INT = {"encoder_width": 1, "lm_hidden_size": 1, "predicted_width": 1, "deepstack_levels": 0}
_CHOICES = {"source": ("measured", "predicted"), "dummy": ("minimal", "profile", "none")}
_NON_EMPTY = ("model", "modality")
_SHA256 = re.compile(r"[0-9a-f]{64}")


# -- values in messages ------------------------------------------------------------------


def short_repr(value: object) -> str:
    """A short repr for error messages, safe on hostile values."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past Python's digit limit, a self-nesting value
        if isinstance(value, int):
            return f"<an int of about {int(value.bit_length() * 0.30103) + 1} digits>"
        return f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def clipped(text: str) -> str:
    """``text`` cut to 200 characters for a message."""
    return text if len(text) <= 200 else text[:197] + "..."


def listed(names: list[str]) -> str:
    """``"a, b, c"``, the first ``SHOWN_COLUMNS`` of them and how many more."""
    more = f" and {len(names) - SHOWN_COLUMNS} more" if len(names) > SHOWN_COLUMNS else ""
    return ", ".join(names[:SHOWN_COLUMNS]) + more


def where_row(prefix: str, index: int, row: object, line: int | None = None) -> str:
    """``"<prefix> row <index> (line <n>, model='x', modality='y')"`` for error messages."""
    parts = [f"line {line}"] if line is not None else []
    if isinstance(row, Mapping):
        parts += [f"{key}={short_repr(row[key])}" for key in ("model", "modality") if key in row]
        if isinstance(row.get("options"), Mapping) and row["options"]:
            parts.append(f"options={short_repr(row['options'])}")
    detail = f" ({', '.join(parts)})" if parts else ""
    return f"{prefix}row {index}{detail}"


# -- the rules ---------------------------------------------------------------------------


def _value_problem(column: str, value: Any) -> str | None:
    """What is wrong with ``value`` in ``column``, or None when it is valid."""
    kind = COLUMN_TYPES[column]
    if column == "options":
        return _options_problem(value)
    if kind is int:
        minimum = _MIN_INT[column]
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            return f"{column} must be an int >= {minimum}, got {short_repr(value)}"
    elif kind is float:
        try:
            finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(float(value))
        except OverflowError:  # an int too large for a float
            finite = False
        if not finite:
            return f"{column} must be a finite number, got {short_repr(value)}"
    elif kind is bool:
        if not isinstance(value, bool):
            return f"{column} must be true or false, got {short_repr(value)}"
    elif not isinstance(value, str):
        return f"{column} must be a string, got {short_repr(value)}"
    elif not _encodable(value):
        return f"{column} must be text that UTF-8 can write (no lone surrogates), got {short_repr(value)}"
    elif column in _CHOICES and value not in _CHOICES[column]:
        return f"{column} must be one of {', '.join(_CHOICES[column])}, got {short_repr(value)}"
    elif column in _NON_EMPTY and not value:
        return f"{column} must not be empty"
    elif column == "config_sha256" and not _SHA256.fullmatch(value):
        return f"config_sha256 must be 64 lowercase hex digits, got {short_repr(value)}"
    elif column == "measured_at" and not _is_utc_timestamp(value):
        return f"measured_at must be an ISO-8601 UTC time such as '2026-01-31T12:00:00+00:00', got {short_repr(value)}"
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
            f"got {short_repr(value)}"
        )
    try:
        recorded_options(value)
    except (ValueError, OverflowError) as error:  # OverflowError: an int too large for a float
        return f"options: {clipped(str(error))}"
    return None


def _is_utc_timestamp(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).utcoffset() == timedelta(0)
    except ValueError:
        return False


def _release_problem(row: Mapping[str, Any]) -> str | None:
    """What is wrong with a well-typed row's (engine, engine_version), or None when ecwidth knows the release."""
    known = {(release.engine, release.version) for release in releases.RELEASES}
    if (row["engine"], row["engine_version"]) in known:
        return None
    return (
        f"engine {short_repr(row['engine'])} version {short_repr(row['engine_version'])} is not a release ecwidth "
        f"knows; known: {releases.known()}"
    )


def _contradictions(row: Mapping[str, Any]) -> list[str]:
    """What a row's well-typed values say against each other, against any real encoder, or the known releases."""
    problems = [
        f"{column} {short_repr(row[column])} is past any real width (at most {MAX_WIDTH})"
        for column in ("encoder_width", "lm_hidden_size", "predicted_width")
        if row[column] > MAX_WIDTH
    ]
    if row["deepstack_levels"] > MAX_DEEPSTACK_LEVELS:
        problems.append(
            f"deepstack_levels {short_repr(row['deepstack_levels'])} is past any real tower's layer count "
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


def validate_row(mapping: object, where: str) -> WidthRow:
    """Check one row's keys and values and build the ``WidthRow``.

    Raises:
        TableError: ``mapping`` is not a mapping, lacks or adds columns (named),
            or holds a value of the wrong type or range (every bad column named).
            The message starts with ``where``.
    """
    if not isinstance(mapping, Mapping):
        raise TableError(
            f"{where}: a row must be an object of column name to value, got {type(mapping).__name__} "
            f"{short_repr(mapping)}"
        )
    missing = [column for column in COLUMNS if column not in mapping]
    extra = sorted(
        short_repr(key) if not isinstance(key, str) else clipped(key) for key in mapping if key not in COLUMNS
    )
    if missing or extra:
        found = [f"missing column(s) {listed(missing)}"] if missing else []
        found += [f"unknown column(s) {listed(extra)}"] if extra else []
        raise TableError(f"{where}: {'; '.join(found)}. A row has exactly the columns {', '.join(COLUMNS)}.")
    problems = [problem for column in COLUMNS if (problem := _value_problem(column, mapping[column]))]
    problems = problems or _contradictions(mapping)
    if problems:
        raise TableError(f"{where}: {'; '.join(problems)}")
    values = {column: mapping[column] for column in COLUMNS}
    values["width_ratio"] = float(values["width_ratio"])
    values["options"] = recorded_options(values["options"])
    return WidthRow(**values)


def upgraded_row(row: object, schema: int) -> object:
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


# -- keys and releases -------------------------------------------------------------------


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Options as a sortable, comparable part of a row's key."""
    return tuple(sorted(options.items()))


def row_key(row: WidthRow) -> tuple[str, str, tuple[int, ...], str, tuple[tuple[str, Any], ...]]:
    """What identifies a row, in the order rows are sorted: (model, engine, engine_version, modality, options)."""
    return row.model, row.engine, releases.version_tuple(row.engine_version), row.modality, _options_key(row.options)


def describe_key(row: WidthRow) -> str:
    """A row's key as messages name it."""
    return (
        f"model={row.model!r}, modality={row.modality!r}, options={describe_options(row.options)}, "
        f"engine={row.engine}=={row.engine_version}"
    )


def release_of(row: WidthRow) -> Release:
    """The engine release a valid row answers for."""
    return next(r for r in releases.RELEASES if (r.engine, r.version) == (row.engine, row.engine_version))


def releases_held(rows: Iterable[WidthRow]) -> list[Release]:
    """The engine releases ``rows`` answer for, each once, by engine and then version."""
    return sorted({release_of(row) for row in rows}, key=lambda r: (r.engine, releases.version_tuple(r.version)))

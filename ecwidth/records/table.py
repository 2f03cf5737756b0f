"""Width tables: measured (or predicted) encoder output widths with provenance.

A table is the survey's committed result and the source every export is
made from, so it is strict both ways: every row is validated on the way in
(the error names the file and the row), files round-trip exactly, and every
write is atomic and fully rendered first, so a failed export never leaves a
half-written table behind.

Every row names the engine release it answers for (``engine``,
``engine_version``: ``vllm`` ``0.33.0``), and the release is part of the
row's key, so one table holds a model under several releases side by side.

``WidthTable`` is the face: look-ups, filters and merging live here; what a
row is and the rules it obeys are in ``ecwidth.records.rows``, and the text
of each file format, both ways, in ``ecwidth.records.formats``. The names
scripts import from here (``WidthRow``, ``COLUMNS``, ``SCHEMA_VERSION`` ...)
are those modules'.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import describe_options, recorded_options
from ecwidth.errors import TableError
from ecwidth.records import formats
from ecwidth.records.atomic import write_text_atomic, write_texts_atomic
from ecwidth.records.formats import MAX_TABLE_BYTES, READABLE_SCHEMA_VERSIONS, SCHEMA_VERSION
from ecwidth.records.reconcile import get_width
from ecwidth.records.rows import (
    COLUMNS,
    SCHEMA_1_COLUMNS,
    SCHEMA_2_COLUMNS,
    WidthRow,
    describe_key,
    release_of,
    releases_held,
    row_key,
    short_repr,
    validate_row,
    where_row,
)

if TYPE_CHECKING:
    import pandas as pd  # imported where a frame is made: lookups and exports stay quick

__all__ = [
    "ALL_ENGINES",
    "COLUMNS",
    "MAX_TABLE_BYTES",
    "READABLE_SCHEMA_VERSIONS",
    "SCHEMA_1_COLUMNS",
    "SCHEMA_2_COLUMNS",
    "SCHEMA_VERSION",
    "WidthRow",
    "WidthTable",
    "one_release",
]

#: What ``for_model``'s and ``with_options``' ``engine=`` take for the rows of every engine release.
ALL_ENGINES = "all"

#: ``engine=`` parsed once, at a public method: a release, every release (``ALL_ENGINES``), or None: none named.
Wanted = Release | Literal["all"] | None


def _wanted(engine: str | Release | None) -> Wanted:
    """``engine=`` as the look-ups take it (see ``WidthTable``), parsed: the methods below it take the result.

    Raises:
        UnknownEngineError: ``engine`` names no release ecwidth knows; names the known ones.
    """
    if isinstance(engine, str) and engine.strip().lower() == ALL_ENGINES:
        return ALL_ENGINES
    return None if engine is None else releases.release(engine)


def one_release(engine: str | Release | None) -> str | Release | None:
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
                f"a width table is made of an iterable of WidthRow, got {type(rows).__name__} {short_repr(rows)}"
            )
        checked = []
        for index, row in enumerate(rows):
            if not isinstance(row, WidthRow):
                raise TableError(f"row {index}: expected a WidthRow, got {type(row).__name__} {short_repr(row)}")
            values = asdict(row)
            checked.append(validate_row(values, where_row("", index, values)))
        seen: dict[tuple, list[int]] = {}
        for index, row in enumerate(checked):
            seen.setdefault(row_key(row), []).append(index)
        duplicates = [f"{describe_key(checked[at[0]])} at rows {at}" for at in seen.values() if len(at) > 1]
        if duplicates:
            raise TableError(
                f"duplicate rows for the same (model, modality, options, engine): {'; '.join(duplicates)}. "
                "Keep one row per key (WidthTable.merge resolves two tables)."
            )
        self._rows = tuple(sorted(checked, key=row_key))

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
        return formats.render_html(self._rows)

    def models(self) -> list[str]:
        """The model names in the table, sorted, each once (under any engine release)."""
        return sorted({row.model for row in self._rows})

    def _releases(self) -> list[Release]:
        return releases_held(self._rows)

    def engines(self) -> list[str]:
        """The engine releases the rows answer for, as ``releases.Release.key`` spells them (``"vllm==0.33.0"``)."""
        return [release.key for release in self._releases()]

    def _pick_release(self, wanted: Wanted, scope: str) -> Release | None:
        """The release ``wanted`` means for these rows (see the class docstring); None for ``ALL_ENGINES``.

        Raises:
            TableError: None of the rows answer for that release, or ``wanted`` is None and the rows hold
                several releases, the default not among them; lists the releases the rows hold.
        """
        if wanted == ALL_ENGINES:
            return None
        held = self._releases()
        listed = ", ".join(release.key for release in held) or "none (no rows)"
        if wanted is None:
            if len(held) <= 1:
                return held[0] if held else releases.DEFAULT
            if releases.DEFAULT in held:
                return releases.DEFAULT
            raise TableError(
                f"{scope} holds rows for {len(held)} engine releases ({listed}), none of them the default "
                f"({releases.DEFAULT.key}); name one with engine= (--engine)"
            )
        if wanted not in held:
            raise TableError(
                f"{scope} has no rows for {wanted.key}; its rows are for: {listed}. "
                f"Pick one of those (--engine), or measure under {wanted.key}."
            )
        return wanted

    def _scope(self) -> str:
        models = self.models()
        return f"model {short_repr(models[0])}" if len(models) == 1 else "the width table"

    def with_engine(self, engine: str | Release | None = None) -> WidthTable:
        """The rows that answer for one engine release (``engine`` as in the class docstring).

        Raises:
            UnknownEngineError: ``engine`` names no release ecwidth knows.
            TableError: No row answers for that release, or ``engine`` is None and the table holds several
                releases, the default not among them; lists the releases it holds.
        """
        return self._with_engine(_wanted(engine))

    def _with_engine(self, wanted: Wanted) -> WidthTable:
        chosen = self._pick_release(wanted, self._scope())
        if chosen is None:
            return self
        return WidthTable._of_checked(row for row in self._rows if release_of(row) == chosen)

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
            raise TableError(
                f"model {short_repr(model)} is not in the width table; models in the table: {self.models()}"
            )
        table = WidthTable._of_checked(rows)._with_engine(_wanted(engine))
        if video_pruning_rate is None:
            return table
        return table._with_options(recorded_options({"video_pruning_rate": video_pruning_rate}), ALL_ENGINES)

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
        return self._with_options(options, _wanted(engine))

    def _with_options(self, options: dict[str, Any], wanted: Wanted) -> WidthTable:
        table = self._with_engine(wanted)
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
        rows = self.for_model(model, video_pruning_rate=video_pruning_rate, engine=one_release(engine))
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
            raise TableError(f"merge takes another WidthTable, got {type(other).__name__} {short_repr(other)}")
        merged = {row_key(row): row for row in self._rows}
        conflicts = [
            f"{describe_key(row)}: {merged[key].encoder_width} here, {row.encoder_width} in the other table"
            for row in other
            if (key := row_key(row)) in merged and merged[key].encoder_width != row.encoder_width
        ]
        if conflicts and not overwrite:
            raise TableError(
                f"width tables conflict on {len(conflicts)} row(s): {'; '.join(conflicts)}. "
                "Re-measure to find out which is right, or merge with overwrite=True to take the other table's rows."
            )
        for row in other:
            key = row_key(row)
            if overwrite or key not in merged:
                merged[key] = row
        return WidthTable._of_checked(sorted(merged.values(), key=row_key))

    def render_json(self) -> str:
        """The JSON text ``to_json`` writes: ``schema_version``, ``columns`` and one object per row.

        Raises:
            TableError: The text is past ``MAX_TABLE_BYTES``, more than ecwidth reads back.
        """
        return formats.render_json(self._rows)

    def render_csv(self) -> str:
        """The CSV text ``to_csv`` writes: a header of ``COLUMNS``, then one line per row.

        Lines end with ``\n``; a cell holding a comma, a quote, ``\r`` or ``\n`` is quoted, and a cell a
        spreadsheet would evaluate gets a leading single quote that reading removes (``ecwidth.records.formats``).

        Raises:
            TableError: The text is past ``MAX_TABLE_BYTES``, more than ecwidth reads back.
        """
        return formats.render_csv(self._rows)

    def render_markdown(self) -> str:
        """A pipe table for people; the JSON and CSV files carry the full provenance.

        The options column appears once a row was measured with an option set,
        so a table of engine defaults reads as it did before rows had options.
        The engine column names each row's release (``vLLM 0.33.0``).
        """
        return formats.render_markdown(self._rows)

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
        """Write ``<stem>.json``, ``<stem>.csv`` and ``<stem>.md`` into ``directory``, as one set.

        All three are rendered and every target checked before any file is
        touched; the .json, the record, is replaced last, so a reader never
        finds a new .json beside old .csv and .md (``write_texts_atomic``).
        Returns the paths: .json, .csv, .md.

        Raises:
            TableError: The table is past ``MAX_TABLE_BYTES``; nothing is written.
            UnwritableError: A file cannot be written (a folder in its place, a read-only folder or file, a
                full disk); nothing is replaced, and the message says which file and why.
        """
        json_path, csv_path, md_path = (Path(directory) / f"{stem}{suffix}" for suffix in (".json", ".csv", ".md"))
        json_text, csv_text, md_text = self.render_json(), self.render_csv(), self.render_markdown()
        write_texts_atomic({csv_path: csv_text, md_path: md_text, json_path: json_text})  # the record last
        return [json_path, csv_path, md_path]

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
        return cls._from_file(path, formats.rows_from_json(path))

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
        return cls._from_file(path, formats.rows_from_csv(path))

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
                f"a width table is read from a path (str or os.PathLike), got {type(path).__name__} {short_repr(path)}"
            )
        path = Path(path)
        readers = {".json": cls.from_json, ".csv": cls.from_csv}
        if path.suffix.lower() not in readers:
            raise TableError(f"{path}: unknown width table format {path.suffix!r}; ecwidth reads .json and .csv tables")
        return readers[path.suffix.lower()](path)

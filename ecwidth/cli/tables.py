"""The commands that answer from a width table: ``lookup`` one width, ``export`` a producer config, a buffer
plan, CSV or Markdown.

A script runs ``ecwidth lookup`` in a loop and a producer reads an export at
startup, so these import neither torch nor transformers (``tests/test_imports.py``
checks it); only ``--format buffer-plan``, which reads the model's config for
its token rules, imports them, inside the command. ``--engine`` arrives parsed
(``ecwidth.cli.options``): a ``Release``, or None where none was named and the
table's rows decide.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError
from ecwidth.records.atomic import write_text_atomic
from ecwidth.records.table import ALL_ENGINES, WidthTable
from ecwidth.serving.producer_config import producer_widths, render_producer_config


def _table_model(table: WidthTable, model: str) -> str:
    """The table's name for ``model``: itself, or where the table lacks it, the catalog name or hub id of the same entry."""
    if model in table.models():
        return model  # the catalog is read only for a name the table lacks
    from ecwidth.reading.sources import catalog_entry_for

    entry = catalog_entry_for(model)
    if entry is None:
        return model
    return next((name for name in (entry.name, entry.hf_id) if name in table.models()), model)


def cmd_lookup(args: argparse.Namespace) -> int:
    """Print one modality's width: a bare int for scripts, or with ``--json`` one object that says what it is."""
    table = WidthTable.read(args.table)
    model, modality = _table_model(table, args.model), args.modality.lower()
    width = table.width(model, modality, video_pruning_rate=args.video_pruning_rate, engine=args.engine)
    if args.json:
        options = RuntimeOptions(video_pruning_rate=args.video_pruning_rate).set_options()
        engine = table.for_model(model, video_pruning_rate=args.video_pruning_rate, engine=args.engine).rows[0]
        shown = {"model": model, "modality": modality, "width": width}
        shown["engine"] = {"name": engine.engine, "version": engine.engine_version}
        print(json.dumps({**shown, **({"options": options} if options else {})}))
    else:
        print(width)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Print or write a producer config, or the table (or one model's rows) as CSV or Markdown.

    Raises:
        EcwidthError: ``producer-json`` without ``--model``, or a table error.
        OSError: ``--output`` cannot be written.
    """
    if args.output is not None and os.path.realpath(args.output) == os.path.realpath(args.table):
        raise EcwidthError(
            f"--output {args.output} is the input table itself; exporting over it would replace the record. "
            "Write to another path."
        )
    if args.serving_dtype is not None and args.format != "buffer-plan":
        raise EcwidthError(f"--serving-dtype prices a buffer plan; --format {args.format} has no bytes to price")
    table = WidthTable.read(args.table)
    model = None if args.model is None else _table_model(table, args.model)
    if args.format in ("producer-json", "buffer-plan"):
        if model is None:
            raise EcwidthError(f"--format {args.format} needs --model: it is sized for one model")
        rate = 0.0 if args.video_pruning_rate is None else args.video_pruning_rate
        if args.format == "producer-json":
            text = render_producer_config(table, model, video_pruning_rate=rate, engine=args.engine)
        else:
            text = _render_buffer_plan(table, model, rate, args.serving_dtype or "bfloat16", args.engine)
    else:
        selected = _export_rows(table, model, args.video_pruning_rate, args.engine)
        text = selected.render_csv() if args.format == "csv" else selected.render_markdown()
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_text_atomic(args.output, text)
    return 0


def _render_buffer_plan(
    table: WidthTable, model: str, video_pruning_rate: float, serving_dtype: str, engine: Release | None
) -> str:
    """The buffer plan file of one model: its measured widths priced by its family's token rules.

    The token rules read the model's config, so this format, unlike the
    others, imports transformers (and, through the families, torch).

    Raises:
        TableError: As ``producer_config``: a predicted width is never sized from.
        ConfigError: ``model`` does not resolve to a config (``resolve_spec``).
    """
    from ecwidth.errors import ConfigError
    from ecwidth.reading.configs import resolve_spec
    from ecwidth.serving.sizing import size_transfers

    widths, release = producer_widths(table, model, video_pruning_rate=video_pruning_rate, engine=engine)
    try:
        spec = resolve_spec(model)
    except ConfigError as error:
        message = f"--format buffer-plan reads the config of {model!r} for its token rules: {error}"
        raise ConfigError(message) from error
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate).set_options()
    sizing = size_transfers(spec, widths, serving_dtype=serving_dtype, name=model, options=options, engine=release)
    return json.dumps(sizing.buffer_plan(), indent=2) + "\n"


def _export_rows(
    table: WidthTable, model: str | None, video_pruning_rate: float | None, engine: Release | None
) -> WidthTable:
    """The rows ``export --format csv|md`` writes: one model's or all, every setting and engine unless one is named.

    Raises:
        TableError: The model, or the model at that setting or engine, has no rows.
    """
    chosen = ALL_ENGINES if engine is None else engine
    if model is not None:
        return table.for_model(model, video_pruning_rate=video_pruning_rate, engine=chosen)
    if engine is not None:
        table = table.with_engine(engine)
    return (
        table
        if video_pruning_rate is None
        else table.with_options(video_pruning_rate=video_pruning_rate, engine=chosen)
    )

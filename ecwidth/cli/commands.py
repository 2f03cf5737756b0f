"""The ``ecwidth`` command.

One ``_cmd_<name>`` function per subcommand, registered in ``build_parser``.
Bad input (a malformed table, an unknown model, an unwritable output path) is
an ``ecwidth: error:`` line and exit status 2, never a traceback.

The table commands (``lookup``, ``export``, ``models``) import neither torch
nor transformers; the commands that build or read a model import them inside
their ``_cmd_<name>``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ecwidth.cli.notices import quiet_transformers, warnings_on_stderr
from ecwidth.cli.options import (
    OneLineErrorParser,
    add_device_options,
    add_engine_option,
    add_json_option,
    add_model_source,
    add_progress_option,
    add_runtime_options,
    add_timeout_option,
    model_spec,
)
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError, one_line
from ecwidth.measuring.deadline import Terminated, ending_signals_raise
from ecwidth.records.atomic import WriteInterrupted, write_text_atomic
from ecwidth.records.table import ALL_ENGINES, WidthTable
from ecwidth.records.units import DEFAULT_BUFFER_BYTES, SERVING_DTYPES, parse_bytes
from ecwidth.serving.producer_config import producer_config, render_producer_config

EXPORT_FORMATS = ("producer-json", "buffer-plan", "csv", "md")
#: Who reads each export format, and how (checked against vLLM 0.32's source): ``export --help`` prints it.
EXPORT_READERS = """formats, and who reads them:
  producer-json  {"mm_encoder_output_widths": {modality: width}}, the mapping vLLM 0.32 records on its
                 ECTransferConfig after measuring at EC producer startup. vLLM reads no such file: the
                 field is init=False, filled by the engine, and --ec-transfer-config rejects it. Use it to
                 check a deployment against what the engine will measure, or for stacks that size from config.
  buffer-plan    per modality: width, serving dtype, bytes per token, max tokens and bytes per item. For a
                 connector that pre-registers memory, and for choosing vLLM's ec_buffer_size (the pool the
                 Mooncake connector registers) or ec_connector_extra_config.ec_cpu_bytes (the CPU
                 connector's region) so they hold the largest item; no vLLM connector reads the file.
                 Reads the model's config for its token rules, so --model must resolve as `ecwidth size
                 MODEL` takes it; imports transformers and torch, unlike the other formats.
  csv, md        the table for people (csv also for spreadsheets and scripts); ecwidth reads csv back."""
#: Seconds ``ecwidth measure`` may build and encode: ample for any published model on a CPU.
MEASURE_TIMEOUT_S = 900.0


def _table_model(table: WidthTable, model: str) -> str:
    """The table's name for ``model``: itself, or where the table lacks it, the catalog name or hub id of the same entry."""
    if model in table.models():
        return model  # the catalog is read only for a name the table lacks
    from ecwidth.reading.sources import catalog_entry_for

    entry = catalog_entry_for(model)
    if entry is None:
        return model
    return next((name for name in (entry.name, entry.hf_id) if name in table.models()), model)


def _cmd_lookup(args: argparse.Namespace) -> int:
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


def _cmd_export(args: argparse.Namespace) -> int:
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
    table: WidthTable, model: str, video_pruning_rate: float, serving_dtype: str, engine: Any
) -> str:
    """The buffer plan file of one model: its measured widths priced by its family's token rules.

    The token rules read the model's config, so this format, unlike the
    others, imports transformers (and, through the families, torch).

    Raises:
        TableError: As ``producer_config``: a predicted width is never sized from.
        ConfigError: ``model`` does not resolve to a config (``resolve_spec``).
    """
    from ecwidth.engines.runtime import RuntimeOptions
    from ecwidth.errors import ConfigError
    from ecwidth.reading.configs import resolve_spec
    from ecwidth.serving.sizing import size_transfers

    producer = producer_config(table, model, video_pruning_rate=video_pruning_rate, engine=engine)
    widths = producer["mm_encoder_output_widths"]
    release = f"{producer['engine']['name']}=={producer['engine']['version']}"
    try:
        spec = resolve_spec(model)
    except ConfigError as error:
        message = f"--format buffer-plan reads the config of {model!r} for its token rules: {error}"
        raise ConfigError(message) from error
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate).set_options()
    sizing = size_transfers(spec, widths, serving_dtype=serving_dtype, name=model, options=options, engine=release)
    return json.dumps(sizing.buffer_plan(), indent=2) + "\n"


def _export_rows(table: WidthTable, model: str | None, video_pruning_rate: float | None, engine: Any) -> WidthTable:
    """The rows ``export --format csv|md`` writes: one model's or all, every setting and engine unless one is named.

    Raises:
        TableError: The model, or the model at that setting or engine, has no rows.
    """
    releases = ALL_ENGINES if engine is None else engine
    if model is not None:
        return table.for_model(model, video_pruning_rate=video_pruning_rate, engine=releases)
    if engine is not None:
        table = table.with_engine(engine)
    return (
        table
        if video_pruning_rate is None
        else table.with_options(video_pruning_rate=video_pruning_rate, engine=releases)
    )


def _cmd_measure(args: argparse.Namespace) -> int:
    """Build one model's encoder from its config and print the measured widths.

    Raises:
        EcwidthError: The config cannot be used, the model has no multimodal encoder,
            or encoding failed.
    """
    from ecwidth.measuring.measure import measure

    with warnings_on_stderr():
        result = measure(
            model_spec(args),
            args.modality,
            device=args.device,
            dtype=args.dtype,
            dummy=args.dummy,
            video_pruning_rate=args.video_pruning_rate,
            engine=args.engine,
            timeout=args.timeout,
            max_memory=_max_memory(args),
            progress=not args.no_progress,
        )
    if not result.widths:
        raise EcwidthError(
            f"{result.model} ({result.model_type}) has no multimodal encoder: its widths are {{}}. "
            "Measure a vision or audio model instead."
        )
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    print(
        f"{result.model} ({result.model_type}) under {result.engine}, LM hidden size {result.lm_hidden_size}, "
        f"{result.dummy} item on {result.device} in {result.dtype}"
    )
    for modality, width in result.widths.items():
        ratio = width / result.lm_hidden_size
        flag = "" if result.predicted.get(modality) == width else "  MISMATCH"
        sized = (
            f", {result.engine} allocates {result.engine_sizes[modality]}" if modality in result.engine_sizes else ""
        )
        print(
            f"  {modality:<6} {width:>6}  ({ratio:g}x hidden, predicted {result.predicted.get(modality)}{sized}){flag}"
        )
    for modality, why in result.predicted_only.items():
        print(f"  {modality:<6} not measured: {why}; `ecwidth predict` gives its width")
    for modality, why in result.unserved.items():
        print(f"  {modality:<6} not served with these options: {why}")
    return 0


def _cmd_size(args: argparse.Namespace) -> int:
    """Measure one model's widths on a minimal item and size its transfers: tokens, bytes, items per buffer.

    Raises:
        EcwidthError: The config cannot be used, the model has no multimodal encoder,
            encoding failed, or an item is of a modality the model lacks.
    """
    from ecwidth.measuring.measure import measure
    from ecwidth.serving.sizing import parse_item, size_transfers

    buffer_bytes = parse_bytes(args.buffer)  # before the measurement: a typo costs nothing
    items = None if args.item is None else [parse_item(text) for text in args.item]
    spec = model_spec(args)
    with warnings_on_stderr():
        result = measure(
            spec, device=args.device, dtype=args.dtype, video_pruning_rate=args.video_pruning_rate,
            engine=args.engine, timeout=args.timeout, max_memory=_max_memory(args),
        )  # fmt: skip
    if not result.widths:
        raise EcwidthError(
            f"{result.model} ({result.model_type}) has no multimodal encoder: it ships no embeddings to size. "
            "Size a vision or audio model instead."
        )
    sizing = size_transfers(
        spec, result.widths, serving_dtype=args.serving_dtype, buffer_bytes=buffer_bytes, items=items,
        options=result.options, engine=result.engine,
    )  # fmt: skip
    measured = {"dummy": result.dummy, "device": result.device, "dtype": result.dtype}
    if args.json:
        sizes = {"engine_sizes": result.engine_sizes} if result.engine_sizes else {}
        print(json.dumps({**sizing.as_json(), **sizes, "measured": measured}))
        return 0
    print(f"widths measured on a {result.dummy} item on {result.device} in {result.dtype}")
    sys.stdout.write(sizing.render_text())
    return 0


def _cmd_predict(args: argparse.Namespace) -> int:
    """Print the widths the config predicts, without building anything.

    Raises:
        EcwidthError: The config cannot be used.
    """
    from ecwidth.engines.releases import release
    from ecwidth.engines.runtime import RuntimeOptions
    from ecwidth.engines.sizers import engine_sizes, undersized
    from ecwidth.families.adapter import find_adapter
    from ecwidth.measuring.predict import predict_widths

    spec = model_spec(args)
    adapter = find_adapter(spec.model_type)
    if adapter is None:
        raise EcwidthError(f"{spec.name} ({spec.model_type}) has no multimodal encoder: nothing to predict")
    chosen = release(args.engine)
    predicted = predict_widths(spec, video_pruning_rate=args.video_pruning_rate, engine=chosen)
    data = {
        "model": spec.name,
        "model_type": spec.model_type,
        "lm_hidden_size": adapter.lm_hidden_size(spec.config),
        "predicted": predicted,
        "engine": {"name": chosen.engine, "version": chosen.version},
    }
    sizes = engine_sizes(chosen, spec.config, list(predicted))
    if sizes:
        data["engine_sizes"] = sizes
    unserved = adapter.in_engine_keys(
        adapter.unserved(spec.config, RuntimeOptions(video_pruning_rate=args.video_pruning_rate), chosen), chosen
    )
    if unserved:
        data["unserved"] = unserved
    options = RuntimeOptions(video_pruning_rate=args.video_pruning_rate).set_options()
    if options:
        data["options"] = options
    for key, size in sizes.items():
        if size != predicted[key]:
            print(f"ecwidth: warning: {undersized(spec.name, chosen, key, size, predicted[key])}", file=sys.stderr)
    print(
        json.dumps(data)
        if args.json
        else "\n".join(
            [f"{spec.name} ({spec.model_type}) under {chosen}, LM hidden size {data['lm_hidden_size']}"]
            + [f"  {modality:<6} {width:>6}" for modality, width in data["predicted"].items()]
            + [f"  {modality:<6} not served with these options: {why}" for modality, why in unserved.items()]
        )
    )
    return 0


def _cmd_families(args: argparse.Namespace) -> int:
    """List every registered model type with its family's record for one engine release: whether and how it is
    served, what it ships, under which keys, with which options, and the width rule."""
    from ecwidth.engines.releases import release
    from ecwidth.families.adapter import supported_model_types
    from ecwidth.families.answers import family_record

    chosen = release(args.engine)
    rows = [family_record(model_type, chosen) for model_type in supported_model_types()]
    if args.json:
        print(json.dumps(rows))
        return 0
    width = max(len(row["model_type"]) for row in rows)
    print(f"{'MODEL TYPE':<{width}}  {chosen}: PATH, ENGINE CLASS AND WHAT IT SHIPS")
    for row in rows:
        notes = [f"options: {', '.join(row['options'])}"] if row["options"] else []
        notes += [f"{ours} as {key}" for ours, key in row["keys"].items()]
        notes += [f"{m} unserved" for m in row["unserved"]]
        notes += [f"{m} predicted only" for m in row["predicted_only"]] + (
            ["no transformers config class"] if row["engine_only"] else []
        )
        what = (
            f"{row['path']} {' / '.join(row['classes'])}: {row['ships']}"
            if row["serves"]
            else f"not served: {row['why_not']}"
        )
        print(f"{row['model_type']:<{width}}  {what}" + (f"  [{'; '.join(notes)}]" if notes else ""))
    return 0


def _cmd_engines(args: argparse.Namespace) -> int:
    """List the engine releases ecwidth answers for, the transformers pin each declares, and the default; with
    ``--architectures``, every architecture each release's registry holds and what ecwidth answers for it."""
    from ecwidth.engines.releases import DEFAULT, RELEASES

    if args.architectures:
        return _architectures(RELEASES if args.engine is None else (args.engine,), as_json=args.json)

    rows = [
        {
            "name": r.engine, "version": r.version, "key": r.key, "transformers": r.transformers,
            "measures": r.measures, "default": r == DEFAULT,
        }
        for r in RELEASES
    ]  # fmt: skip
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'ENGINE':<16}  {'TRANSFORMERS':<18}  WIDTHS")
    for row, r in zip(rows, RELEASES):
        how = "measured at startup" if r.measures else "sized from the config (no measurement)"
        print(f"{r.key:<16}  {r.transformers:<18}  {how}" + ("  (default)" if row["default"] else ""))
    return 0


def _architectures(chosen: Sequence[Release], *, as_json: bool) -> int:
    """``ecwidth engines --architectures``: one row per (release, architecture), served with its rule or why not."""
    from ecwidth.families.answers import architecture_records

    rows = [row for release in chosen for row in architecture_records(release)]
    if as_json:
        print(json.dumps(rows))
        return 0
    width = max(len(row["architecture"]) for row in rows)
    for release in chosen:
        mine = [row for row in rows if row["engine"] == release.key]
        print(f"{release}: {sum(r['served'] for r in mine)} of {len(mine)} architectures served")
        for row in mine:
            rule = ", ".join(f"{m}: {r}" for m, r in row["width_rule"].items())
            what = (
                f"{'/'.join(row['modalities'])} {rule}" if row["served"] else f"not served: {one_line(row['why_not'])}"
            )
            print(f"  {row['architecture']:<{width}}  {row['model_type']:<24}  {what}")
    return 0


def _cmd_models(args: argparse.Namespace) -> int:
    """List the catalog of published architectures: what each takes and where its config comes from."""
    if args.families:
        return _cmd_families(args)
    from ecwidth.reading.catalog import catalog_entry, catalog_names

    entries = [catalog_entry(name) for name in catalog_names()]
    if args.json:
        print(json.dumps([
            {"name": e.name, "model_type": e.config["model_type"], "hf_id": e.hf_id, "published": e.published,
             "modalities": list(e.modalities), "source": e.source}
            for e in entries
        ]))  # fmt: skip
        return 0
    width = max(len(e.name) for e in entries)
    print(f"{'NAME':<{width}}  {'PUBLISHED':<10}  {'MODEL TYPE':<16}  {'MODALITIES':<18}  HUB ID")
    for entry in entries:
        modalities, published = ",".join(entry.modalities), entry.published or "unknown"
        print(
            f"{entry.name:<{width}}  {published:<10}  {entry.config['model_type']:<16}  {modalities:<18}  {entry.hf_id}"
        )
        print(f"{'':<{width}}  source: {entry.source}")
    return 0


def _cmd_survey(args: argparse.Namespace) -> int:
    """Measure the catalog (or the given models) and write the width table to a folder.

    Returns 1 when any model failed; the others are still written. When every model failed, nothing is
    written, so a folder's earlier table stays.
    """
    from ecwidth.measuring.survey import survey

    output = Path(args.output)
    if output.suffix.lower() in (".json", ".csv", ".md") or output.is_file():
        raise EcwidthError(
            f"-o {args.output} names a file; survey writes a folder of encoder_widths.json, .csv and .md. "
            f"Pass a folder, e.g. -o {output.with_suffix('')}"
        )
    earlier = _earlier_table(output) if args.merge else None
    with warnings_on_stderr():
        result = survey(
            args.models, device=args.device, dtype=args.dtype, dummy=args.dummy,
            video_pruning_rate=args.video_pruning_rate, engine=args.engine, progress=not args.no_progress,
            timeout=args.timeout, jobs=args.jobs, max_memory=_max_memory(args),
        )  # fmt: skip
    if result.failures and not len(result.table):  # an empty table must not replace what the folder holds
        for name, error in result.failures.items():
            print(f"ecwidth: error: {name}: {one_line(error)}", file=sys.stderr)
        print(f"ecwidth: no model was measured; nothing written to {args.output}", file=sys.stderr)
        return 1
    table = result.table if earlier is None else earlier.merge(result.table, overwrite=True)
    written = table.write(args.output)
    print(table.render_json() if args.json else table.render_markdown(), end="")
    total = sum(cost["total_s"] for cost in result.cost_records)
    peak = max((cost["peak_rss_bytes"] for cost in result.cost_records), default=0) / 2**30
    workers = f" across {result.jobs} worker processes" if result.jobs > 1 else ""
    status = [
        f"{len(result.cost_records)} model(s) in {total:.1f} s of measuring{workers}, peak RSS {peak:.2f} GiB"
        + (" per worker" if workers else ""),
        "wrote " + ", ".join(str(path) for path in written),
    ]
    if result.skipped:
        status.append(f"left out {len(result.skipped)} catalog model(s) whose engine class takes no option set "
                      "here: " + ", ".join(result.skipped))  # fmt: skip
    status += [f"no row for {what}: {why}" for what, why in result.unserved.items()]
    status += [f"left out {name}: {why}" for name, why in result.not_served.items()]
    if earlier is not None:
        status.append(f"merged into the {len(earlier)} row(s) the folder held; rows with the same key replaced")
    for line in status:
        print(f"ecwidth: {line}", file=sys.stderr)
    for name, error in result.failures.items():
        print(f"ecwidth: error: {name}: {one_line(error)}", file=sys.stderr)
    return 1 if result.failures else 0


def _earlier_table(folder: Path) -> WidthTable | None:
    """The table a folder already holds, for ``survey --merge``; None where it holds none.

    Raises:
        TableError: The folder's table cannot be read: merging into it would lose it.
    """
    path = folder / "encoder_widths.json"
    return WidthTable.read(path) if path.exists() else None


#: The most worker processes ``--jobs`` takes: far past any machine's cores (the workers started are at most
#: one per model, and ``survey`` reports those).
MAX_JOBS = 65536


def _jobs(text: str) -> int | str:
    """``--jobs``: ``auto`` or a positive integer up to ``MAX_JOBS``."""
    if text == "auto":
        return text
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(MAX_JOBS))
    if digits and 0 < int(text) <= MAX_JOBS:
        return int(text)
    shown = text if len(text) <= 40 else f"{text[:12]}... ({len(text)} characters)"
    raise argparse.ArgumentTypeError(f"expected a positive integer (at most {MAX_JOBS}) or 'auto', got {shown!r}")


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    add_device_options(parser)
    parser.add_argument(
        "--dummy",
        default="minimal",
        choices=("minimal", "profile"),
        help="minimal: the smallest valid item; profile: the largest the processor allows",
    )


def _add_max_memory_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-memory", metavar="SIZE",
        help="let the encoder's weights, and each item's activations, take up to SIZE (e.g. 200GiB) instead of "
        "the free GPU memory, or the RAM on a CPU; past it, ecwidth refuses before giving either any storage",
    )  # fmt: skip


def _max_memory(args: argparse.Namespace) -> int | None:
    return None if args.max_memory is None else parse_bytes(args.max_memory)


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked: reading the installed version costs a table look-up its time."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from ecwidth import __version__

        print(f"{parser.prog} {__version__}")
        parser.exit()


#: The top-level help's walk through the commands, in the order a user reaches for them.
WORKFLOW = """\
commands, in the order you reach for them, with an example each:
  models    what the catalog holds
            ecwidth models
  engines   the engine releases ecwidth answers for (--engine on every command below)
            ecwidth engines
  predict   widths from the config alone
            ecwidth predict --model Qwen/Qwen3-VL-8B-Instruct
  measure   build the encoder and measure
            ecwidth measure --model qwen3-vl-8b-instruct --json
  size      bytes per item, items per buffer
            ecwidth size qwen3-vl-8b-instruct --buffer 1GiB
  survey    a width table for many models
            ecwidth survey --models qwen3-vl-8b-instruct ./my-finetune -o build/survey
  lookup    one width from a table
            ecwidth lookup tables/encoder_widths.json qwen3-vl-8b-instruct image
  export    a producer config, a buffer plan, CSV or Markdown
            ecwidth export tables/encoder_widths.json --model qwen3-vl-8b-instruct --format producer-json

`ecwidth COMMAND --help` says more. Data goes to stdout; status and progress to stderr.
"""


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps descriptions as written and shows each option's default where its help does not already."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        shown = action.default not in (None, False, argparse.SUPPRESS) and not action.option_strings == []
        if shown and "default" not in text and action.nargs != 0:
            text += " (default: %(default)s)"
        return text


def _command(commands: argparse._SubParsersAction, name: str, help: str, **kwargs: object) -> argparse.ArgumentParser:
    command = commands.add_parser(name, help=help, description=kwargs.pop("description", help.capitalize() + "."),
                                  formatter_class=_HelpFormatter, **kwargs)  # fmt: skip
    add_progress_option(command)
    return command


def build_parser() -> argparse.ArgumentParser:
    """The ``ecwidth`` parser; each subparser sets ``func`` to its ``_cmd_<name>``, in the order a user works."""
    parser = OneLineErrorParser(
        prog="ecwidth", description="Encoder output widths of multimodal models, as the EC producer ships them.",
        epilog=WORKFLOW, formatter_class=_HelpFormatter,
    )  # fmt: skip
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    models = _command(commands, "models", "list the catalog of published architectures")
    models.add_argument(
        "--families", action="store_true",
        help="list every supported model type instead: the engine class that serves it and what it ships "
        "(loads the families, so it takes seconds)",
    )  # fmt: skip
    add_engine_option(models, help="with --families: the release whose facts to list (default: the newest vLLM)")
    add_json_option(models, help="print a JSON list")
    models.set_defaults(func=_cmd_models)

    engines = _command(commands, "engines", "list the engine releases ecwidth answers for")
    engines.add_argument(
        "--architectures", action="store_true",
        help="list every architecture each release's registry holds: served (model type, modalities, width rule) or why not",
    )  # fmt: skip
    add_engine_option(engines, help="with --architectures, one release only (default: every release)")
    add_json_option(engines, help="print a JSON list")
    engines.set_defaults(func=_cmd_engines)

    predict = _command(commands, "predict", "widths from the config alone, without building")
    add_model_source(predict)
    add_engine_option(predict)
    add_runtime_options(predict)
    add_json_option(predict)
    predict.set_defaults(func=_cmd_predict)

    measure = _command(commands, "measure", "build a model's encoder and measure its widths")
    add_model_source(measure)
    measure.add_argument("--modality", action="append", metavar="M", help="only this modality (repeatable)")
    _add_run_options(measure)
    add_engine_option(measure)
    add_runtime_options(measure)
    add_timeout_option(
        measure, default=MEASURE_TIMEOUT_S, help="seconds reading, building and encoding may take together"
    )
    _add_max_memory_option(measure)
    add_json_option(measure)
    measure.set_defaults(func=_cmd_measure)

    size = _command(
        commands,
        "size",
        "measure a model's widths, then bytes per token, per item and per largest item, items per buffer",
    )
    add_model_source(size, positional=True)
    size.add_argument(
        "--serving-dtype", default="bfloat16", choices=tuple(SERVING_DTYPES),
        help="the dtype the producer ships embeddings in: vLLM's --dtype (default bfloat16)",
    )  # fmt: skip
    size.add_argument(
        "--item", action="append", metavar="ITEM",
        help="an item to price (repeatable): image:HEIGHTxWIDTH, video:FRAMESxHEIGHTxWIDTH, audio:SECONDSs "
        "(default: image:448x448, image:1024x1024, video:8x448x448, audio:30s, those the model takes)",
    )  # fmt: skip
    size.add_argument(
        "--buffer", default=str(DEFAULT_BUFFER_BYTES), metavar="SIZE",
        help="transfer buffer to count items in: bytes, or 1GB (10^9), 1GiB (2^30), 512MiB ... "
        "(default 1e9: vLLM's ec_buffer_size)",
    )  # fmt: skip
    add_device_options(size)
    add_engine_option(size)
    add_runtime_options(size)
    add_timeout_option(size, default=MEASURE_TIMEOUT_S, help="seconds reading, building and encoding may take together")
    _add_max_memory_option(size)
    add_json_option(size)
    size.set_defaults(func=_cmd_size)

    survey = _command(commands, "survey", "measure the catalog (or given models) and write a width table")
    survey.add_argument(
        "--models", nargs="+", metavar="MODEL",
        help="models as --model takes them, mixed freely: catalog names, hub ids, folders, config files "
        "(default: the whole catalog)",
    )  # fmt: skip
    survey.add_argument("-o", "--output", metavar="DIR", default="build/survey", help="folder for JSON, CSV, Markdown")
    _add_run_options(survey)
    add_engine_option(survey, help="the engine release every row is for; models it does not serve are left out "
                      "and listed (default: the newest vLLM)")  # fmt: skip
    add_runtime_options(survey)
    add_timeout_option(
        survey, default=MEASURE_TIMEOUT_S, help="seconds each model's reading, building and encoding may take"
    )
    _add_max_memory_option(survey)
    survey.add_argument(
        "--merge", action="store_true",
        help="add the rows to the table the folder holds (rows with the same model, modality, options and engine "
        "are replaced), so one table holds several engines or settings",
    )  # fmt: skip
    survey.add_argument(
        "--jobs", type=_jobs, default="auto", metavar="N",
        help="measure N models at once in forked worker processes, CPU only (default auto: one per usable core "
        "for minimal items on a CPU, else 1)",
    )  # fmt: skip
    add_json_option(survey, help="print the table as JSON instead of Markdown")
    survey.set_defaults(func=_cmd_survey)

    lookup = _command(commands, "lookup", "print the width of one model's modality from a table")
    lookup.add_argument("table", metavar="TABLE", help="width table (.json or .csv)")
    lookup.add_argument("model", metavar="MODEL", help="a model in the table (a catalog model also by its hub id)")
    lookup.add_argument("modality", metavar="MODALITY", help="image, video, audio ... (any case)")
    add_engine_option(lookup, help="the rows for this engine release (default: the table's only engine, else the "
                      "newest vLLM)")  # fmt: skip
    add_runtime_options(lookup, help="the width measured with vLLM's --video-pruning-rate R (default: 0, off)")
    add_json_option(lookup, help="print {model, modality, width, options} instead of the bare width")
    lookup.set_defaults(func=_cmd_lookup)

    export = _command(
        commands, "export", "export a producer config, a buffer plan or a table",
        description="Export one model's widths, or the table, in a format made for one reader.", epilog=EXPORT_READERS,
    )  # fmt: skip
    export.add_argument("table", metavar="TABLE", help="width table (.json or .csv)")
    export.add_argument(
        "--model",
        help="only this model (required for producer-json and buffer-plan); a catalog model also by its hub id",
    )
    export.add_argument("--format", required=True, choices=EXPORT_FORMATS, help="see the list below")
    export.add_argument(
        "--serving-dtype", choices=tuple(SERVING_DTYPES),
        help="buffer-plan only: the dtype the producer ships embeddings in, vLLM's --dtype (default bfloat16)",
    )  # fmt: skip
    add_engine_option(export, help="the rows for this engine release (default: the table's only engine, else the "
                      "newest vLLM)")  # fmt: skip
    add_runtime_options(
        export, default=None,
        help="the rows measured with vLLM's --video-pruning-rate R: a producer config is for one setting "
        "(default: 0, off); csv and md keep every setting unless R is given",
    )  # fmt: skip
    export.add_argument("-o", "--output", metavar="PATH", help="write here (atomically) instead of stdout")
    export.set_defaults(func=_cmd_export)
    return parser


def run() -> int:
    """The ``ecwidth`` command: ``main``, then an exit that leaves torch's objects to the operating system.

    At shutdown the interpreter's garbage collector walks every object torch
    and transformers made, looking for cycles to free in a process about to
    end: 0.7-0.9 s measured here after any command that imported them. Frozen
    (``gc.freeze``), they are skipped; files are still flushed and closed and
    ``atexit`` still runs.
    """
    status = main()
    gc.freeze()
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (argparse exits 2 itself on usage errors).

    Ctrl-C, SIGTERM and SIGHUP end the command the same way: every ``finally`` runs (forked workers are
    ended, a half-written file is removed, earlier outputs stay), then one line says why, with the shell's
    status for it: 130, 143 or 129.
    """
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        _stdout_to_a_gone_reader()
    with ending_signals_raise():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    """``main`` with SIGTERM and SIGHUP raised as ``Terminated``."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        finally:
            sys.stdout.flush()  # --help and --version print inside parse_args; a closed stdout shows here
        if args.command is None:  # `ecwidth` alone: what it can do
            parser.print_help()
            sys.stdout.flush()
            return 0
        quiet_transformers()  # its notes on published configs ask nothing of a user
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at interpreter exit
        return status
    except BrokenPipeError:
        return _stdout_closed()
    except Terminated as error:  # SIGTERM, SIGHUP: before KeyboardInterrupt, which it is
        print(f"ecwidth: {error}", file=sys.stderr)
        return error.status
    except WriteInterrupted:  # SIGTERM while a file was written: the old file stands
        print(f"ecwidth: {Terminated(signal.SIGTERM)}", file=sys.stderr)
        return Terminated(signal.SIGTERM).status
    except KeyboardInterrupt:
        print("ecwidth: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as error:  # EcwidthError is a ValueError
        print(f"ecwidth: error: {one_line(error)}", file=sys.stderr)
        return 2


def _stdout_to_a_gone_reader() -> None:
    """Give a closed stdout a pipe nobody reads, so that writing to it ends as under ``| head``, with 141.

    Without it Python sets ``sys.stdout`` to ``None`` and the first write is an ``AttributeError``.
    """
    read, write = os.pipe()  # one of them may take the free fd 1
    os.dup2(write, 1)
    for fd in {read, write} - {1}:
        os.close(fd)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the interpreter's stdout, kept for the process


def _stdout_closed() -> int:
    """The reader went away (``| head``): stop quietly, as every subcommand does, with the shell's status for SIGPIPE."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush has nowhere to fail
    return 141

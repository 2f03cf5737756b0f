"""The ``ecwidth`` command: ``main`` reads the arguments and runs the subcommand they name.

The commands that build or read a model (``predict``, ``measure``, ``size``,
``survey``) are here, each importing torch and transformers inside itself;
those that read a table (``lookup``, ``export``) are in ``ecwidth.cli.tables``
and those that list ecwidth's records (``models``, ``engines``) in
``ecwidth.cli.listings``, so a table look-up loads neither. The grammar is
``ecwidth.cli.parser``'s; what surrounds every command (one ``ecwidth: error:``
line and status 2 for bad input, never a traceback; the statuses of signals
and of a closed stdout) is ``ecwidth.cli.process``'s.

``--engine`` arrives parsed (``ecwidth.cli.options.engine_release``): a
``Release``, or None where none was named. The commands pass it on as it is.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ecwidth.cli import listings, tables
from ecwidth.cli.notices import quiet_transformers, warnings_on_stderr
from ecwidth.cli.options import model_spec
from ecwidth.cli.parser import build_parser
from ecwidth.cli.process import run_guarded
from ecwidth.engines.releases import DEFAULT
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError, one_line
from ecwidth.records.table import WidthTable
from ecwidth.records.units import parse_bytes


def cmd_measure(args: argparse.Namespace) -> int:
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
            trust_remote_code=args.trust_remote_code,
        )
    if not result.widths:
        raise EcwidthError(
            f"{result.model} ({result.model_type}) has no multimodal encoder: its widths are {{}}. "
            "Measure a vision or audio model instead."
        )
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    code = ", built from the checkpoint's own code" if result.built_from == "checkpoint" else ""
    print(
        f"{result.model} ({result.model_type}) under {result.engine}, LM hidden size {result.lm_hidden_size}, "
        f"{result.dummy} item on {result.device} in {result.dtype}{code}"
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


def cmd_size(args: argparse.Namespace) -> int:
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


def cmd_predict(args: argparse.Namespace) -> int:
    """Print the widths the config predicts, without building anything.

    Raises:
        EcwidthError: The config cannot be used.
    """
    from ecwidth.engines.sizers import engine_sizes, undersized
    from ecwidth.families.adapter import find_adapter
    from ecwidth.measuring.predict import predict_widths

    spec = model_spec(args)
    adapter = find_adapter(spec.model_type)
    if adapter is None:
        raise EcwidthError(f"{spec.name} ({spec.model_type}) has no multimodal encoder: nothing to predict")
    chosen = args.engine or DEFAULT
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


def cmd_survey(args: argparse.Namespace) -> int:
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
            trust_remote_code=args.trust_remote_code,
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


def _max_memory(args: argparse.Namespace) -> int | None:
    return None if args.max_memory is None else parse_bytes(args.max_memory)


def _commands() -> dict[str, Callable[[argparse.Namespace], int]]:
    """Each subcommand's function by name, looked up when a command runs."""
    return {
        "models": listings.cmd_models,
        "engines": listings.cmd_engines,
        "predict": cmd_predict,
        "measure": cmd_measure,
        "size": cmd_size,
        "survey": cmd_survey,
        "lookup": tables.cmd_lookup,
        "export": tables.cmd_export,
    }


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
    status for it: 130, 143 or 129 (``ecwidth.cli.process.run_guarded``).
    """
    return run_guarded(lambda: _dispatch(argv))


def _dispatch(argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run the subcommand it names; ``ecwidth`` alone prints the help."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    finally:
        sys.stdout.flush()  # --help and --version print inside parse_args; a closed stdout shows here
    if args.command is None:  # `ecwidth` alone: what it can do
        parser.print_help()
        sys.stdout.flush()
        return 0
    quiet_transformers()  # its notes on published configs ask nothing of a user
    return _commands()[args.command](args)

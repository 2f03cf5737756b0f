"""The ``ecwidth`` command line's grammar: every subcommand, its options, their defaults and their help.

Kept apart from what the commands do (``ecwidth.cli.commands`` and the
modules it dispatches to), so that the help a user reads is in one place and
building the parser imports no command's dependencies. Options that
``python -m ecwidth.distributed`` shares are defined once, in
``ecwidth.cli.options``.
"""

from __future__ import annotations

import argparse
from typing import Any

from ecwidth.cli.options import (
    TRUST_REMOTE_CODE_HELP,
    OneLineErrorParser,
    add_device_options,
    add_engine_option,
    add_json_option,
    add_measuring_options,
    add_model_source,
    add_progress_option,
    add_runtime_options,
)
from ecwidth.records.units import DEFAULT_BUFFER_BYTES, SERVING_DTYPES

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
    """The ``ecwidth`` parser, its subcommands in the order a user works; ``args.command`` names the one given."""
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

    engines = _command(commands, "engines", "list the engine releases ecwidth answers for")
    engines.add_argument(
        "--architectures", action="store_true",
        help="list every architecture each release's registry holds: served (model type, modalities, width rule) or why not",
    )  # fmt: skip
    add_engine_option(engines, help="with --architectures, one release only (default: every release)")
    add_json_option(engines, help="print a JSON list")

    predict = _command(commands, "predict", "widths from the config alone, without building")
    add_model_source(predict)
    add_engine_option(predict)
    add_runtime_options(predict)
    add_json_option(predict)

    measure = _command(commands, "measure", "build a model's encoder and measure its widths")
    add_model_source(measure)
    measure.add_argument("--modality", action="append", metavar="M", help="only this modality (repeatable)")
    _add_run_options(measure)
    add_measuring_options(
        measure,
        timeout_default=MEASURE_TIMEOUT_S,
        timeout_help="seconds reading, building and encoding may take together",
    )
    _add_max_memory_option(measure)
    add_json_option(measure)

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
    add_measuring_options(
        size, timeout_default=MEASURE_TIMEOUT_S, timeout_help="seconds reading, building and encoding may take together"
    )
    _add_max_memory_option(size)
    add_json_option(size)

    survey = _command(commands, "survey", "measure the catalog (or given models) and write a width table")
    survey.add_argument(
        "--models", nargs="+", metavar="MODEL",
        help="models as --model takes them, mixed freely: catalog names, hub ids, folders, config files "
        "(default: the whole catalog)",
    )  # fmt: skip
    survey.add_argument("-o", "--output", metavar="DIR", default="build/survey", help="folder for JSON, CSV, Markdown")
    _add_run_options(survey)
    add_measuring_options(
        survey,
        timeout_default=MEASURE_TIMEOUT_S,
        timeout_help="seconds each model's reading, building and encoding may take",
        engine_help="the engine release every row is for; models it does not serve are left out and listed "
        "(default: the newest vLLM)",
    )
    _add_max_memory_option(survey)
    survey.add_argument("--trust-remote-code", action="store_true", help=TRUST_REMOTE_CODE_HELP)
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

    lookup = _command(commands, "lookup", "print the width of one model's modality from a table")
    lookup.add_argument("table", metavar="TABLE", help="width table (.json or .csv)")
    lookup.add_argument("model", metavar="MODEL", help="a model in the table (a catalog model also by its hub id)")
    lookup.add_argument("modality", metavar="MODALITY", help="image, video, audio ... (any case)")
    add_engine_option(lookup, help="the rows for this engine release (default: the table's only engine, else the "
                      "newest vLLM)")  # fmt: skip
    add_runtime_options(lookup, help="the width measured with vLLM's --video-pruning-rate R (default: 0, off)")
    add_json_option(lookup, help="print {model, modality, width, options} instead of the bare width")

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
    return parser

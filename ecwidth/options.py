"""Command-line options that ``ecwidth`` and ``python -m ecwidth.distributed`` share, defined once.

Imports neither torch nor transformers, so the table commands stay quick.
"""

from __future__ import annotations

import argparse

DEVICES = ("auto", "cpu", "cuda")
#: The dtype names ``ecwidth.devices.resolve_dtype`` takes.
DTYPES = ("auto", "bfloat16", "float16", "float32")


def add_model_source(parser: argparse.ArgumentParser) -> None:
    """``--model NAME | --config PATH`` (one of them, required) and ``--trust-remote-code``."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--model", metavar="NAME", help="a catalog model (see `ecwidth models`)")
    source.add_argument("--config", metavar="PATH", help="a config.json file, or a folder holding one")
    parser.add_argument("--trust-remote-code", action="store_true", help="accept a config that asks for remote code")


def model_source(args: argparse.Namespace) -> str:
    """The model ``add_model_source`` parsed: the catalog name or the config path."""
    return args.model if args.model is not None else args.config


def add_device_options(parser: argparse.ArgumentParser, *, device_help: str = "auto: a GPU if there is one") -> None:
    """``--device`` and ``--dtype``, both ``auto`` by default."""
    parser.add_argument("--device", default="auto", choices=DEVICES, help=device_help)
    parser.add_argument(
        "--dtype", default="auto", choices=DTYPES, help="auto: bfloat16 on a GPU, float32 on a CPU (faster there)"
    )


def add_json_option(parser: argparse.ArgumentParser, *, help: str = "print one JSON object") -> None:
    """``--json``."""
    parser.add_argument("--json", action="store_true", help=help)


def add_runtime_options(parser: argparse.ArgumentParser) -> None:
    """The serving engine's runtime options that change the width, with the engine's names and defaults."""
    parser.add_argument(
        "--video-pruning-rate", type=float, default=0.0, metavar="R",
        help="vLLM's --video-pruning-rate: prune this fraction of video tokens, in [0, 1); "
        "towers that support it append position channels (default: 0, off)",
    )  # fmt: skip

"""Command-line options that ``ecwidth`` and ``python -m ecwidth.distributed`` share, defined once.

Imports neither torch nor transformers, so the table commands stay quick.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

DEVICES = ("auto", "cpu", "cuda")
#: The dtype names ``ecwidth.measuring.devices.resolve_dtype`` takes.
DTYPES = ("auto", "bfloat16", "float16", "float32")


class OneLineErrorParser(argparse.ArgumentParser):
    """A parser whose usage errors are one ``PROGRAM: error:`` line and status 2, as every other bad input is.

    argparse prints the whole usage block first, and names the subcommand in
    the prefix (``ecwidth measure: error:``); scripts that look for the
    command's one error line would miss it. The line ends with where the usage is.
    Subparsers are made of the same class.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog.split()[0]}: error: {message} (see `{self.prog} --help`)\n")


_MODEL_HELP = (
    "a catalog name or its hub id (see `ecwidth models`), any hub id ORG/NAME[@REVISION] in the "
    "Hugging Face cache, a checkpoint folder, or a config file"
)


#: ``--trust-remote-code``: a checkpoint's own code is built only where a family says how (``ecwidth.families.snapshot``).
TRUST_REMOTE_CODE_HELP = (
    "run the checkpoint's own code (the files its auto_map names, beside config.json) where ecwidth knows how it "
    "encodes; without it, remote-code configs are read as data and answered by the engine's rule"
)


def add_model_source(parser: argparse.ArgumentParser, *, positional: bool = False) -> None:
    """``--model MODEL | --config PATH`` (one of them, required), ``--name`` and ``--trust-remote-code``.

    With ``positional``, a ``MODEL`` argument that takes anything either option takes.
    """
    if positional:
        parser.add_argument("model", metavar="MODEL", help=_MODEL_HELP)
        parser.set_defaults(config=None)
    else:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--model", metavar="MODEL", help=_MODEL_HELP)
        source.add_argument("--config", metavar="PATH", help="a config.json file, or a folder holding one")
    parser.add_argument("--name", help="name the result (default: the hub id, the folder's name or the file's stem)")
    parser.add_argument("--trust-remote-code", action="store_true", help=TRUST_REMOTE_CODE_HELP)


def model_source(args: argparse.Namespace) -> str:
    """The model ``add_model_source`` parsed, as given: a name, a hub id or a path."""
    return args.model if args.model is not None else args.config


def model_spec(args: argparse.Namespace):  # -> ecwidth.reading.configs.ModelSpec, imported late: it needs transformers
    """The ``ModelSpec`` of the model ``add_model_source`` parsed, named ``--name`` when given.

    Raises:
        ConfigError: As ``ecwidth.reading.configs.resolve_spec``.
    """
    from ecwidth.reading.configs import resolve_spec

    return resolve_spec(model_source(args), name=args.name, trust_remote_code=args.trust_remote_code)


def add_device_options(parser: argparse.ArgumentParser, *, device_help: str = "auto: a GPU if there is one") -> None:
    """``--device`` and ``--dtype``, both ``auto`` by default."""
    parser.add_argument("--device", default="auto", choices=DEVICES, help=device_help)
    parser.add_argument(
        "--dtype", default="auto", choices=DTYPES, help="auto: bfloat16 on a GPU, float32 on a CPU (faster there)"
    )


def add_json_option(parser: argparse.ArgumentParser, *, help: str = "print one JSON object") -> None:
    """``--json``."""
    parser.add_argument("--json", action="store_true", help=help)


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``, on every command, so a script can pass it without knowing which ones show progress."""
    parser.add_argument("--no-progress", action="store_true", help="no progress on stderr (also: TQDM_DISABLE=1)")


def add_runtime_options(
    parser: argparse.ArgumentParser, *, default: float | None = 0.0, help: str | None = None
) -> None:
    """The serving engine's runtime options that change the width, with the engine's names and defaults.

    Commands that read a table pick rows by them; ``default=None`` lets a
    command tell "not given" from the engine's default.
    """
    parser.add_argument(
        "--video-pruning-rate", type=float, default=default, metavar="R",
        help=help or "vLLM's --video-pruning-rate: prune this fraction of video tokens, in [0, 1); "
        "towers that support it append position channels (default: 0, off)",
    )  # fmt: skip


def add_timeout_option(parser: argparse.ArgumentParser, *, default: float, help: str) -> None:
    """``--timeout S``; the command checks the value with ``ecwidth.measuring.deadline.check_timeout``, so that a bad
    one is the command's own one-line error."""
    parser.add_argument("--timeout", type=float, default=default, metavar="S", help=f"{help} (default {default:g})")


def engine_release(text: str):  # -> ecwidth.engines.releases.Release
    """``--engine``'s value as the release it names; an unknown one is a usage error naming the known ones."""
    from ecwidth.engines.releases import release
    from ecwidth.errors import UnknownEngineError

    try:
        return release(text)
    except UnknownEngineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_engine_option(parser: argparse.ArgumentParser, *, help: str | None = None) -> None:
    """``--engine NAME[==VERSION]``: the engine release the answer is for (default: the newest vLLM)."""
    parser.add_argument(
        "--engine", type=engine_release, default=None, metavar="NAME[==VERSION]",
        help=help or "the engine release to answer for: vllm, vllm==0.32.0, vllm==0.33.0, sglang==0.5.23 "
        "(default: the newest vLLM; `ecwidth engines` lists them)",
    )  # fmt: skip


def add_measuring_options(
    parser: argparse.ArgumentParser, *, timeout_default: float, timeout_help: str, engine_help: str | None = None
) -> None:
    """What every command that builds and encodes takes: the release, its width-changing options, a time limit."""
    add_engine_option(parser, help=engine_help)
    add_runtime_options(parser)
    add_timeout_option(parser, default=timeout_default, help=timeout_help)

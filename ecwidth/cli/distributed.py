"""``torchrun --nproc-per-node N -m ecwidth.distributed (--model MODEL | --config PATH) [--pp-size P] [--json] [-o PATH]``.

Each rank builds its pipeline stage (``ecwidth.serving.distributed.stage_builder``),
measures, and rank 0 prints the reconciled widths; MODEL is anything
``ecwidth measure --model`` takes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from datetime import timedelta

import torch
import torch.distributed as dist

from ecwidth.cli.options import (
    OneLineErrorParser,
    add_device_options,
    add_json_option,
    add_measuring_options,
    add_model_source,
    add_progress_option,
    model_spec,
)
from ecwidth.cli.rank_signals import RankSignals
from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions, describe_options
from ecwidth.errors import RankFailedError, one_line
from ecwidth.measuring.deadline import check_timeout
from ecwidth.measuring.devices import resolve_device, resolve_dtype
from ecwidth.reading.configs import ModelSpec
from ecwidth.records.atomic import write_text_atomic
from ecwidth.serving.distributed import DEFAULT_TIMEOUT_S, measure_across_ranks, stage_builder


def _launch_env() -> tuple[int, int, int]:
    """``(rank, world_size, local_rank)`` as torchrun sets them.

    Raises:
        ValueError: Not launched by torchrun.
    """
    try:
        return int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ.get("LOCAL_RANK", "0"))
    except (KeyError, ValueError) as error:
        raise ValueError(
            "RANK and WORLD_SIZE are not set; launch with torchrun: "
            "torchrun --nproc-per-node N -m ecwidth.distributed --model NAME"
        ) from error


def _rank_device(device: str, local_rank: int) -> torch.device:
    """This rank's device: its own GPU (by LOCAL_RANK) when CUDA is asked for or auto finds one.

    Raises:
        ValueError: Bad device name, or fewer GPUs than ranks on this node.
    """
    resolved = resolve_device(device)
    if resolved.type != "cuda":
        return resolved
    if local_rank >= torch.cuda.device_count():
        raise ValueError(
            f"local rank {local_rank} has no GPU: {torch.cuda.device_count()} visible; "
            "use --nproc-per-node at most the GPU count, or --device cpu"
        )
    torch.cuda.set_device(local_rank)
    return torch.device("cuda", local_rank)


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m ecwidth.distributed`` parser."""
    parser = OneLineErrorParser(
        prog="ecwidth.distributed",
        description="Measure encoder output widths on every rank of a torchrun job and reconcile them.",
    )
    add_model_source(parser)
    parser.add_argument("--pp-size", type=int, default=1, metavar="P", help="pipeline stages (first holds the encoder)")
    add_device_options(parser, device_help="auto: a GPU per LOCAL_RANK if there is one")
    add_measuring_options(
        parser,
        timeout_default=DEFAULT_TIMEOUT_S,
        timeout_help="seconds a rank may build and encode, and waits for the others",
    )
    add_json_option(parser, help="rank 0 prints the result as JSON")
    parser.add_argument(
        "-o", "--output", metavar="PATH", help="rank 0 writes the result here (atomically) instead of stdout"
    )
    add_progress_option(parser)
    return parser


def _run(args: argparse.Namespace, rank_signals: RankSignals | None) -> int:
    """Validate, join the process group, measure, and print on rank 0; ``main`` leaves the group.

    Checks that every rank fails alike run before the process group exists, so
    a bad argument never leaves a rank waiting in a rendezvous.

    Raises:
        ValueError: Bad arguments or config (``EcwidthError`` included), or a rank failed.
        RuntimeError: torch.distributed could not form the process group.
    """
    rank, world_size, local_rank = _launch_env()
    if args.pp_size < 1 or world_size % args.pp_size:
        raise ValueError(
            f"--pp-size {args.pp_size} does not divide the {world_size} ranks; "
            "pick --nproc-per-node (times nodes) a multiple of --pp-size"
        )
    check_timeout(args.timeout)
    spec = model_spec(args)
    options = RuntimeOptions(video_pruning_rate=args.video_pruning_rate)
    release = args.engine or releases.DEFAULT  # parsed by --engine
    adapter = spec.adapter
    if adapter is not None:
        adapter.check_served(spec.config, release)
        adapter.check_options(spec.config, options, release)
        adapter.check_measurable(spec.config, spec.name)
    device = _rank_device(args.device, local_rank)
    dtype = resolve_dtype(args.dtype, device)
    backend = "nccl" if device.type == "cuda" else "gloo"
    dist.init_process_group(backend, timeout=timedelta(seconds=args.timeout))
    first_stage = range(world_size // args.pp_size)
    widths = measure_across_ranks(
        stage_builder(spec, args.pp_size, device, dtype), timeout=args.timeout, encoder_ranks=first_stage,
        video_pruning_rate=options.video_pruning_rate, engine=release,
    )  # fmt: skip
    if rank == 0:
        _report(args, spec, widths, world_size, release, options, rank_signals)
    return 0


def _report(
    args: argparse.Namespace,
    spec: ModelSpec,
    widths: dict[str, int],
    world_size: int,
    release: Release,
    options: RuntimeOptions,
    rank_signals: RankSignals | None,
) -> None:
    """Rank 0's result, as JSON or one line, on stdout or written atomically to ``--output``."""
    if args.json:
        result = {
            "model": spec.name,
            "model_type": spec.model_type,
            "widths": widths,
            "world_size": world_size,
            "pp_size": args.pp_size,
            "engine": {"name": release.engine, "version": release.version},
        }
        if options.set_options():
            result["options"] = options.set_options()
        text = json.dumps(result) + "\n"
    else:
        listed = ", ".join(f"{modality}={width}" for modality, width in widths.items())
        text = (
            f"{spec.name} ({spec.model_type}) under {release}: {listed}; {world_size} rank(s), "
            f"pp-size {args.pp_size}, {describe_options(options.set_options())}, agreed\n"
        )
    if args.output is None:
        sys.stdout.write(text)
        return
    with rank_signals.writing if rank_signals is not None else nullcontext():  # an ending signal waits for it
        write_text_atomic(args.output, text)


def main(argv: Sequence[str] | None = None, *, rank_signals: RankSignals | None = None) -> int:
    """Run the command on this rank; any error is one ``ecwidth.distributed: error:`` line and status 2.

    The error is printed before the process group is destroyed: once one rank
    exits, torchrun stops the others, and a slow rank would be stopped silent.
    ``rank_signals`` (``python -m ecwidth.distributed`` takes them first) ends
    this rank on SIGTERM or SIGHUP; a rank that fails because a peer was so
    stopped ends with the peer's status, silently: the peer said why.
    """
    if rank_signals is not None:
        rank_signals.torch_loaded.set()  # imported above
    args = build_parser().parse_args(argv)
    try:
        return _run(args, rank_signals)
    except RankFailedError as error:
        stopped = rank_signals.stopped_by() if rank_signals is not None else None
        if stopped is not None:
            return 128 + stopped
        sys.stderr.write(f"ecwidth.distributed: error: {one_line(error)}\n")
        sys.stderr.flush()
        return 2
    except (ValueError, RuntimeError, OSError) as error:
        # One write: the ranks share torchrun's stderr, and print() writes the newline apart.
        sys.stderr.write(f"ecwidth.distributed: error: {one_line(error)}\n")
        sys.stderr.flush()
        return 2
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()


if __name__ == "__main__":
    raise SystemExit(main())

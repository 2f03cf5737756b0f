"""Measure on every rank of a torch.distributed job and reconcile, as a producer's workers do.

A serving engine measures on each worker and reconciles the reports, so a
sharded or pipelined producer layout is only checked by running it. Reports
travel over torch.distributed collectives (gloo on CPUs, nccl on GPUs); there
is no transport of our own.

Fault handling, so that no rank waits forever:

- A rank whose ``build`` or encode raises sends a failure record in place of
  a report. The gather completes at once and every rank raises the same
  ``RankFailedError`` naming each failed rank and its exception (the failed
  rank chains its own traceback).
- A rank's own building and encoding are bounded by ``timeout`` (a
  ``SIGALRM`` deadline on the main thread): a rank stuck in Python code
  raises ``DeadlineExceeded`` and reports it, so every rank names it.
- A rank that dies, or hangs where a signal cannot reach, sends nothing. The
  exchange runs on a gloo group: a monitored barrier before the gather makes
  every waiting rank raise ``RankFailedError`` after at most ``timeout`` plus
  a short grace (at once where the peer's socket closes). Each rank marks its
  progress in the job's store, so every surviving rank names the ranks that
  never reported and the stage each was last seen in. Under torchrun the
  agent then stops the remaining workers, the hung one included.
- With ``encoder_ranks`` (the first pipeline stage), a rank there that
  reports no encoder while others measured one is a misconfigured layout,
  reported as such rather than dropped.

The ``-m`` command: ``torchrun --nproc-per-node N -m ecwidth.distributed
(--model MODEL | --config PATH) [--name NAME] [--pp-size P] [--video-pruning-rate R] [--json]``, with MODEL
anything ``ecwidth measure --model`` takes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Collection, Sequence
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn

from ecwidth.adapter import find_adapter
from ecwidth.build import build_encoder
from ecwidth.configs import ModelSpec
from ecwidth.deadline import check_timeout, deadline
from ecwidth.devices import resolve_device, resolve_dtype
from ecwidth.errors import RankFailedError, one_line
from ecwidth.measure import measure_widths
from ecwidth.options import (
    OneLineErrorParser,
    add_device_options,
    add_json_option,
    add_model_source,
    add_progress_option,
    add_runtime_options,
    add_timeout_option,
    model_spec,
)
from ecwidth.reconcile import reconcile
from ecwidth.runtime import RuntimeOptions, describe_options

#: Seconds a rank may build and encode, and waits for the slowest rank to do so.
DEFAULT_TIMEOUT_S = 300.0
#: Seconds a rank waits past ``timeout``, so that a peer stopped by its own deadline still reports.
EXCHANGE_GRACE_S = 10.0

#: ``build(rank, world_size)``: this rank's model, or ``None`` where it holds no encoder.
Build = Callable[[int, int], nn.Module | None]

#: What each rank contributes to the gather: its report, or why it has none.
_Payload = tuple[dict[str, int], str | None]


def _exchange_group(group: dist.ProcessGroup | None, timeout: float) -> dist.ProcessGroup:
    """The gloo group reports travel on: gloo raises on timeout, where nccl's watchdog kills the process.

    Raises:
        ValueError: No process group is initialised, ``group`` is not gloo, or this rank is not in it.
        RankFailedError: Not every rank joined the new group within ``timeout``.
    """
    if not dist.is_initialized():
        raise ValueError(
            "no torch.distributed process group: call torch.distributed.init_process_group first, "
            "or run under torchrun: torchrun --nproc-per-node N -m ecwidth.distributed ..."
        )
    if group is None:
        try:
            return dist.new_group(backend="gloo", timeout=timedelta(seconds=timeout))
        except RuntimeError as error:
            raise RankFailedError(
                f"not every rank reached measure_across_ranks within {timeout:g} s: {error}"
            ) from error
    if dist.get_backend(group) != "gloo":
        raise ValueError(
            f"group uses {dist.get_backend(group)!r}; pass a gloo group, e.g. "
            "torch.distributed.new_group(ranks, backend='gloo'), or group=None for every rank"
        )
    if dist.get_rank(group) < 0:
        raise ValueError(f"rank {dist.get_rank()} is not in the group; call this on the group's ranks only")
    return group


class _RollCall:
    """Each rank's progress, kept in the job's key-value store, so survivors can name who never reported.

    The store is torch.distributed's own (torchrun's rendezvous store, or the
    one ``init_process_group`` was given). Where a process group was formed
    without one, the roll call is silent and failures name no rank.
    """

    _calls = 0  # measure_across_ranks is collective: every rank counts its calls alike

    def __init__(self) -> None:
        _RollCall._calls += 1
        self._prefix = f"ecwidth/measure/{_RollCall._calls}/"
        try:
            self._store = dist.distributed_c10d._get_default_store()
        except (RuntimeError, AttributeError, ValueError):
            self._store = None

    def mark(self, rank: int, stage: str) -> None:
        """Record that ``rank`` reached ``stage``."""
        if self._store is not None:
            self._store.set(f"{self._prefix}{rank}", stage)

    def absent(self, world_size: int) -> dict[int, str]:
        """``{rank: last stage seen}`` for every rank that has not reached the exchange."""
        if self._store is None:
            return {}
        absent = {}
        for rank in range(world_size):
            key = f"{self._prefix}{rank}"
            stage = self._store.get(key).decode() if self._store.check([key]) else "starting"
            if stage != _REPORTED:
                absent[rank] = stage
        return absent


_REPORTED = "reported"


def _measure_locally(
    build: Build, rank: int, world_size: int, timeout: float, roll: _RollCall, video_pruning_rate: float
) -> tuple[_Payload, Exception | None]:
    """Build and encode on this rank within ``timeout``; a failure is returned as a record, never raised."""
    try:
        with deadline(timeout, f"rank {rank}", "building its model") as stages:
            roll.mark(rank, stages.current)
            model = build(rank, world_size)
            stages.current = "encoding a dummy item"
            roll.mark(rank, stages.current)
            return (measure_widths(model, video_pruning_rate=video_pruning_rate), None), None
    except Exception as error:  # any failure must reach the other ranks as a record
        return ({}, f"failed while {stages.current}: {type(error).__name__}: {error}"), error


def _gather(payload: _Payload, group: dist.ProcessGroup, timeout: float, roll: _RollCall) -> list[_Payload]:
    """Every rank's payload, in rank order, or ``RankFailedError`` within ``timeout`` and the grace.

    Raises:
        RankFailedError: A rank did not arrive in time, or its connection closed; names the
            ranks the store says never reported, and the stage each was last seen in.
    """
    rank, world_size = dist.get_rank(group), dist.get_world_size(group)
    payloads: list[_Payload] = [({}, None)] * world_size
    roll.mark(rank, _REPORTED)
    try:
        dist.monitored_barrier(group, timeout=timedelta(seconds=timeout + EXCHANGE_GRACE_S), wait_all_ranks=True)
        dist.all_gather_object(payloads, payload, group=group)
    except RuntimeError as error:
        absent = roll.absent(world_size)
        who = (
            "; ".join(f"rank {r} never reported (last seen {stage})" for r, stage in absent.items())
            if absent else "a rank never reported"
        )  # fmt: skip
        raise RankFailedError(
            f"{who} within {timeout:g} s: it hung, or died without raising (killed, out of memory, crashed). "
            f"torch.distributed on rank {rank}: {error}"
        ) from error
    return payloads


def _describe_failures(payloads: Sequence[_Payload]) -> str:
    """One clause per distinct failure, so N ranks failing alike read as one line."""
    ranks_by_failure: dict[str, list[int]] = {}
    for rank, (_, failure) in enumerate(payloads):
        if failure is not None:
            ranks_by_failure.setdefault(failure, []).append(rank)
    clauses = [
        f"{'rank' if len(ranks) == 1 else 'ranks'} {', '.join(map(str, ranks))} {failure}"
        for failure, ranks in ranks_by_failure.items()
    ]
    return f"{'; '.join(clauses)} (of {len(payloads)} ranks)"


def measure_across_ranks(
    build: Build,
    *,
    group: dist.ProcessGroup | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    encoder_ranks: Collection[int] | None = None,
    video_pruning_rate: float = 0.0,
) -> dict[str, int]:
    """Measure on every rank, gather the reports, and return the reconciled widths on every rank.

    Call on every rank of ``group`` (``None``: every rank of the default
    group, whatever its backend). Each rank measures the model that
    ``build(rank, world_size)`` returns (rank and size within ``group``),
    one minimal item per modality; ``None`` or a model without an encoder
    reports ``{}``. Every rank returns the same mapping or raises the same
    error. ``timeout`` bounds each rank's own building and encoding, and how
    long it waits for the others (plus ``EXCHANGE_GRACE_S``). ``encoder_ranks``:
    the ranks that must hold the encoder (the first pipeline stage).
    ``video_pruning_rate`` is the engine's option (0: off), set on every
    rank's measurement as on every worker of a producer started with it.

    Raises:
        RankFailedError: A rank raised or ran out of time while building or encoding (names
            it and its exception), a rank did not report (names it where the store can), or
            a rank in ``encoder_ranks`` reported no encoder while others measured one.
        NoEncoderError: Every rank reported ``{}``.
        WidthDisagreementError: Two ranks measured different widths; names every rank's report.
        MalformedReportError: A report is not ``{str: positive int}``.
        UnsupportedOptionError: ``video_pruning_rate`` is out of range (on every rank, before any
            exchange); a family that does not take it fails its ranks as a ``RankFailedError``.
        ValueError: No process group, ``group`` is not gloo, or ``timeout`` is out of range.
    """
    timeout = check_timeout(timeout)
    RuntimeOptions(video_pruning_rate=video_pruning_rate)
    exchange = _exchange_group(group, timeout)
    roll = _RollCall()
    try:
        rank, world_size = dist.get_rank(exchange), dist.get_world_size(exchange)
        payload, error = _measure_locally(build, rank, world_size, timeout, roll, video_pruning_rate)
        payloads = _gather(payload, exchange, timeout, roll)
    finally:
        if exchange is not group:
            dist.destroy_process_group(exchange)
    if any(failure is not None for _, failure in payloads):
        raise RankFailedError(_describe_failures(payloads)) from error
    reports = [report for report, _ in payloads]
    missing_encoder = [r for r in sorted(encoder_ranks or ()) if r < len(reports) and not reports[r]]
    if missing_encoder and any(reports):
        raise RankFailedError(
            f"rank(s) {', '.join(map(str, missing_encoder))} hold no encoder although they are in the first "
            "pipeline stage, where every rank must; the layout is misconfigured (check --pp-size and how the "
            f"model is split). Reports: {dict(enumerate(reports))}"
        )
    return reconcile(reports)


# -- the ``python -m ecwidth.distributed`` command, launched by torchrun ------


def stage_builder(spec: ModelSpec, pp_size: int, device: torch.device, dtype: torch.dtype) -> Build:
    """A ``build`` that gives the encoder to the first of ``pp_size`` pipeline stages, ``None`` elsewhere.

    Ranks are laid out stage by stage, so rank ``r`` is in stage ``r // (world_size // pp_size)``.
    A model without an encoder adapter (text-only) builds ``None`` everywhere.
    """
    adapter = find_adapter(spec.model_type)

    def build(rank: int, world_size: int) -> nn.Module | None:
        if adapter is None or rank // (world_size // pp_size) != 0:
            return None
        return build_encoder(adapter, spec.config, device=device, dtype=dtype)

    return build


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
    add_runtime_options(parser)
    add_timeout_option(
        parser, default=DEFAULT_TIMEOUT_S, help="seconds a rank may build and encode, and waits for the others"
    )
    add_json_option(parser, help="rank 0 prints the result as JSON")
    add_progress_option(parser)
    return parser


def _run(args: argparse.Namespace) -> int:
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
    adapter = find_adapter(spec.model_type)
    if adapter is not None:
        adapter.check_options(spec.config, options)
    device = _rank_device(args.device, local_rank)
    dtype = resolve_dtype(args.dtype, device)
    backend = "nccl" if device.type == "cuda" else "gloo"
    dist.init_process_group(backend, timeout=timedelta(seconds=args.timeout))
    first_stage = range(world_size // args.pp_size)
    widths = measure_across_ranks(
        stage_builder(spec, args.pp_size, device, dtype), timeout=args.timeout, encoder_ranks=first_stage,
        video_pruning_rate=options.video_pruning_rate,
    )  # fmt: skip
    if rank == 0:
        if args.json:
            result = {
                "model": spec.name,
                "model_type": spec.model_type,
                "widths": widths,
                "world_size": world_size,
                "pp_size": args.pp_size,
            }
            if options.set_options():
                result["options"] = options.set_options()
            print(json.dumps(result))
        else:
            listed = ", ".join(f"{modality}={width}" for modality, width in widths.items())
            print(
                f"{spec.name} ({spec.model_type}): {listed}; {world_size} rank(s), pp-size {args.pp_size}, "
                f"{describe_options(options.set_options())}, agreed"
            )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on this rank; any error is one ``ecwidth.distributed: error:`` line and status 2.

    The error is printed before the process group is destroyed: once one rank
    exits, torchrun stops the others, and a slow rank would be stopped silent.
    """
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
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

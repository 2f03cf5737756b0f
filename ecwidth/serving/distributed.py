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

The ``-m ecwidth.distributed`` command that torchrun launches is ``ecwidth.cli.distributed``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import RankFailedError
from ecwidth.measuring.build import build_encoder
from ecwidth.measuring.deadline import check_timeout, deadline
from ecwidth.measuring.encode import adapter_of
from ecwidth.measuring.measure import engine_widths
from ecwidth.reading.configs import ModelSpec
from ecwidth.records.reconcile import reconcile

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
        self._prefix = f"ecwidth/measuring/measure/{_RollCall._calls}/"
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
    build: Build,
    rank: int,
    world_size: int,
    timeout: float,
    roll: _RollCall,
    options: RuntimeOptions,
    release: Release,
) -> tuple[_Payload, Exception | None]:
    """Build and encode on this rank within ``timeout``; a failure is returned as a record, never raised."""
    try:
        with deadline(timeout, f"rank {rank}", "building its model") as stages:
            roll.mark(rank, stages.current)
            model = build(rank, world_size)
            stages.current = "encoding a dummy item"
            roll.mark(rank, stages.current)
            adapter = adapter_of(model)  # None: a stage without the encoder, which reports nothing
            widths = (
                {} if adapter is None else engine_widths(model, None, adapter=adapter, release=release, options=options)
            )
            return (widths, None), None
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
    engine: str | Release | None = None,
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
    rank's measurement as on every worker of a producer started with it;
    ``engine`` the release whose modality keys the result uses (default: the newest vLLM).

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
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate)
    release = releases.release(engine)
    exchange = _exchange_group(group, timeout)
    roll = _RollCall()
    try:
        rank, world_size = dist.get_rank(exchange), dist.get_world_size(exchange)
        payload, error = _measure_locally(build, rank, world_size, timeout, roll, options, release)
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


def stage_builder(spec: ModelSpec, pp_size: int, device: torch.device, dtype: torch.dtype) -> Build:
    """A ``build`` that gives the encoder to the first of ``pp_size`` pipeline stages, ``None`` elsewhere.

    Ranks are laid out stage by stage, so rank ``r`` is in stage ``r // (world_size // pp_size)``.
    A model without an encoder adapter (text-only) builds ``None`` everywhere; a checkpoint whose own code
    ``--trust-remote-code`` runs is built through it (``ModelSpec.adapter``).
    """
    adapter = spec.adapter

    def build(rank: int, world_size: int) -> nn.Module | None:
        if adapter is None or rank // (world_size // pp_size) != 0:
            return None
        return build_encoder(adapter, spec.config, device=device, dtype=dtype)

    return build

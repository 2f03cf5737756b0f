"""Record encoder output widths at EC producer startup, as a serving engine does.

An engine runs one function on every worker through its ``collective_rpc``
and reconciles the answers before the KV cache takes the memory. This module
mirrors that step on duck-typed objects, so ecwidth plugs into an engine's
worker pool without importing any engine.

A *worker* is any object with a ``model`` attribute: the model built on that
worker, or ``None`` where the worker holds no encoder (a pipeline stage other
than the first). ``collective_rpc(fn)`` calls ``fn(worker)`` on every worker,
wherever it lives, and returns the results in worker-rank order. The module
imports neither torch nor transformers: a worker's model brings its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError
from ecwidth.records.reconcile import reconcile

#: Runs ``fn(worker)`` on every worker and returns the results in rank order.
CollectiveRpc = Callable[[Callable[[Any], dict[str, int]]], Sequence[Mapping[str, int]]]


def measure_on_worker(worker: Any, *, options: RuntimeOptions, release: Release) -> dict[str, int]:
    """One worker's report, with the engine's runtime options, in ``release``'s modality keys: ``{}`` where it
    holds no encoder.

    Module-level so that a process pool can pickle it by reference; ``options`` and ``release`` are parsed
    once, by ``record_producer_widths``, and sent to every worker as they are.

    Raises:
        EcwidthError: ``worker`` has no ``model`` attribute.
        EncodeError: The encoder failed on a dummy item.
    """
    if not hasattr(worker, "model"):
        raise EcwidthError(
            f"{type(worker).__name__} has no 'model' attribute: ecwidth measures worker.model, "
            "the model built on that worker (None where it holds no encoder)"
        )
    if worker.model is None:  # a later pipeline stage: nothing to import torch for
        return {}
    from ecwidth.measuring.encode import adapter_of
    from ecwidth.measuring.measure import engine_widths

    adapter = adapter_of(worker.model)
    if adapter is None:
        return {}
    return engine_widths(worker.model, None, adapter=adapter, release=release, options=options)


def engine_pruning_rate(config: Any) -> float:
    """The engine's ``video_pruning_rate`` (``config.model_config.multimodal_config``; unset: 0, off)."""
    multimodal = getattr(getattr(config, "model_config", None), "multimodal_config", None)
    return float(getattr(multimodal, "video_pruning_rate", None) or 0.0)


def record_producer_widths(config: Any, collective_rpc: CollectiveRpc, *, engine: str | Release | None = None) -> None:
    """Measure on every worker and write the agreed widths to ``config.ec_transfer_config``.

    Only an EC producer sizes transfers, so without an ``ec_transfer_config``,
    or where ``is_ec_producer`` is false, nothing runs: ``collective_rpc`` is
    not called. Otherwise ``mm_encoder_output_widths`` becomes the reconciled
    ``{modality: width}``, measured with the engine's own video pruning setting
    (``engine_pruning_rate``), since pruning adds channels, and keyed as the
    engine release ``engine`` names them (default: the newest vLLM). Call after the
    model loads and before the KV cache takes the memory budget.

    Raises:
        NoEncoderError: No worker holds an encoder, so no width could be measured.
        WidthDisagreementError: Two workers measured different widths; names every worker's report.
        MalformedReportError: A worker returned something other than ``{str: positive int}``.
        EcwidthError: A worker has no ``model`` attribute, or its encoder failed
            (``EncodeError``), as far as ``collective_rpc`` passes worker errors on.
        UnknownEngineError: ``engine`` names no release ecwidth knows (said before any worker runs).
    """
    ec_config = getattr(config, "ec_transfer_config", None)
    if ec_config is None or not ec_config.is_ec_producer:
        return
    options = RuntimeOptions(video_pruning_rate=engine_pruning_rate(config))
    measure = partial(measure_on_worker, options=options, release=releases.release(engine))
    ec_config.mm_encoder_output_widths = reconcile(collective_rpc(measure))

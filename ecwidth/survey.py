"""Measure many models in one process and tabulate them.

One process pays the torch/transformers import once; each model is built,
measured and freed in turn, with its own time and peak memory recorded.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone

import pandas as pd
import torch
import transformers
from tqdm.auto import tqdm

from ecwidth.catalog import catalog_entry, catalog_names
from ecwidth.devices import resolve_device
from ecwidth.errors import EcwidthError
from ecwidth.measure import MeasureResult, measure
from ecwidth.memory import peak_memory
from ecwidth.table import WidthRow, WidthTable

COST_COLUMNS = ("model", "build_s", "encode_s", "total_s", "peak_rss_bytes", "peak_cuda_bytes")


def _version() -> str:
    from ecwidth import __version__

    return __version__


def rows_from_result(result: MeasureResult, *, measured_at: str) -> list[WidthRow]:
    """One table row per measured modality, with the provenance of this run."""
    return [
        WidthRow(
            model=result.model,
            modality=modality,
            encoder_width=width,
            lm_hidden_size=result.lm_hidden_size,
            width_ratio=width / result.lm_hidden_size,
            deepstack_levels=result.deepstack_levels.get(modality, 0),
            source="measured",
            predicted_width=result.predicted.get(modality, width),
            matches_prediction=result.predicted.get(modality) == width,
            ecwidth_version=_version(),
            torch_version=torch.__version__,
            transformers_version=transformers.__version__,
            device=result.device,
            dtype=result.dtype,
            dummy=result.dummy,
            measured_at=measured_at,
            config_sha256=result.config_sha256,
        )
        for modality, width in sorted(result.widths.items())
    ]


@dataclass
class Survey:
    """A survey's width table, its own cost per model, and the models that failed."""

    table: WidthTable
    costs: pd.DataFrame
    failures: dict[str, str] = field(default_factory=dict)


def survey(
    models: Iterable[str] | None = None,
    *,
    device: str = "auto",
    dtype: str = "auto",
    dummy: str = "minimal",
    progress: bool = True,
) -> Survey:
    """Measure each named catalog model (all of them by default).

    A model that fails is recorded in ``failures`` with its error, never
    silently dropped; the others are still measured.

    Raises:
        ConfigError: A name is not in the catalog (checked before any work starts).
        ValueError: The device or dtype is unknown.
    """
    torch_device = resolve_device(device)
    names = catalog_names() if models is None else list(models)
    for name in names:
        catalog_entry(name)
    rows: list[WidthRow] = []
    costs: list[dict[str, object]] = []
    failures: dict[str, str] = {}
    bar = tqdm(names, desc="ecwidth survey", unit="model", disable=not progress)
    caller_froze = gc.get_freeze_count() > 0
    try:
        for name in bar:
            bar.set_postfix_str(name)
            # Models are freed by reference counting; the gc.collect in measure() only
            # catches cycles a family might leave. A full collection walks every object
            # torch and transformers made (0.1-0.3 s a model), so freeze what exists:
            # it then scans this model's objects alone.
            gc.freeze()
            started = time.perf_counter()
            try:
                with peak_memory(torch_device) as peak:
                    result = measure(name, device=torch_device, dtype=dtype, dummy=dummy)
            except EcwidthError as error:
                failures[name] = str(error)
                continue
            measured_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
            rows.extend(rows_from_result(result, measured_at=measured_at))
            costs.append(
                {
                    "model": name,
                    "build_s": result.build_s,
                    "encode_s": result.encode_s,
                    "total_s": time.perf_counter() - started,
                    "peak_rss_bytes": peak.rss_bytes,
                    "peak_cuda_bytes": peak.cuda_bytes,
                }
            )
    finally:
        if not caller_froze:  # leave a caller's own gc.freeze() in place
            gc.unfreeze()
    return Survey(WidthTable(rows), pd.DataFrame(costs, columns=COST_COLUMNS), failures)

"""What the cost benchmark times inside its own process: predict, build and encode per model, the whole
catalog after imports, and the machine it runs on (``benchmarks/measure_cost.py`` defines each figure)."""

from __future__ import annotations

import gc
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.cost.limits import BANDWIDTH_BYTES, NO_TOKEN_RULE, PAGE, PREDICT_REPEATS, ratio
from benchmarks.cost.report import log


def machine(device: Any) -> dict[str, Any]:
    """What the figures were measured on, load included: the cores are shared."""
    import torch
    import transformers

    from ecwidth.measuring.memory import read_proc

    memory = read_proc("/proc/meminfo", ["MemTotal"]).get("MemTotal")
    try:
        thp = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text().strip()
    except OSError:
        thp = None
    info = {
        "cpu": read_proc("/proc/cpuinfo", ["model name"]).get("model name") or platform.processor(),
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "memory_bytes": int(memory.split()[0]) * 1024 if memory else None,
        "transparent_hugepage": thp,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "load_average_start": list(os.getloadavg()),
    }
    if device.type == "cuda":
        info["gpu"] = torch.cuda.get_device_name(device)
    return info


def _sync(device: Any) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def read_bandwidth(device: Any, nbytes: int | None = None, repeats: int = 5) -> float:
    """Bytes per second that summing a ``nbytes`` tensor (``BANDWIDTH_BYTES``) reads, best of ``repeats``."""
    import torch

    nbytes = nbytes or BANDWIDTH_BYTES
    data = torch.ones(nbytes // 4, dtype=torch.float32, device=device)  # written, so really resident
    data.sum()
    _sync(device)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        data.sum()
        _sync(device)
        best = min(best, time.perf_counter() - started)
    del data
    return nbytes / best


def encoder_parameters(model: Any, adapter: Any) -> tuple[int, int]:
    """(parameters, bytes) of the encoder submodules, each shared parameter once."""
    from ecwidth.families.adapter import resolve

    seen = {id(p): p for path in adapter.encoder_paths(model) for p in resolve(model, path).parameters()}
    return sum(p.numel() for p in seen.values()), sum(p.numel() * p.element_size() for p in seen.values())


def run_once(
    spec: Any, adapter: Any, device: Any, dtype: Any, dummy: str, cap: int | None, *, shape_faithful: bool = True
) -> dict[str, Any]:
    """Build afresh and encode one ``dummy`` item per modality; times, tokens, widths and memory.

    ``shape_faithful`` as in ``ecwidth.measuring.encode.dummy_shapes``: on for ecwidth's
    way, off for the real encode whose cost it is compared with.
    """
    from ecwidth.measuring.build import build_encoder
    from ecwidth.measuring.encode import dummy_shapes
    from ecwidth.measuring.memory import peak_memory

    gc.collect()
    gc.freeze()  # later collections skip the objects made so far: 0.1-0.5 s each otherwise
    with peak_memory(device) as build_peak:
        started = time.perf_counter()
        model = build_encoder(adapter, spec.config, device=device, dtype=dtype)
        _sync(device)
        build_s = time.perf_counter() - started
    params, weight_bytes = encoder_parameters(model, adapter)
    encode_s: dict[str, float] = {}
    tokens: dict[str, int] = {}
    widths: dict[str, int] = {}
    with peak_memory(device) as encode_peak:
        for modality in adapter.modalities(model):
            started = time.perf_counter()
            ((tokens[modality], widths[modality]),) = dummy_shapes(
                model, [modality], dummy=dummy, max_tokens=cap, shape_faithful=shape_faithful
            ).values()
            _sync(device)
            encode_s[modality] = time.perf_counter() - started
    del model
    gc.collect()
    on_cuda = device.type == "cuda"
    above = (
        encode_peak.cuda_bytes - encode_peak.start_cuda_bytes
        if on_cuda
        else encode_peak.rss_bytes - encode_peak.start_rss_bytes
    )
    return {
        "build_s": build_s,
        "encode_s": sum(encode_s.values()),
        "encode_s_by_modality": encode_s,
        "tokens_by_modality": tokens,
        "widths": widths,
        "peak_rss_bytes": max(build_peak.rss_bytes, encode_peak.rss_bytes),
        "peak_cuda_bytes": max(build_peak.cuda_bytes, encode_peak.cuda_bytes) if on_cuda else None,
        "peak_above_weights_bytes": above,
        "build_rss_growth_bytes": encode_peak.start_rss_bytes - build_peak.start_rss_bytes,
        "encoder_parameters": params,
        "encoder_weight_bytes": weight_bytes,
    }


def _median(runs: list[dict[str, Any]], key: str) -> Any:
    values = [run[key] for run in runs]
    return None if values[0] is None else statistics.median(values)


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians of the timed runs, the last run's shapes, and every run's raw figures."""
    last = runs[-1]
    summary = {
        key: _median(runs, key)
        for key in ("build_s", "encode_s", "peak_rss_bytes", "peak_cuda_bytes", "peak_above_weights_bytes",
                    "build_rss_growth_bytes")
    }  # fmt: skip
    summary["encode_s_by_modality"] = {
        m: statistics.median(run["encode_s_by_modality"][m] for run in runs) for m in last["encode_s_by_modality"]
    }
    summary["tokens"] = sum(last["tokens_by_modality"].values())
    summary["tokens_by_modality"] = last["tokens_by_modality"]
    summary["widths"] = last["widths"]
    per_run = ("build_s", "encode_s", "peak_rss_bytes", "peak_cuda_bytes", "peak_above_weights_bytes")
    summary["runs"] = [{key: run[key] for key in per_run} for run in runs]
    return summary


def time_predict(name: str) -> tuple[float, float]:
    """(cold, median of warm) seconds for ``predict_widths(name)``, config parsing included."""
    from ecwidth.measuring.predict import predict_widths

    started = time.perf_counter()
    predict_widths(name)
    cold = time.perf_counter() - started
    times = []
    for _ in range(PREDICT_REPEATS):
        started = time.perf_counter()
        predict_widths(name)
        times.append(time.perf_counter() - started)
    return cold, statistics.median(times)


def real_profile_tokens(adapter: Any, config: Any, modalities: Any) -> dict[str, int] | None:
    """Tokens of the real (uncapped) profile item per modality; ``None`` where the family has no token rule."""
    from ecwidth.errors import NoTokenRuleError

    try:
        return {m: adapter.profile_tokens(config, m) for m in modalities}
    except NoTokenRuleError:
        return None


def bench_model(
    name: str, device: Any, dtype: Any, repeats: int, cap: int | None, bandwidth: float, shape_faithful: bool = True
) -> dict[str, Any]:
    """Entry (a), (b), (c), (d) and the ratios for one model."""
    from ecwidth.families.adapter import adapter_for
    from ecwidth.measuring.devices import dtype_name
    from ecwidth.measuring.predict import predict_widths
    from ecwidth.reading.configs import resolve_spec

    predict_cold, predict_s = time_predict(name)
    spec = resolve_spec(name)
    adapter = adapter_for(spec.model_type)
    predicted = predict_widths(spec.config)
    log(f"{spec.name}: (b) minimal, 1 cold + {repeats} runs")
    cold = run_once(spec, adapter, device, dtype, "minimal", None, shape_faithful=shape_faithful)
    minimal = summarise(
        [run_once(spec, adapter, device, dtype, "minimal", None, shape_faithful=shape_faithful) for _ in range(repeats)]
    )
    minimal["cold"] = {key: cold[key] for key in ("build_s", "encode_s", "peak_rss_bytes", "peak_above_weights_bytes")}
    real = real_profile_tokens(adapter, spec.config, minimal["tokens_by_modality"])
    shown = real if real is not None else NO_TOKEN_RULE
    log(f"{spec.name}: (c) profile, {repeats} runs, cap {cap or 'none'} tokens per item; real profile {shown}")
    profile = summarise(
        [run_once(spec, adapter, device, dtype, "profile", cap, shape_faithful=False) for _ in range(repeats)]
    )
    profile["cap"] = cap
    profile["real_profile_tokens"] = None if real is None else sum(real.values())
    profile["real_profile_tokens_by_modality"] = real
    if real is None:  # the real profile size is unknown: capped, as far as anyone can tell, only where a cap was set
        profile["capped"] = None if cap else False
    else:
        profile["capped"] = any(profile["tokens_by_modality"][m] < real[m] for m in real)
    profile["encode_s_extrapolated"] = (
        None
        if real is None
        else sum(
            seconds * real[m] / profile["tokens_by_modality"][m]
            for m, seconds in profile["encode_s_by_modality"].items()
        )
    )
    if profile["widths"] != minimal["widths"]:
        raise ValueError(f"{spec.name}: profile widths {profile['widths']} differ from minimal {minimal['widths']}")
    log(f"{spec.name}: (d) the real profile item through meta execution, {repeats} runs")
    on_meta = real_profile_on_meta(spec, adapter, device, dtype, repeats)
    if on_meta["widths"] != minimal["widths"]:
        raise ValueError(
            f"{spec.name}: real profile widths {on_meta['widths']} differ from minimal {minimal['widths']}"
        )
    minimal_s = minimal["build_s"] + minimal["encode_s"]
    weight_bytes = cold["encoder_weight_bytes"]
    floor_s = weight_bytes / bandwidth
    return {
        "model": spec.name,
        "model_type": spec.model_type,
        "encoder_parameters": cold["encoder_parameters"],
        "encoder_weight_bytes": weight_bytes,
        "widths": minimal["widths"],
        "predicted": predicted,
        "predict_s": predict_s,
        "predict_cold_s": predict_cold,
        "minimal": minimal,
        "profile": profile,
        "profile_on_meta": on_meta,
        "capped_real_over_meta_extrapolated": ratio(profile.get("encode_s_extrapolated"), on_meta["encode_s"]),
        "floor_s": floor_s,
        "profile_over_minimal_time": ratio(profile["build_s"] + profile["encode_s"], minimal_s),
        "profile_over_minimal_time_extrapolated": None
        if real is None
        else ratio(profile["build_s"] + profile["encode_s_extrapolated"], minimal_s),
        "profile_over_minimal_encode_time": ratio(profile["encode_s"], minimal["encode_s"]),
        "profile_over_minimal_memory": ratio(
            profile["peak_above_weights_bytes"], max(minimal["peak_above_weights_bytes"], PAGE)
        ),
        "minimal_over_floor": minimal_s / floor_s,
        "device": str(device),
        "dtype": dtype_name(dtype),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def real_profile_on_meta(spec: Any, adapter: Any, device: Any, dtype: Any, repeats: int) -> dict[str, Any]:
    """The engine's own (uncapped) profile item per modality through ``--dummy profile``'s meta execution.

    ``per_item_s``: median seconds per modality; ``fell_back``: the modalities
    that could not run on meta and were encoded for real (their reason).
    """
    import warnings

    from ecwidth.measuring.build import build_encoder
    from ecwidth.measuring.encode import MetaFallbackWarning, dummy_shapes

    model = build_encoder(adapter, spec.config, device=device, dtype=dtype)
    times: dict[str, list[float]] = {}
    shapes: dict[str, tuple[int, int]] = {}
    fell_back: dict[str, str] = {}
    for modality in adapter.modalities(model):
        for _ in range(repeats):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", MetaFallbackWarning)
                started = time.perf_counter()
                shapes.update(dummy_shapes(model, [modality], dummy="profile"))
                _sync(device)
                times.setdefault(modality, []).append(time.perf_counter() - started)
            for warning in caught:
                if issubclass(warning.category, MetaFallbackWarning):
                    fell_back[modality] = str(warning.message)
    del model
    gc.collect()
    per_item = {m: statistics.median(t) for m, t in times.items()}
    return {
        "per_item_s": per_item,
        "encode_s": sum(per_item.values()),
        "worst_item_s": max(per_item.values(), default=None),
        "tokens_by_modality": {m: tokens for m, (tokens, _) in shapes.items()},
        "widths": {m: width for m, (_, width) in shapes.items()},
        "fell_back": fell_back,
    }


# -- the whole catalog, after imports -------------------------------------------------------------


def catalog_costs(device: Any, dtype: Any, repeats: int) -> dict[str, Any]:
    """Build plus minimal measurement of every catalog model, shape-faithful on and off.

    Each model is measured once untimed (its modeling module's import and
    first calls), then ``repeats`` times each way. Per mode: every model's
    median, and the median and worst of those over the catalog.
    """
    from ecwidth.measuring.measure import measure
    from ecwidth.reading.catalog import catalog_names
    from ecwidth.reading.configs import resolve_spec

    per_model: dict[str, dict[str, float]] = {}
    failures: dict[str, str] = {}
    for name in catalog_names():
        try:
            spec = resolve_spec(name)
            measure(spec, device=device, dtype=dtype)
            entry = {}
            for key, faithful in (("shape_faithful", True), ("every_product", False)):
                runs = [measure(spec, device=device, dtype=dtype, shape_faithful=faithful) for _ in range(repeats)]
                entry[key] = statistics.median(r.build_s + r.encode_s for r in runs)
        except Exception as error:  # one broken family must not cost the others' figures
            failures[name] = f"{type(error).__name__}: {error}"
            continue
        per_model[name] = entry
    summary = {
        key: {
            "median_s": statistics.median(e[key] for e in per_model.values()),
            "worst_s": max(e[key] for e in per_model.values()),
            "worst_model": max(per_model, key=lambda n: per_model[n][key]),
        }
        for key in ("shape_faithful", "every_product")
    } if per_model else {}  # fmt: skip
    return {"models": per_model, "failures": failures, "repeats": repeats, **summary}

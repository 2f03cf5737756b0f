#!/usr/bin/env python
"""What measuring an encoder's output width costs: ecwidth's minimal item against a profile-sized one.

A serving engine measures the width at startup by encoding a profile-sized
dummy item, the largest its processor allows. ecwidth encodes the smallest
valid item instead; the width is the same (the script checks it). For each
model, in one run, side by side:

(a) predict   ``predict_widths(name)``: read the config, apply the family's
              formula. Median of 20 calls after one cold call.
(b) minimal   ``build_encoder`` plus one minimal item per modality through
              ``ecwidth.measuring.measure.dummy_shapes``: ecwidth's way.
(c) profile   the same build plus one profile-sized item per modality: the
              serving engine's way. On a CPU each item is capped at
              ``--profile-cap`` tokens so the run ends in minutes; the cap and
              the real profile size in tokens are printed and recorded.

Build and encode are timed separately; each figure is the median of
``--repeats`` runs, and each run builds the model afresh. For (b), one extra
cold run comes first: it pays the family's first-time costs (importing the
transformers modeling module, first-call setup) and is reported as ``cold``,
outside the medians.

Memory
------
``peak_rss_bytes`` is the process's peak RSS over build and encode (on a GPU,
``peak_cuda_bytes`` is ``torch.cuda.max_memory_allocated`` as well). That
includes the Python process itself, some 0.4 GB of torch and transformers,
which dwarfs a minimal item, so the ratio uses **peak memory above the
weights**: the peak during the encode minus what the process held when the
encode started, i.e. after the build, weights included. On a GPU the weights
are really allocated and this is exactly "peak minus the weights". On a CPU,
ecwidth's weights are zero pages that are never written (see
``ecwidth.measuring.build.zero_storage``), so RSS hardly counts them at all
(``build_rss_growth_bytes`` shows what the build added);
subtracting the RSS at the start of the encode gives the same quantity
whether the weights are resident or not: the activations and scratch the
item needs. A serving engine with real, resident weights needs that on top
of its weights. RSS is counted in pages, and a minimal item can add almost
nothing, so the memory ratio's denominator is floored at one page.

Floor
-----
``floor_s`` is the encoder's weight bytes divided by this machine's read
bandwidth, measured here by summing a 512 MiB tensor (best of 5): the time to
read real weights from memory once. ``minimal_over_floor`` is (b)'s
build + encode over it. ecwidth never loads weights, and its zero-page
weights are served from the one shared zero page, cache-resident, so (b) can
come in under this floor; the floor says what a minimal item would cost a
producer that has its real weights.

Targets (issue 6), checked and printed at the end: the full catalog survey
on a 2-core CPU in under 2 minutes with imports and peak RSS under 6 GB
(needs ``--survey``); build plus minimal measurement of a ~600M-parameter
tower in under 2 s after imports (checked for every model); the minimal item
at least 100x cheaper than the profile item in time and 10x in memory above
the weights; predict under 10 ms per model. A capped profile item understates
the profile cost, so the time target is also checked against
``encode_s_extrapolated``: each modality's capped time scaled linearly to its
real profile tokens, itself a lower bound (attention grows faster than
linearly).

``--survey`` also times ``ecwidth survey`` over the whole catalog in a fresh
subprocess, as a new user runs it (interpreter start and imports included),
and samples that process's RSS every 10 ms for its peak (the survey resets
its own high-water mark per model, so the kernel's final figure would read
low). It runs three times with the default ``--jobs`` and three with
``--jobs 1``, interleaved, and keeps the median run of each.

Usage::

    python benchmarks/measure_cost.py [--models NAME ...] [--device auto|cpu|cuda]
        [--dtype auto|float32|bfloat16|float16] [--repeats N] [--profile-cap TOKENS]
        [--survey] [-o PATH]

``--models`` takes catalog names or paths to a config.json; ``--models`` with
no names skips the per-model part (with ``--survey``: the survey alone).
``--profile-cap 0`` encodes the real profile item. The JSON (default
``benchmarks/measure_cost.json``) holds ``models``: one entry per model with
``model``, ``predict_s``, ``minimal`` and ``profile`` (each with ``build_s``,
``encode_s``, ``peak_rss_bytes``, ``tokens``; ``profile`` also
``real_profile_tokens`` and ``capped``, ``None`` where the family has no
token rule), ``profile_over_minimal_time``,
``profile_over_minimal_memory``, ``minimal_over_floor``, ``device``,
``dtype``, ``date``; then ``machine``, ``bandwidth_bytes_per_s``,
``failures`` (model: error, for a model that could not be measured), ``survey``
(when timed) and ``targets``.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "benchmarks" / "measure_cost.json"

#: Qwen3-VL-8B: DeepStack, 576M-parameter tower (the "~600M" target). Qwen2.5-VL-7B: window
#: attention, 677M. Llama-4-Scout: the catalog's largest vision tower, 872M with its projector
#: (tiles; its minimal item is a one-token tile). Qwen3-Omni: the largest encoder overall,
#: 1187M over its vision and audio towers, three modalities. Counted from the meta build.
DEFAULT_MODELS = (
    "qwen3-vl-8b-instruct",
    "qwen2-5-vl-7b-instruct",
    "llama-4-scout-17b-16e-instruct",
    "qwen3-omni-30b-a3b-instruct",
)
#: Tokens per profile item on a CPU: up to a minute per run at these sizes on 2 cores, and enough
#: work that the measured ratio, not only the extrapolated one, shows the gap.
DEFAULT_CPU_CAP = 1024
PREDICT_REPEATS = 20
BANDWIDTH_BYTES = 512 * 2**20
PAGE = 4096

SURVEY_LIMIT_S = 120.0
SURVEY_RSS_LIMIT = 6 * 10**9
MINIMAL_LIMIT_S = 2.0
TIME_RATIO_TARGET = 100.0
MEMORY_RATIO_TARGET = 10.0
PREDICT_LIMIT_S = 0.010
SURVEY_OVER_FLOOR_LIMIT = 1.5
CATALOG_MEDIAN_LIMIT_S = 0.040
CATALOG_WORST_LIMIT_S = 0.150
LOOKUP_RATIO_LIMIT = 5.0
PROFILE_ITEM_LIMIT_S = 3.0
#: Where a family cannot count the real profile item's tokens (its width still measures).
NO_TOKEN_RULE = "no token rule for this family"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="*", default=list(DEFAULT_MODELS), metavar="NAME",
                        help="catalog names or config.json paths (default: %(default)s)")  # fmt: skip
    parser.add_argument("--device", default="auto", help="auto, cpu or cuda")
    parser.add_argument("--dtype", default="auto", help="auto (float32 on a CPU, bfloat16 on a GPU), float32, ...")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per measurement (median)")
    parser.add_argument("--profile-cap", type=int, default=None, metavar="TOKENS",
                        help=f"cap each profile item at TOKENS (default: {DEFAULT_CPU_CAP} on a CPU, none on a GPU; "
                             "0: no cap)")  # fmt: skip
    parser.add_argument(
        "--survey",
        action="store_true",
        help="also time `ecwidth survey` over the whole catalog, against the import floor",
    )
    parser.add_argument(
        "--catalog-repeats",
        type=int,
        default=3,
        metavar="N",
        help="timed runs per catalog model, shape-faithful on and off (0: skip that part)",
    )
    parser.add_argument(
        "--no-shape-faithful",
        dest="shape_faithful",
        action="store_false",
        help="run every product in the per-model minimal measurement (b), as before ecwidth.shapes",
    )
    parser.add_argument("-o", "--output", default=str(DEFAULT_OUTPUT), metavar="PATH", help="JSON to write")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


# -- machine -------------------------------------------------------------------------------------


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


# -- one model -----------------------------------------------------------------------------------


def encoder_parameters(model: Any, adapter: Any) -> tuple[int, int]:
    """(parameters, bytes) of the encoder submodules, each shared parameter once."""
    from ecwidth.families.adapter import resolve

    seen = {id(p): p for path in adapter.encoder_paths(model) for p in resolve(model, path).parameters()}
    return sum(p.numel() for p in seen.values()), sum(p.numel() * p.element_size() for p in seen.values())


def run_once(
    spec: Any, adapter: Any, device: Any, dtype: Any, dummy: str, cap: int | None, *, shape_faithful: bool = True
) -> dict[str, Any]:
    """Build afresh and encode one ``dummy`` item per modality; times, tokens, widths and memory.

    ``shape_faithful`` as in ``ecwidth.measuring.measure.dummy_shapes``: on for ecwidth's
    way, off for the real encode whose cost it is compared with.
    """
    from ecwidth.measuring.build import build_encoder
    from ecwidth.measuring.measure import dummy_shapes
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


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    return None if numerator is None or not denominator else numerator / denominator


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
        "capped_real_over_meta_extrapolated": _ratio(profile.get("encode_s_extrapolated"), on_meta["encode_s"]),
        "floor_s": floor_s,
        "profile_over_minimal_time": _ratio(profile["build_s"] + profile["encode_s"], minimal_s),
        "profile_over_minimal_time_extrapolated": None
        if real is None
        else _ratio(profile["build_s"] + profile["encode_s_extrapolated"], minimal_s),
        "profile_over_minimal_encode_time": _ratio(profile["encode_s"], minimal["encode_s"]),
        "profile_over_minimal_memory": _ratio(
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
    from ecwidth.measuring.measure import MetaFallbackWarning, dummy_shapes

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


# -- fresh processes: the floors -----------------------------------------------------------------


def _wall(command: list[str], repeats: int) -> float:
    """Median wall seconds of ``command`` in a fresh process, offline; it must exit 0."""
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def import_floor(repeats: int = 3) -> dict[str, Any]:
    """What any measuring process pays first: torch, transformers and the first catalog model's class.

    Also the same process with the collector frozen before it exits, as the
    ``ecwidth`` command leaves (``ecwidth.cli.commands.run``): the floor as the issue
    states it pays the interpreter's last walk over torch's objects, which the
    survey does not, so both ratios are reported.
    """
    from ecwidth.families.adapter import adapter_for
    from ecwidth.reading.catalog import catalog_names
    from ecwidth.reading.configs import resolve_spec

    spec = resolve_spec(catalog_names()[0])
    model_class = adapter_for(spec.model_type).model_class_for(spec.config)
    code = f"import torch, transformers; transformers.{model_class}"
    frozen = f"{code}; import gc; gc.freeze()"
    return {
        "command": f"python -c {code!r}",
        "wall_s": _wall([sys.executable, "-c", code], repeats),
        "frozen_exit_command": f"python -c {frozen!r}",
        "frozen_exit_wall_s": _wall([sys.executable, "-c", frozen], repeats),
    }


def lookup_cost(repeats: int = 5) -> dict[str, Any]:
    """``ecwidth lookup`` of the first committed table row against ``python -c pass``, both fresh processes."""
    table = ROOT / "tables" / "encoder_widths.json"
    row = json.loads(table.read_text())["rows"][0]
    command = [sys.executable, "-m", "ecwidth", "lookup", str(table), row["model"], row["modality"]]
    lookup_s, pass_s = _wall(command, repeats), _wall([sys.executable, "-c", "pass"], repeats)
    return {"command": f"ecwidth lookup tables/encoder_widths.json {row['model']} {row['modality']}",
            "wall_s": lookup_s, "python_pass_s": pass_s, "ratio": lookup_s / pass_s}  # fmt: skip


# -- the survey, as a new user runs it ----------------------------------------------------------


def _sample_rss(pid: int, peak: list[int], done: threading.Event) -> None:
    from ecwidth.measuring.memory import status_bytes

    while not done.is_set():
        peak[0] = max([peak[0], *status_bytes("VmHWM", "VmRSS", pid=pid).values()])
        done.wait(0.01)


def time_surveys(device: str, dtype: str, repeats: int = 3) -> dict[str, Any]:
    """``time_survey`` ``repeats`` times with the default ``--jobs`` and once with ``--jobs 1``, interleaved;
    the median run by wall time, with every wall time and the one-process run."""
    runs, alone = [], []
    for _ in range(repeats):
        runs.append(time_survey(device, dtype))
        alone.append(time_survey(device, dtype, jobs=1))
    median = sorted(runs, key=lambda run: run["wall_s"])[len(runs) // 2]
    one_process = sorted(alone, key=lambda run: run["wall_s"])[len(alone) // 2]
    return {**median, "walls_s": [run["wall_s"] for run in runs], "one_process": one_process}


def time_survey(device: str, dtype: str, command: list[str] | None = None, jobs: int | None = None) -> dict[str, Any]:
    """Wall time and peak RSS of ``ecwidth survey`` over the catalog (or ``command``) in a fresh process;
    ``jobs`` passes ``--jobs`` (``None``: the default)."""
    with tempfile.TemporaryDirectory() as folder:
        if command is None:
            script = Path(sys.executable).with_name("ecwidth")
            command = [str(script)] if script.exists() else [sys.executable, "-m", "ecwidth"]
            command += ["survey", "--device", device, "--dtype", dtype, "-o", folder]
            command += [] if jobs is None else ["--jobs", str(jobs)]
        shown = " ".join(command).replace(folder, "DIR").replace(f"{Path(sys.executable).parent}/", "")
        env = dict(os.environ, HF_HUB_OFFLINE="1")
        out_path, err_path = Path(folder, "stdout.txt"), Path(folder, "stderr.txt")
        peak, done = [0], threading.Event()
        with out_path.open("w") as out, err_path.open("w") as err:
            started = time.perf_counter()
            process = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=ROOT)
            sampler = threading.Thread(target=_sample_rss, args=(process.pid, peak, done), daemon=True)
            sampler.start()
            _, status, usage = os.wait4(process.pid, 0)
            wall_s = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            done.set()
            sampler.join()
        stderr = err_path.read_text()
    summary = re.search(r"(\d+) model\(s\) in ([\d.]+) s of measuring", stderr)  # status goes to stderr
    workers = re.search(r"across (\d+) worker processes", stderr)
    return {
        "command": shown,
        "wall_s": wall_s,
        "peak_rss_bytes": max(peak[0], usage.ru_maxrss * 1024),
        "returncode": process.returncode,
        "models_measured": int(summary.group(1)) if summary else None,
        "measuring_s": float(summary.group(2)) if summary else None,
        "jobs": int(workers.group(1)) if workers else 1,
        "errors": [line for line in stderr.splitlines() if line.startswith("ecwidth: error")],
        "device": device,
        "dtype": dtype,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


# -- report --------------------------------------------------------------------------------------


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def targets(entries: list[dict[str, Any]], survey: dict[str, Any] | None, floors: dict[str, Any] | None = None
            ) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Each issue-6 and issue-16 target with the measured value and whether it is met (``None``: not measured)."""
    floors = floors or {}
    result: dict[str, dict[str, Any]] = {}

    def add(key: str, text: str, value: float | None, limit: float, below: bool) -> None:
        met = None if value is None else (value < limit if below else value >= limit)
        result[key] = {"target": text, "value": value, "limit": limit, "met": met}

    add("survey_s", "full catalog survey, imports included (s)", survey and survey["wall_s"], SURVEY_LIMIT_S, True)
    add("survey_peak_rss_bytes", "full catalog survey peak RSS (bytes)",
        survey and survey["peak_rss_bytes"], SURVEY_RSS_LIMIT, True)  # fmt: skip
    for entry in entries:
        name = entry["model"]
        params = f"{entry['encoder_parameters'] / 1e6:.0f}M"  # the target is stated for a ~600M tower
        add(f"{name}:minimal_s", f"{name}: build + minimal measurement, {params}-parameter encoder (s)",
            entry["minimal"]["build_s"] + entry["minimal"]["encode_s"], MINIMAL_LIMIT_S, True)  # fmt: skip
        add(f"{name}:time_ratio", f"{name}: profile / minimal time (capped profile)",
            entry["profile_over_minimal_time"], TIME_RATIO_TARGET, False)  # fmt: skip
        add(f"{name}:time_ratio_extrapolated", f"{name}: profile / minimal time (linear to real profile)",
            entry["profile_over_minimal_time_extrapolated"], TIME_RATIO_TARGET, False)  # fmt: skip
        add(f"{name}:memory_ratio", f"{name}: profile / minimal peak memory above the weights",
            entry["profile_over_minimal_memory"], MEMORY_RATIO_TARGET, False)  # fmt: skip
        add(f"{name}:predict_s", f"{name}: predict (s)", entry["predict_s"], PREDICT_LIMIT_S, True)
        add(f"{name}:profile_on_meta_s", f"{name}: the real profile item through meta execution, worst item (s)",
            entry["profile_on_meta"]["worst_item_s"], PROFILE_ITEM_LIMIT_S, True)  # fmt: skip
    floor, catalog, lookup = floors.get("import_floor"), floors.get("catalog"), floors.get("lookup")
    add("survey_over_import_floor", "cold whole-catalog survey / import floor",
        _ratio(survey and survey["wall_s"], floor and floor["wall_s"]), SURVEY_OVER_FLOOR_LIMIT, True)  # fmt: skip
    faithful = (catalog or {}).get("shape_faithful")
    add("catalog_minimal_median_s", "build + minimal measurement, median over the catalog, after imports (s)",
        faithful and faithful["median_s"], CATALOG_MEDIAN_LIMIT_S, True)  # fmt: skip
    add("catalog_minimal_worst_s", "build + minimal measurement, worst model of the catalog, after imports (s)",
        faithful and faithful["worst_s"], CATALOG_WORST_LIMIT_S, True)  # fmt: skip
    add("lookup_over_python_pass", "`ecwidth lookup` / `python -c pass`",
        lookup and lookup["ratio"], LOOKUP_RATIO_LIMIT, True)  # fmt: skip
    return result


def _mb(value: float | None) -> str:
    return "-" if value is None else f"{value / 1e6:,.0f}"


def _cell(value: float | None, spec: str) -> str:
    """``value`` formatted by ``spec``, or a right-aligned "-" where it is not known."""
    width = int(re.match(r"\d*", spec).group() or 0)
    return f"{'-':>{width}}" if value is None else format(value, spec)


def print_report(report: dict[str, Any]) -> None:
    entries = report["models"]
    print(f"\nmachine: {report['machine']['cpu']}, {report['machine']['usable_cpus']} CPU(s), "
          f"torch {report['machine']['torch']}, load {report['machine']['load_average_start'][0]:.1f} at start, "
          f"{report['machine']['load_average_end'][0]:.1f} at end")  # fmt: skip
    print(f"read bandwidth: {report['bandwidth_bytes_per_s'] / 1e9:.1f} GB/s (sum of a "
          f"{BANDWIDTH_BYTES >> 20} MiB tensor, best of 5)")  # fmt: skip
    if entries:
        print(f"device {entries[0]['device']}, dtype {entries[0]['dtype']}; times are medians of "
              f"{len(entries[0]['minimal']['runs'])} runs; memory above the weights in MB\n")  # fmt: skip
        header = (f"{'model':<32} {'enc M':>6} {'pred ms':>7} | {'(b) build':>9} {'encode':>7} {'peak MB':>7} "
                  f"{'+MB':>5} {'tok':>4} | {'(c) build':>9} {'encode':>8} {'+MB':>6} {'tok':>6} {'real':>7} | "
                  f"{'c/b time':>8} {'extrap':>7} {'c/b mem':>7} {'b/floor':>7}")  # fmt: skip
        print(header)
        print("-" * len(header))
        for e in entries:
            b, c = e["minimal"], e["profile"]
            print(f"{e['model'][:32]:<32} {e['encoder_parameters'] / 1e6:6.0f} {e['predict_s'] * 1e3:7.2f} | "
                  f"{b['build_s']:9.3f} {b['encode_s']:7.3f} {_mb(b['peak_rss_bytes']):>7} "
                  f"{_mb(b['peak_above_weights_bytes']):>5} {b['tokens']:4d} | "
                  f"{c['build_s']:9.3f} {c['encode_s']:8.2f} {_mb(c['peak_above_weights_bytes']):>6} "
                  f"{c['tokens']:6d} {_cell(c['real_profile_tokens'], '7d')} | "
                  f"{e['profile_over_minimal_time']:8.0f} {_cell(e['profile_over_minimal_time_extrapolated'], '7.0f')} "
                  f"{e['profile_over_minimal_memory']:7.0f} {e['minimal_over_floor']:7.2f}")  # fmt: skip
        print()
        for e in entries:
            c = e["profile"]
            cap = {True: f"capped at {c['cap']} tokens per item", False: "not capped",
                   None: f"at most {c['cap']} tokens per item"}[c["capped"]]  # fmt: skip
            real = c["real_profile_tokens_by_modality"]
            print(f"{e['model']}: profile item {cap}: encoded {c['tokens_by_modality']}, "
                  f"real profile {NO_TOKEN_RULE if real is None else f'{real} tokens'}; cold minimal run "
                  f"build {e['minimal']['cold']['build_s']:.2f} s + encode {e['minimal']['cold']['encode_s']:.2f} s; "
                  f"floor {e['floor_s']:.3f} s for {e['encoder_weight_bytes'] / 1e9:.2f} GB of weights")  # fmt: skip
    survey = report.get("survey")
    if survey:
        print(f"\nsurvey ({survey['command']}): {survey['wall_s']:.1f} s wall, "
              f"peak RSS {survey['peak_rss_bytes'] / 1e9:.2f} GB, {survey['models_measured']} model(s), "
              f"exit {survey['returncode']}")  # fmt: skip
        for error in survey["errors"]:
            print(f"  {error}")
    for e in entries:
        meta = e["profile_on_meta"]
        fell = f"; fell back for {sorted(meta['fell_back'])}" if meta["fell_back"] else ""
        print(f"{e['model']}: the real profile item {meta['tokens_by_modality']} through meta execution: "
              f"{ {m: round(t, 3) for m, t in meta['per_item_s'].items()} } s per item{fell}")  # fmt: skip
    floor, lookup, catalog = report.get("import_floor"), report.get("lookup"), report.get("catalog")
    if floor and survey:
        one = survey.get("one_process")
        print(f"import floor ({floor['command']}): {floor['wall_s']:.2f} s; survey ({survey['jobs']} worker(s), "
              f"median of {survey['walls_s']}) / floor {survey['wall_s'] / floor['wall_s']:.2f}")  # fmt: skip
        if "frozen_exit_wall_s" in floor:
            print(
                f"  against the floor with the collector frozen at exit, as the command exits "
                f"({floor['frozen_exit_wall_s']:.2f} s): {survey['wall_s'] / floor['frozen_exit_wall_s']:.2f}"
            )
        if one:
            print(f"  --jobs 1 (one process): {one['wall_s']:.2f} s, {one['wall_s'] / floor['wall_s']:.2f} x the floor")
    if lookup:
        print(f"{lookup['command']}: {lookup['wall_s'] * 1e3:.0f} ms; python -c pass {lookup['python_pass_s'] * 1e3:.0f} ms;"
              f" ratio {lookup['ratio']:.2f}")  # fmt: skip
    if catalog and "shape_faithful" in catalog:
        for key in ("shape_faithful", "every_product"):
            c = catalog[key]
            print(f"catalog ({len(catalog['models'])} models), build + minimal, {key}: median {c['median_s'] * 1e3:.1f} ms, "
                  f"worst {c['worst_s'] * 1e3:.1f} ms ({c['worst_model']})")  # fmt: skip
    for name, error in report["failures"].items():
        print(f"\nFAILED {name}: {error}")
    print("\ntargets:")
    for target in report["targets"].values():
        mark = {True: "met", False: "MISSED", None: "not measured"}[target["met"]]
        value = "-" if target["value"] is None else f"{target['value']:.4g}"
        print(f"  {mark:>12}  {target['target']}: {value} (limit {target['limit']:.4g})")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    finally:
        gc.unfreeze()


def run(args: argparse.Namespace) -> int:
    """The whole benchmark; ``main`` parses the arguments."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing here may reach a hub
    sys.path.insert(0, str(ROOT))  # run from a checkout without installing
    from ecwidth.measuring.devices import resolve_device, resolve_dtype

    device = resolve_device(args.device)
    dtype = resolve_dtype(args.dtype, device)
    cap = args.profile_cap if args.profile_cap is not None else (DEFAULT_CPU_CAP if device.type == "cpu" else 0)
    report: dict[str, Any] = {"models": []}  # first: the notebook reads the first list it finds
    report["machine"] = machine(device)
    survey = None
    floors: dict[str, Any] = {}
    # pip compiles an installed package's bytecode. A checkout under PYTHONDONTWRITEBYTECODE (as on the
    # machines here) would compile ecwidth's 120 modules again in every fresh process timed below,
    # while torch and transformers load theirs: compile once, as an install does.
    compileall.compile_dir(ROOT / "ecwidth", quiet=1)
    if args.survey:
        log("timing `ecwidth survey` over the catalog in a fresh process, and the import floor")
        survey = time_surveys(args.device, args.dtype)
        floors["import_floor"] = import_floor()
    log("timing `ecwidth lookup` against `python -c pass`")
    floors["lookup"] = lookup_cost()
    if args.catalog_repeats:
        log(f"every catalog model: build + minimal measurement, {args.catalog_repeats} runs each way")
        floors["catalog"] = catalog_costs(device, dtype, args.catalog_repeats)
    report["bandwidth_bytes_per_s"] = read_bandwidth(device)
    failures: dict[str, str] = {}
    for name in args.models:
        try:
            entry = bench_model(
                name, device, dtype, args.repeats, cap or None, report["bandwidth_bytes_per_s"], args.shape_faithful
            )
        except Exception as error:  # one broken family must not cost the other models' figures
            failures[name] = f"{type(error).__name__}: {error}"
            log(f"{name}: FAILED: {failures[name]}")
            continue
        report["models"].append(entry)
    report["failures"] = failures
    report["machine"]["load_average_end"] = list(os.getloadavg())
    report["survey"] = survey
    report["shape_faithful"] = args.shape_faithful
    report.update(floors)
    report["targets"] = targets(report["models"], survey, floors)
    print_report(report)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    from ecwidth.records.atomic import write_text_atomic

    write_text_atomic(output, json.dumps(report, indent=2) + "\n")
    log(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

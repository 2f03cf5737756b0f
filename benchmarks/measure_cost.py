#!/usr/bin/env python
"""What measuring an encoder's output width costs: ecwidth's minimal item against a profile-sized one.

A serving engine measures the width at startup by encoding a profile-sized
dummy item, the largest its processor allows. ecwidth encodes the smallest
valid item instead; the width is the same (the script checks it). For each
model, in one run, side by side:

(a) predict   ``predict_widths(name)``: read the config, apply the family's
              formula. Median of 20 calls after one cold call.
(b) minimal   ``build_encoder`` plus one minimal item per modality through
              ``ecwidth.measuring.encode.dummy_shapes``: ecwidth's way.
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
``--jobs 1``, interleaved with the import floor, and keeps the median run of
each. Three more runs, in the same rounds, go under
``benchmarks/cost/timed_survey.py``: the same command, with a clock on each
phase of its wall time (process start, the parent's imports, reading the
configs, the modelling modules' imports, each worker's start, imports, builds
and encodes, writing the table, the exit). The report prints the median of
each phase, and the JSON holds it as ``survey_split``.

The code is in ``benchmarks/cost/``: ``limits`` (the targets), ``probes``
(what is timed in this process), ``processes`` (fresh processes: the floors,
the survey and its split) and ``report`` (the printed report); this file is
the command.

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
and ``survey_split`` (when timed) and ``targets``.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout without installing: ecwidth, and benchmarks.cost

from benchmarks.cost.limits import (  # noqa: E402
    BANDWIDTH_BYTES,
    DEFAULT_CPU_CAP,
    DEFAULT_MODELS,
    NO_TOKEN_RULE,
    targets,
)
from benchmarks.cost.probes import (  # noqa: E402
    bench_model,
    catalog_costs,
    machine,
    read_bandwidth,
    real_profile_on_meta,
    real_profile_tokens,
    run_once,
    summarise,
    time_predict,
)
from benchmarks.cost.processes import import_floor, lookup_cost, survey_rounds, time_survey, time_surveys  # noqa: E402
from benchmarks.cost.report import _cell, _mb, log, print_report, print_split  # noqa: E402

#: What the tests and older callers reach through this module; ``BANDWIDTH_BYTES`` here is the probe's size
#: (set it before ``main`` for a smaller probe).
__all__ = ["BANDWIDTH_BYTES", "DEFAULT_MODELS", "NO_TOKEN_RULE", "_cell", "_mb", "bench_model", "catalog_costs",
           "import_floor", "lookup_cost", "machine", "main", "print_report", "print_split", "real_profile_on_meta",
           "real_profile_tokens", "run", "run_once", "summarise", "targets", "time_predict", "time_survey",
           "time_surveys"]  # fmt: skip
DEFAULT_OUTPUT = ROOT / "benchmarks" / "measure_cost.json"


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


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    finally:
        gc.unfreeze()


def run(args: argparse.Namespace) -> int:
    """The whole benchmark; ``main`` parses the arguments."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing here may reach a hub
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
    split = None
    if args.survey:
        log(
            "timing `ecwidth survey` over the catalog in fresh processes (plain, under the clock, --jobs 1), "
            "interleaved with the import floor"
        )
        rounds = survey_rounds(args.device, args.dtype)
        survey, floors["import_floor"], split = rounds["survey"], rounds["import_floor"], rounds["survey_split"]
    log("timing `ecwidth lookup` against `python -c pass`")
    floors["lookup"] = lookup_cost()
    if args.catalog_repeats:
        log(f"every catalog model: build + minimal measurement, {args.catalog_repeats} runs each way")
        floors["catalog"] = catalog_costs(device, dtype, args.catalog_repeats)
    report["bandwidth_bytes_per_s"] = read_bandwidth(device, BANDWIDTH_BYTES)
    report["bandwidth_probe_bytes"] = BANDWIDTH_BYTES
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
    report["survey_split"] = split
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

"""The cost benchmark's printed report: the per-model table, the survey against the import floor and where
its time goes, the catalog figures and the targets."""

from __future__ import annotations

import re
import statistics
import sys
import time
from typing import Any

from benchmarks.cost.limits import BANDWIDTH_BYTES, NO_TOKEN_RULE


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


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
          f"{report.get('bandwidth_probe_bytes', BANDWIDTH_BYTES) >> 20} MiB tensor, best of 5)")  # fmt: skip
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
    if report.get("survey_split"):
        print_split(report["survey_split"], survey, floor)
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


def print_split(split: dict[str, Any], survey: dict[str, Any] | None, floor: dict[str, Any] | None) -> None:
    """Where the timed survey's wall time goes, phase by phase (medians over its runs), against the import floor."""
    from benchmarks.cost.processes import MEASURING, OF_WHICH, PHASES

    median = split["median"]
    if not median:
        print("\nsurvey split: no timed run left a record")
        return
    wall = median["wall_s"]
    walls = ", ".join(f"{w:.2f}" for w in split["walls_s"])
    print(f"\nwhere the cold survey's time goes: `ecwidth survey` under benchmarks/cost/timed_survey.py, "
          f"median of {len(split['walls_s'])} runs ({walls} s), {median.get('jobs', 1):.0f} worker(s), "
          f"{median.get('models_measured', 0):.0f} models measured of {median.get('configs_read', 0):.0f} configs read")  # fmt: skip

    def line(label: str, seconds: float | None, indent: int = 2) -> None:
        if seconds is not None:
            print(f"{' ' * indent}{label:<{78 - indent}} {seconds:6.2f} s {seconds / wall:6.1%}")

    for key, label in PHASES:
        line(label, median.get(key))
        if key in OF_WHICH:
            line("of which imports", median.get(OF_WHICH[key]), 6)
        if key == "measuring":
            for part, text in MEASURING:
                line(text, median.get(part), 6)
    print(f"  {'sum of the medians':<76} {sum(median.get(key, 0.0) for key, _ in PHASES):6.2f} s")
    if median.get("parent_gc_s") is not None:
        runs = [run.get("parent_gc_by_phase_s") or {} for run in split["runs"]]
        phases = sorted({phase for run in runs for phase in run})
        by_phase = ", ".join(f"{p} {statistics.median(run.get(p, 0.0) for run in runs):.2f}" for p in phases)
        worker = f"; {median['worker_gc_s']:.2f} s per worker" if median.get("worker_gc_s") is not None else ""
        print(f"  garbage collection, within the phases above: {median['parent_gc_s']:.2f} s in the parent "
              f"({by_phase}){worker}")  # fmt: skip
    slowest = split["runs"][-1].get("slowest_models")
    if slowest:
        print("  slowest models (last timed run; build + encode s): "
              + ", ".join(f"{m['model']} {m['build_s']:.2f} + {m['encode_s']:.2f}" for m in slowest))  # fmt: skip
    if floor:
        beyond = wall - floor["wall_s"]
        print(f"  beyond the import floor ({floor['wall_s']:.2f} s): {beyond:.2f} s; timed survey / floor "
              f"{wall / floor['wall_s']:.2f}" + (f", plain survey / floor {survey['wall_s'] / floor['wall_s']:.2f}"
                                                  if survey else ""))  # fmt: skip

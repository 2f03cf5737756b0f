"""What the cost benchmark times in fresh processes: the import floor, ``ecwidth lookup``, and ``ecwidth
survey`` as a new user runs it, with the split of its wall time (``timed_survey``)."""

from __future__ import annotations

import json
import os
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

from benchmarks.cost.report import log

ROOT = Path(__file__).resolve().parent.parent.parent
TIMED_SURVEY = Path(__file__).resolve().with_name("timed_survey.py")


# -- the floors ---------------------------------------------------------------------------------


def _wall(command: list[str], repeats: int) -> float:
    """Median wall seconds of ``command`` in a fresh process, offline; it must exit 0."""
    return statistics.median(_wall_once(command) for _ in range(repeats))


def _wall_once(command: list[str]) -> float:
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def floor_codes() -> tuple[str, str]:
    """The import floor's ``python -c`` code: torch, transformers and the first catalog model's class; and the
    same with the collector frozen before it exits, as the ``ecwidth`` command leaves (``ecwidth.cli.commands.run``).
    """
    from ecwidth.families.adapter import adapter_for
    from ecwidth.reading.catalog import catalog_names
    from ecwidth.reading.configs import resolve_spec

    spec = resolve_spec(catalog_names()[0])
    model_class = adapter_for(spec.model_type).model_class_for(spec.config)
    code = f"import torch, transformers; transformers.{model_class}"
    return code, f"{code}; import gc; gc.freeze()"


def _floor(code: str, frozen: str, wall_s: float, frozen_wall_s: float) -> dict[str, Any]:
    return {"command": f"python -c {code!r}", "wall_s": wall_s,
            "frozen_exit_command": f"python -c {frozen!r}", "frozen_exit_wall_s": frozen_wall_s}  # fmt: skip


def import_floor(repeats: int = 3) -> dict[str, Any]:
    """What any measuring process pays first: torch, transformers and the first catalog model's class.

    Also the same process with the collector frozen before it exits: the floor as
    the issue states it pays the interpreter's last walk over torch's objects,
    which the survey does not, so both ratios are reported.
    """
    code, frozen = floor_codes()
    return _floor(code, frozen, _wall([sys.executable, "-c", code], repeats),
                  _wall([sys.executable, "-c", frozen], repeats))  # fmt: skip


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


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return sorted(runs, key=lambda run: run["wall_s"])[len(runs) // 2]


def time_surveys(device: str, dtype: str, repeats: int = 3) -> dict[str, Any]:
    """``time_survey`` ``repeats`` times with the default ``--jobs`` and once with ``--jobs 1``, interleaved;
    the median run by wall time, with every wall time and the one-process run."""
    return survey_rounds(device, dtype, repeats, floor=False, split=False)["survey"]


def survey_rounds(device: str, dtype: str, repeats: int = 3, *, floor: bool = True, split: bool = True
                  ) -> dict[str, Any]:  # fmt: skip
    """``repeats`` rounds, each of: the import floor (and its frozen-exit form), ``ecwidth survey`` with the
    default ``--jobs``, the same under ``timed_survey`` (``split``), and with ``--jobs 1``. Interleaved, so a
    change in the machine's load falls on every figure alike.

    Returns ``survey`` (``time_surveys``'), ``import_floor`` (``import_floor``'s keys, medians) and
    ``survey_split`` (``split_summary``), the last two ``None`` where not asked for.
    """
    codes = floor_codes() if floor else None
    runs, alone, splits, floors, frozen = [], [], [], [], []
    for round_ in range(1, repeats + 1):
        log(f"survey round {round_} of {repeats}")
        if codes:
            floors.append(_wall_once([sys.executable, "-c", codes[0]]))
            frozen.append(_wall_once([sys.executable, "-c", codes[1]]))
        runs.append(time_survey(device, dtype))
        if split:
            splits.append(time_survey(device, dtype, timed=True)["split"])
        alone.append(time_survey(device, dtype, jobs=1))
    survey = {**_median_run(runs), "walls_s": [run["wall_s"] for run in runs], "one_process": _median_run(alone)}
    return {
        "survey": survey,
        "import_floor": None
        if not codes
        else _floor(*codes, statistics.median(floors), statistics.median(frozen))
        | {"walls_s": floors, "frozen_exit_walls_s": frozen},
        "survey_split": split_summary(splits) if split else None,
    }


def survey_command(device: str, dtype: str, folder: str, jobs: int | None = None,
                   models: list[str] | None = None) -> list[str]:  # fmt: skip
    """``ecwidth survey`` over the catalog (or ``models``) into ``folder``, as the installed command (or
    ``python -m ecwidth``)."""
    script = Path(sys.executable).with_name("ecwidth")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "ecwidth"]
    command += [
        "survey",
        *(["--models", *models] if models else []),
        "--device",
        device,
        "--dtype",
        dtype,
        "-o",
        folder,
    ]
    return command + ([] if jobs is None else ["--jobs", str(jobs)])


def time_survey(device: str, dtype: str, command: list[str] | None = None, jobs: int | None = None, *,
                timed: bool = False, models: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
    """Wall time and peak RSS of ``ecwidth survey`` over the catalog (or ``models``, or ``command``) in a fresh
    process; ``jobs`` passes ``--jobs`` (``None``: the default). ``timed`` runs the command under
    ``timed_survey`` and adds its ``split`` (``survey_split``)."""
    with tempfile.TemporaryDirectory() as folder:
        if command is None:
            command = survey_command(device, dtype, folder, jobs, models)
            if timed:  # the same arguments, the same command, under the clock
                arguments = command[command.index("survey") :]
                command = [sys.executable, str(TIMED_SURVEY), str(Path(folder, "split.json")), *arguments]
        shown = " ".join(command).replace(folder, "DIR").replace(f"{Path(sys.executable).parent}/", "")
        shown = shown.replace(f"{ROOT}/", "")
        env = dict(os.environ, HF_HUB_OFFLINE="1")
        out_path, err_path = Path(folder, "stdout.txt"), Path(folder, "stderr.txt")
        peak, done = [0], threading.Event()
        with out_path.open("w") as out, err_path.open("w") as err:
            started, launched = time.perf_counter(), time.monotonic()
            process = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=ROOT)
            sampler = threading.Thread(target=_sample_rss, args=(process.pid, peak, done), daemon=True)
            sampler.start()
            _, status, usage = os.wait4(process.pid, 0)
            wall_s, reaped = time.perf_counter() - started, time.monotonic()
            process.returncode = os.waitstatus_to_exitcode(status)
            done.set()
            sampler.join()
        stderr = err_path.read_text()
        split = survey_split(Path(folder, "split.json"), launched, reaped) if timed else None
    summary = re.search(r"(\d+) model\(s\) in ([\d.]+) s of measuring", stderr)  # status goes to stderr
    workers = re.search(r"across (\d+) worker processes", stderr)
    result = {
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
    return result if split is None else {**result, "split": split}


# -- the survey's split -------------------------------------------------------------------------

#: The split's phases in the order they run: (key, what it is). They add up to the wall time; an indented one
#: (``measuring`` and its parts; the imports "of which") is a part of the phase above it.
PHASES = (
    ("process_start", "process start: the interpreter and site, to the command's first line"),
    ("parent_imports", "the parent's imports: ecwidth, torch, transformers"),
    ("parent_setup", "argument parsing and set-up, up to the survey"),
    ("configs", "reading the configs"),
    ("warm_up", "warm-up: importing each family's modelling module"),
    ("survey_other", "the survey's own bookkeeping (device, names, serving checks, rows)"),
    ("measuring", "measuring in the workers, from the first fork to the last reaped"),
    ("table", "writing the table (json, csv, md) and rendering it"),
    ("exit", "status lines and the command's exit"),
)
MEASURING = (
    ("worker_start", "fork, to the worker's first line"),
    ("worker_configs", "reading its models' configs (their imports included)"),
    ("worker_warm_up", "importing its models' modelling modules"),
    ("worker_imports", "other imports in the worker (inside builds and encodes)"),
    ("builds", "tower builds, less their imports"),
    ("encodes", "encodes, less their imports"),
    ("per_model_other", "the rest of each model: checks, predict, engine sizes, rows sent back"),
    ("worker_idle", "waiting: hand-outs, the last worker's tail, reaping"),
)
OF_WHICH = {"configs": "configs_imports", "warm_up": "warm_up_imports"}


def survey_split(path: Path, launched: float, reaped: float) -> dict[str, Any] | None:
    """Seconds per phase (``PHASES``, ``MEASURING``) of one ``timed_survey`` run, from its records at ``path``
    (the parent's) and ``path.<pid>`` (each worker's); the measuring parts are the mean over the workers. ``None``
    where the run left no record (it failed before the command returned)."""
    if not path.exists():
        return None
    parent = json.loads(path.read_text())
    workers = [json.loads(p.read_text()) for p in path.parent.glob(f"{path.name}.*")]
    marks, imports = parent["marks"], parent["imports_s"]
    started, survey_started = parent["started"], marks.get("survey_started", parent["done"])
    survey_s = marks.get("survey_ended", survey_started) - survey_started  # one call: its span
    measuring = marks.get("measuring_ended", 0.0) - marks.get("measuring_started", 0.0)
    split = {
        "wall_s": reaped - launched,
        "process_start": started - launched,
        "parent_imports": imports.get("imports", 0.0),
        "parent_setup": survey_started - started - imports.get("imports", 0.0),
        "configs": marks.get("configs_s", 0.0),
        "configs_imports": imports.get("configs", 0.0),
        "warm_up": marks.get("warm_up_s", 0.0),
        "warm_up_imports": imports.get("warm_up", 0.0),
        "survey_other": survey_s - marks.get("configs_s", 0.0) - marks.get("warm_up_s", 0.0) - measuring,
        "measuring": measuring,
        "table": marks.get("table_s", 0.0),
        "exit": reaped - marks.get("survey_ended", parent["done"]) - marks.get("table_s", 0.0),
        "configs_read": marks.get("configs_calls", 0)
        + sum(w.get("phases_s", {}).get("configs_calls", 0) for w in workers),
        "jobs": parent["jobs"],
        "workers": len(workers),
        "models_measured": len(parent["costs"]),
        "parent_gc_s": parent.get("gc_s"),
        "parent_gc_by_phase_s": parent.get("gc_by_phase_s", {}),
    }
    slowest = sorted(parent["costs"], key=lambda cost: -cost["total_s"])[:5]
    split["slowest_models"] = [
        {key: cost[key] for key in ("model", "build_s", "encode_s", "total_s")} for cost in slowest
    ]
    split["builds_sum_s"] = sum(cost["build_s"] for cost in parent["costs"])
    split["encodes_sum_s"] = sum(cost["encode_s"] for cost in parent["costs"])
    if workers:
        mean = statistics.fmean
        phases = [w.get("phases_s", {}) for w in workers]
        busy = [sum(seconds for _, seconds in w["items"]) for w in workers]
        split["worker_start"] = mean(w["started"] - marks["measuring_started"] for w in workers)
        split["worker_configs"] = mean(p.get("configs_s", 0.0) for p in phases)
        split["worker_warm_up"] = mean(p.get("warm_up_s", 0.0) for p in phases)
        split["worker_imports"] = mean(
            sum(seconds for phase, seconds in w["imports_s"].items() if phase not in ("configs", "warm_up"))
            for w in workers
        )
        split["builds"] = mean(
            p.get("build_s", 0.0) - w["imports_s"].get("build", 0.0) for p, w in zip(phases, workers)
        )
        split["encodes"] = mean(p.get("encode_s", 0.0) - w["imports_s"].get("encode", 0.0)
                                for p, w in zip(phases, workers))  # fmt: skip
        split["per_model_other"] = mean(
            b
            - sum(p.get(f"{phase}_s", 0.0) for phase in ("configs", "warm_up", "build", "encode"))
            - w["imports_s"].get("worker", 0.0)
            for b, p, w in zip(busy, phases, workers)
        )
        split["worker_idle"] = measuring - split["worker_start"] - mean(busy)
        split["worker_gc_s"] = mean(w.get("gc_s", 0.0) for w in workers)
        split["items_per_worker"] = [len(w["items"]) for w in workers]
    return split


def split_summary(splits: list[dict[str, Any] | None]) -> dict[str, Any]:
    """The median of each figure over the timed runs (medians need not add up to the median wall), and every
    run's split."""
    runs = [split for split in splits if split is not None]
    keys = [key for key, value in (runs[0] if runs else {}).items() if isinstance(value, int | float)]
    median = {key: statistics.median(run[key] for run in runs if run.get(key) is not None) for key in keys}
    return {"median": median, "runs": runs, "walls_s": [run["wall_s"] for run in runs]}

"""``ecwidth survey`` as the command runs it, with a clock on each part of its wall time.

Run as ``python timed_survey.py SPLIT.json ARGUMENTS...`` with the arguments
``ecwidth`` takes (``survey -o DIR ...``). The command itself runs unchanged
(``ecwidth.cli.commands.run``, its exit included); a few of its functions are
wrapped to note when they start and end, and every outermost import is timed,
so the split says which phase paid which imports. Each forked worker notes its
own lifetime, imports (outside, during the builds, during the encodes), its
garbage collections and each item's time in ``SPLIT.json.<pid>``; the parent
writes ``SPLIT.json`` when the command returns, in ``time.monotonic`` seconds
(one clock for every process on Linux), for ``benchmarks.cost.processes.survey_split``
to turn into phases. A wrapped function the package no longer has is left out,
and its phase reads as not measured.
"""

import time

STARTED = time.monotonic()  # first of all: what came before is the interpreter's own start

import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

# As the ``ecwidth`` script: its own folder first on the path, never this one (whose modules are the benchmark's).
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(sys.executable).parent)


class ImportClock:
    """Seconds spent in outermost imports, by the phase they happen in, and in the garbage collector.

    Every import that loads a module goes through ``_find_and_load`` of the
    frozen import machinery (an ``import`` statement and ``importlib`` both
    look it up at each import), so wrapping it times them all; modules already
    loaded never reach it. Nested imports count in the outermost one.
    """

    def __init__(self) -> None:
        self.phase = "imports"
        self.seconds: dict[str, float] = {}
        self.gc_s = 0.0
        self.gc_by_phase: dict[str, float] = {}
        self._inside = False
        self._collecting = 0.0

    def install(self) -> None:
        import _frozen_importlib as bootstrap

        original = bootstrap._find_and_load

        def find_and_load(name: str, import_: Any) -> Any:
            if self._inside:
                return original(name, import_)
            self._inside, started = True, time.monotonic()
            try:
                return original(name, import_)
            finally:
                self._inside = False
                self.seconds[self.phase] = self.seconds.get(self.phase, 0.0) + time.monotonic() - started

        bootstrap._find_and_load = find_and_load
        gc.callbacks.append(self._collector)

    def _collector(self, stage: str, info: dict[str, Any]) -> None:
        if stage == "start":
            self._collecting = time.monotonic()
        else:
            seconds = time.monotonic() - self._collecting
            self.gc_s += seconds
            self.gc_by_phase[self.phase] = self.gc_by_phase.get(self.phase, 0.0) + seconds


CLOCK = ImportClock()
CLOCK.install()
MARKS: dict[str, float] = {}  # "<phase>_started" / "_ended" / "_s" for the parent's phases
SPLIT = Path(sys.argv[1])


def timed_phase(phase: str, function: Callable[..., Any], marks: dict[str, float] | None = None) -> Callable[..., Any]:
    """``function``, its calls noted as ``phase`` (their imports too); the time of every outermost call adds up."""

    def timed(*args: Any, **keywords: Any) -> Any:
        if CLOCK.phase == phase:  # a call inside another: counted in the outer one
            return function(*args, **keywords)
        before, CLOCK.phase = CLOCK.phase, phase
        noted = (WORKER if IN_WORKER else MARKS) if marks is None else marks
        started = time.monotonic()
        noted.setdefault(f"{phase}_started", started)
        noted[f"{phase}_calls"] = noted.get(f"{phase}_calls", 0) + 1
        try:
            return function(*args, **keywords)
        finally:
            noted[f"{phase}_s"] = noted.get(f"{phase}_s", 0.0) + time.monotonic() - started
            noted[f"{phase}_ended"] = time.monotonic()
            CLOCK.phase = before

    return timed


def wrap(owner: Any, name: str, wrapper: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """``owner.name = wrapper(owner.name)``, where ``owner`` still has it."""
    if hasattr(owner, name):
        setattr(owner, name, wrapper(getattr(owner, name)))


@contextmanager
def _measuring(original: Callable[..., Any], *args: Any) -> Iterator[Any]:
    """``survey._outcomes``, noted as the measuring phase: from forking the workers to the last one reaped."""
    before, CLOCK.phase = CLOCK.phase, "measuring"
    MARKS["measuring_started"] = time.monotonic()
    try:
        with original(*args) as outcomes:
            yield outcomes
    finally:
        MARKS["measuring_ended"] = time.monotonic()
        CLOCK.phase = before


WORKER: dict[str, float] = {}  # a worker's own phases: "configs_s", "warm_up_s", "build_s", "encode_s"
IN_WORKER = False  # set in each forked worker: its phases go to WORKER, not the parent's MARKS


def _worker(original: Callable[..., Any]) -> Callable[..., Any]:
    """``workers._serve``, noting the worker's lifetime, imports and each item's time in ``SPLIT.<pid>``."""

    def serve(function: Callable[[Any], Any], connection: Any, parent: int) -> None:
        global IN_WORKER
        started, IN_WORKER = time.monotonic(), True
        CLOCK.seconds, CLOCK.phase, CLOCK.gc_s, items = {}, "worker", 0.0, []
        WORKER.clear()

        def timed(item: Any) -> Any:
            begun = time.monotonic()
            try:
                return function(item)
            finally:
                items.append([item, time.monotonic() - begun])

        try:
            original(timed, connection, parent)
        finally:
            record = {"started": started, "ended": time.monotonic(), "imports_s": CLOCK.seconds, "gc_s": CLOCK.gc_s,
                      "phases_s": dict(WORKER), "items": items}  # fmt: skip
            Path(f"{SPLIT}.{os.getpid()}").write_text(json.dumps(record))

    return serve


def main() -> int:
    import ecwidth.cli.commands as commands
    import ecwidth.measuring.measure as measure
    import ecwidth.measuring.survey as survey
    import ecwidth.measuring.workers as workers
    from ecwidth.records.table import WidthTable

    MARKS["imported"] = time.monotonic()
    found: dict[str, Any] = {}
    run_survey = survey.survey

    def surveyed(*args: Any, **keywords: Any) -> Any:
        found["survey"] = result = run_survey(*args, **keywords)
        return result

    survey.survey = timed_phase("survey", surveyed)
    wrap(survey, "resolve_spec", lambda f: timed_phase("configs", f))
    wrap(survey, "warm_up", lambda f: timed_phase("warm_up", f))
    wrap(survey, "_outcomes", lambda f: lambda *args: _measuring(f, *args))
    wrap(workers, "_serve", _worker)
    wrap(measure, "_build", lambda f: timed_phase("build", f, WORKER))  # the worker's imports, by what ran them
    wrap(measure, "engine_widths", lambda f: timed_phase("encode", f, WORKER))
    for name in ("write", "render_markdown", "render_json"):
        wrap(WidthTable, name, lambda f: timed_phase("table", f))
    sys.argv = ["ecwidth", *sys.argv[2:]]
    status = commands.run()
    result = found.get("survey")
    record = {
        "started": STARTED,
        "marks": MARKS,
        "imports_s": CLOCK.seconds,
        "gc_s": CLOCK.gc_s,
        "gc_by_phase_s": CLOCK.gc_by_phase,
        "jobs": result.jobs if result else None,
        "costs": result.cost_records if result else [],
        "warmup_s": result.warmup_s if result else None,
        "done": time.monotonic(),
    }
    SPLIT.write_text(json.dumps(record))
    return status


if __name__ == "__main__":
    sys.exit(main())

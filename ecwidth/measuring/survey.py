"""Measure many models and tabulate them.

One process pays the torch/transformers import once; each model is built,
measured and freed in turn, with its own time and peak memory recorded. On a
CPU, ``jobs`` forked workers measure that many models at once
(``ecwidth.measuring.workers``); the table is the same either way.
"""

from __future__ import annotations

import gc
import pickle
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import torch
import transformers

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError, NotServedError, UnsupportedOptionError
from ecwidth.families.adapter import find_adapter
from ecwidth.measuring.deadline import check_timeout, deadline
from ecwidth.measuring.devices import resolve_device, resolve_dtype
from ecwidth.measuring.measure import MeasureResult, measure_resolved
from ecwidth.measuring.memory import peak_memory
from ecwidth.measuring.predict import predict_for
from ecwidth.measuring.progress import Steps
from ecwidth.measuring.workers import fork_map, usable_cores
from ecwidth.reading.catalog import catalog_names
from ecwidth.reading.configs import ModelSpec, name_models, resolve_spec
from ecwidth.records.table import WidthRow, WidthTable
from ecwidth.records.units import check_byte_limit

if TYPE_CHECKING:
    import pandas as pd

#: Per model: seconds, and memory at the start of its measurement (the baseline) and at its peak.
COST_COLUMNS = (
    "model", "build_s", "encode_s", "total_s", "peak_rss_bytes", "start_rss_bytes", "peak_cuda_bytes",
    "start_cuda_bytes",
)  # fmt: skip


def _version() -> str:
    from ecwidth import __version__

    return __version__


def rows_from_result(result: MeasureResult, *, measured_at: str) -> list[WidthRow]:
    """One table row per measured modality, with the provenance of this run."""
    return [
        WidthRow(
            model=result.model,
            modality=modality,
            options=dict(result.options),
            engine=result.engine.engine,
            engine_version=result.engine.version,
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


def by_rule(spec: ModelSpec) -> bool:
    """Whether the model's family only predicts (an ``engine_only`` family that builds nothing): its rows are the
    engine's rule applied to its config, ``source`` ``"predicted"``, never a measurement."""
    adapter = spec.adapter
    return adapter is not None and bool(adapter.predicted_here()) and not adapter.config_modalities(spec.config)


def rows_from_rule(
    name: str, spec: ModelSpec, options: RuntimeOptions, release: Release, *, measured_at: str
) -> list[WidthRow]:
    """One ``predicted`` row per modality the engine's rule gives a model whose family only predicts."""
    adapter = find_adapter(spec.model_type)
    hidden = adapter.lm_hidden_size(spec.config)
    widths = adapter.in_engine_keys(predict_for(spec, adapter, options, release), release)
    return [
        WidthRow(
            model=name, modality=key, options=dict(options.set_options()), engine=release.engine,
            engine_version=release.version, encoder_width=width, lm_hidden_size=hidden, width_ratio=width / hidden,
            deepstack_levels=adapter.deepstack_levels(spec.config, adapter.modality_for_key(key, release)),
            source="predicted", predicted_width=width, matches_prediction=True, ecwidth_version=_version(),
            torch_version=torch.__version__, transformers_version=transformers.__version__, device="none",
            dtype="none", dummy="none", measured_at=measured_at, config_sha256=spec.config_sha256,
        )
        for key, width in sorted(widths.items())
    ]  # fmt: skip


def check_options(model: Any, options: RuntimeOptions, release: Release) -> None:
    """Refuse, before anything is built, a model whose engine class under ``release`` does not take an option
    that is set.

    ``model`` is anything ``resolve_spec`` takes. A model with no multimodal encoder passes: it measures ``{}``
    whatever the options.

    Raises:
        UnsupportedOptionError: Names the option and the model types that take it, or the value is out of range.
        ConfigError: The config cannot be used.
    """
    spec = resolve_spec(model)
    adapter = find_adapter(spec.model_type)
    if adapter is not None:
        adapter.check_options(spec.config, options, release)


def takes_options(model: Any, options: RuntimeOptions, release: Release) -> bool:
    """Whether ``check_options`` passes: the catalog models a survey with these options measures."""
    try:
        check_options(model, options, release)
    except UnsupportedOptionError:
        return False
    return True


def not_served_why(spec: ModelSpec, release: Release) -> str | None:
    """Why ``release`` does not serve the model, or None where it does (or where no family knows it)."""
    adapter = find_adapter(spec.model_type)
    try:
        if adapter is not None:
            adapter.check_served(spec.config, release)
    except NotServedError as error:
        return str(error)
    return None


def warm_up(specs: Iterable[ModelSpec], device: torch.device, *, start_device: bool = True) -> float:
    """Pay a process's one-time costs before the first model, and return the seconds they took.

    The first operation on a device starts it up (a CUDA context takes seconds),
    and the first model of a family imports its modelling code. Paid inside the
    first model's measurement, they would read as that model's cost. Before
    forking workers, ``start_device`` is off: they start the device
    themselves, and a parent that has run no op leaves them no thread pool.
    """
    started = time.perf_counter()
    if start_device:
        torch.ones(8, 8, device=device).matmul(torch.ones(8, 8, device=device)).sum().item()
    for spec in specs:
        adapter = find_adapter(spec.model_type)
        if adapter is not None:
            try:
                getattr(transformers, adapter.model_class_for(spec.config))
            except (EcwidthError, AttributeError):
                continue  # the measurement records why
    return time.perf_counter() - started


@dataclass
class Survey:
    """A survey's width table, its own cost per model and its warm-up, the models that failed, and the catalog
    models left out.

    ``skipped`` lists, with an option set and no models named, the catalog
    models whose engine class does not take it.
    """

    table: WidthTable
    #: One ``COST_COLUMNS`` dict per measured model; ``costs`` is the frame of them.
    cost_records: list[dict[str, Any]] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    #: ``{model: why}`` for the models whose model type the engine release does not serve (no rows).
    not_served: dict[str, str] = field(default_factory=dict)
    #: ``{"<model> <modality>": why}`` for what the engine cannot serve with the options set (no row).
    unserved: dict[str, str] = field(default_factory=dict)
    #: Seconds of one-time work before the first model (``warm_up``), which would otherwise count as its cost.
    warmup_s: float = 0.0
    #: Worker processes that measured the models (1: this process).
    jobs: int = 1

    @property
    def costs(self) -> pd.DataFrame:
        """Seconds and memory per measured model, ``COST_COLUMNS`` (pandas is imported here, not for the CLI)."""
        import pandas as pd

        return pd.DataFrame(self.cost_records, columns=COST_COLUMNS)


def resolve_jobs(jobs: int | str, device: torch.device, dummy: str, models: int) -> int:
    """How many worker processes measure ``models`` models: ``jobs``, or for ``"auto"`` one per usable core on a
    CPU with minimal items, else 1.

    A profile item can take all the cores and gigabytes on its own, so ``"auto"``
    measures those one at a time; a CUDA context does not survive a fork.

    Raises:
        ValueError: ``jobs`` is not a positive integer or ``"auto"``, or is over 1 on a GPU.
    """
    if jobs == "auto":
        return max(1, min(usable_cores(), models)) if device.type == "cpu" and dummy == "minimal" else 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer or 'auto', got {jobs!r}")
    if jobs > 1 and device.type != "cpu":
        raise ValueError(
            f"jobs={jobs} needs the CPU: forked workers cannot share {device}'s context; pass jobs=1 (--jobs 1)"
        )
    return jobs


@dataclass
class _Surveyed:
    """What a survey learned of one model, as a worker sends it back: its rows, or why it has none."""

    rows: list[WidthRow] = field(default_factory=list)
    #: the measurement's ``COST_COLUMNS`` dict; None where nothing was built (the engine's rule, no row).
    cost: dict[str, Any] | None = None
    #: ``{modality: why}`` the engine cannot serve with the options set.
    unserved: dict[str, str] = field(default_factory=dict)
    #: why the release does not serve the model type; None where it does.
    not_served: str | None = None
    #: a catalog model left out: its engine class does not take an option that is set.
    skipped: bool = False
    #: seconds importing the model's modelling code before it was measured (not in its cost).
    warmup_s: float = 0.0

    @property
    def step(self) -> str:
        """The progress note for the model."""
        if self.not_served is not None:
            return "not served"
        if self.skipped:
            return "left out"
        return f"{self.cost['total_s']:.1f} s" if self.cost else "the engine's rule"


@contextmanager
def _outcomes(
    measure_one: Callable[[str], Any], names: Sequence[str], jobs: int
) -> Iterator[Iterator[tuple[str, Any, Exception | None]]]:
    """``(name, measure_one(name), None)`` or ``(name, None, error)`` for each name: in ``jobs`` forked workers
    (``fork_map``), their warnings shown here; with one job, in this process and in order, ecwidth's errors
    returned and any other raised."""
    if jobs == 1:
        yield _here(measure_one, names)
        return
    with fork_map(_warnings_sent_back(measure_one), names, jobs) as outcomes:
        yield _warnings_shown(outcomes)


def _here(measure_one: Callable[[str], Any], names: Sequence[str]) -> Iterator[tuple[str, Any, Exception | None]]:
    for name in names:
        try:
            yield name, measure_one(name), None
        except EcwidthError as error:
            yield name, None, error


def _warnings_sent_back(measure_one: Callable[[str], Any]) -> Callable[[str], Any]:
    """``measure_one`` for a worker: its warnings are recorded and returned with its value, to be shown by the
    parent, which shows each text once."""

    def run(name: str) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = measure_one(name)
        return value, [(str(w.message), _sendable(w.category)) for w in caught]

    return run


def _sendable(category: type[Warning]) -> type[Warning]:
    """``category``, where it can be sent to another process (a class made at run time cannot): else ``UserWarning``."""
    try:
        pickle.dumps(category)
    except (pickle.PicklingError, AttributeError, TypeError):
        return UserWarning
    return category


def _warnings_shown(
    outcomes: Iterator[tuple[str, Any, Exception | None]],
) -> Iterator[tuple[str, Any, Exception | None]]:
    """The outcomes of ``_warnings_sent_back``, each one's warnings warned again here as it comes."""
    for name, sent, error in outcomes:
        if sent is None:
            yield name, None, error
            continue
        value, caught = sent
        for message, category in caught:
            warnings.warn(message, category, stacklevel=2)
        yield name, value, None


def survey(
    models: Iterable[str | ModelSpec] | Mapping[str, Any] | None = None,
    *,
    device: str | torch.device = "auto",
    dtype: str | torch.dtype = "auto",
    dummy: str = "minimal",
    progress: bool = True,
    video_pruning_rate: float = 0.0,
    engine: str | Release | None = None,
    timeout: float | None = None,
    jobs: int | str = 1,
    shape_faithful: bool = True,
    max_memory: int | None = None,
    trust_remote_code: bool = False,
) -> Survey:
    """Measure each model (the whole catalog by default).

    ``models`` is a list of anything ``resolve_spec`` takes (catalog names, hub
    ids, checkpoint folders, config files), each row named after what was
    given; or a mapping ``{row name: model}``.

    ``video_pruning_rate`` is the engine's option (0: off), set on every
    measurement and recorded in every row. With it set, the whole catalog means
    the catalog models whose engine class takes it (the rest are listed in
    ``skipped``); a named model that does not take it is an error.

    ``engine`` names the release every row is for (default: the newest vLLM);
    a model whose model type it does not serve gets no row and is listed in ``not_served``.

    ``timeout`` bounds each model's reading, building and encoding, in seconds; a model
    past it fails (``DeadlineExceeded``, naming the stage) and the others go on.
    ``shape_faithful``, ``max_memory`` and ``trust_remote_code`` are ``measure``'s.

    ``jobs`` worker processes measure that many models at once, forked from
    this one (CPU only; ``"auto"``: see ``resolve_jobs``). Each model's costs
    are its worker's. A worker that dies fails the model it was on
    (``WorkerDied``). Leave it at 1 inside a notebook kernel, whose own
    threads a fork does not carry.

    A model that fails is recorded in ``failures`` with its error, never
    silently dropped; the others are still measured.

    Raises:
        ConfigError: A model cannot be found, or two get one name (checked before any work starts).
        UnsupportedOptionError: A named model does not take an option that is set (checked before any work
            starts), or the value is out of range.
        ValueError: The device, dtype, timeout or jobs is out of range.
    """
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate)
    release = releases.release(engine)
    if timeout is not None:
        timeout = check_timeout(timeout)
    max_memory = check_byte_limit(max_memory)
    torch_device = resolve_device(device)  # once, here, for every model and worker
    torch_dtype = resolve_dtype(dtype, torch_device)
    named = name_models(catalog_names() if models is None else models)
    specs: dict[str, ModelSpec] = {}
    if options.set_options() and models is not None:  # a named model the option does not fit stops all, first
        for name, model in named.items():
            try:
                specs[name] = _read(name, model, timeout, trust_remote_code)
            except EcwidthError:
                continue  # read again and recorded where the model is surveyed
            check_options(specs[name], options, release)
    jobs = resolve_jobs(jobs, torch_device, dummy, len(named))
    parallel = jobs > 1 and len(named) > 1
    jobs = min(jobs, len(named)) if parallel else 1  # the workers started: never more than the models
    warmup_s = warm_up((), torch_device, start_device=not parallel)
    threads = max(1, usable_cores() // jobs)

    def survey_one(name: str) -> _Surveyed:
        with _collector_paused():
            return _survey_one(name)

    def _survey_one(name: str) -> _Surveyed:
        """Read the model's config, then its rows: measured, or the engine's rule; or why it has none."""
        if parallel:
            torch.set_num_threads(threads)  # the workers share the cores
        spec = specs.get(name) or _read(name, named[name], timeout, trust_remote_code)
        if (why := not_served_why(spec, release)) is not None:
            return _Surveyed(not_served=why)
        if options.set_options() and models is None and not takes_options(spec, options, release):
            return _Surveyed(skipped=True)
        if by_rule(spec):
            return _Surveyed(rows_from_rule(name, spec, options, release, measured_at=_now()))
        imports_s = warm_up([spec], torch_device, start_device=False)  # its modelling code, not in its cost
        started = time.perf_counter()
        with peak_memory(torch_device) as peak:
            result = measure_resolved(
                spec, device=torch_device, dtype=torch_dtype, dummy=dummy, options=options, release=release,
                timeout=timeout, shape_faithful=shape_faithful, max_memory=max_memory,
                progress=progress and not parallel,
            )  # fmt: skip
        cost = {
            "model": name,
            "build_s": result.build_s,
            "encode_s": result.encode_s,
            "total_s": time.perf_counter() - started,
            "peak_rss_bytes": peak.rss_bytes,
            "start_rss_bytes": peak.start_rss_bytes,
            "peak_cuda_bytes": peak.cuda_bytes,
            "start_cuda_bytes": peak.start_cuda_bytes,
        }
        return _Surveyed(rows_from_result(result, measured_at=_now()), cost, dict(result.unserved), warmup_s=imports_s)

    done: dict[str, _Surveyed] = {}
    failures: dict[str, str] = {}
    with (
        _outcomes(survey_one, list(named), jobs) as outcomes,  # the workers are forked here,
        Steps(len(named), "ecwidth survey", enabled=progress) as steps,  # before a bar starts its thread
    ):
        for name, outcome, error in outcomes:
            if error is not None:
                if not isinstance(error, EcwidthError):
                    raise error
                failures[name] = str(error)
                steps.done(name, "failed")
                continue
            done[name] = outcome
            steps.done(name, outcome.step)
    surveyed = [done[name] for name in named if name in done]  # the models' order, whichever worker ended first
    return Survey(
        WidthTable([row for outcome in surveyed for row in outcome.rows]),
        cost_records=[outcome.cost for outcome in surveyed if outcome.cost is not None],
        failures={name: failures[name] for name in named if name in failures},
        skipped=[name for name in named if name in done and done[name].skipped],
        not_served={name: done[name].not_served for name in named if name in done and done[name].not_served},
        unserved={f"{name} {modality}": why for name in named if name in done
                  for modality, why in done[name].unserved.items()},
        warmup_s=warmup_s + sum(outcome.warmup_s for outcome in surveyed),
        jobs=jobs,
    )  # fmt: skip


def _read(name: str, model: Any, timeout: float | None, trust_remote_code: bool) -> ModelSpec:
    """The model's config, read within its timeout."""
    with deadline(timeout, name, "reading the config"):
        return resolve_spec(model, name=name, trust_remote_code=trust_remote_code)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection in the block: reading a config, importing modelling code and building a model make
    long-lived objects, and each collection would walk all of them again; what the model leaves is collected
    once, after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")

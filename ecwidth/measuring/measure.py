"""Measure encoder output widths: from a config (``measure``) or on a model built already (``measure_widths``).

The width is read from what the encoder emits, packed as the EC producer
ships it, never from the config: the gap between the two is what measuring
exists to catch. ``measure`` builds a model from a config and compares the
measurement with ``predict_widths``; a mismatch is a warning, never hidden.
Encoding the dummy items is ``ecwidth.measuring.encode``'s; here the engine
release's keys, the build, the result and its warnings.

The public functions take an engine as a name or a ``Release`` and parse it
once; ``engine_widths`` and ``measure_resolved`` are the same for callers that
have parsed it (and resolved the device) already.
"""

from __future__ import annotations

import gc
import time
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.engines.sizers import engine_sizes, undersized
from ecwidth.errors import ConfigError, EcwidthError, NoTokenRuleError
from ecwidth.families.adapter import FamilyAdapter
from ecwidth.families.items import DummySize
from ecwidth.families.snapshot import check_trusted_code_measures
from ecwidth.measuring.build import build_encoder
from ecwidth.measuring.deadline import Stages, check_timeout, deadline
from ecwidth.measuring.devices import dtype_name, resolve_device, resolve_dtype
from ecwidth.measuring.encode import adapter_of, encode_dummies, requested_modalities
from ecwidth.measuring.footprint import check_config_fits
from ecwidth.measuring.predict import predict_for
from ecwidth.reading.configs import ModelSpec, resolve_spec
from ecwidth.records.units import check_byte_limit


class WidthMismatchWarning(UserWarning):
    """The measured width differs from the width predicted from the config."""


class EngineSizeWarning(UserWarning):
    """An engine that sizes from the config allocates a width other than the one its tower ships."""


class ProfileOnCPUWarning(UserWarning):
    """Profile-sized items are about to be encoded on a CPU: seconds on the meta device, minutes for real."""


def _warn_profile_on_cpu(
    adapter: FamilyAdapter, spec: ModelSpec, modalities: Iterable[str] | None, release: Release
) -> None:
    """Say up front how large the profile items are, before minutes of CPU time go into them."""
    sizes = []
    keys = requested_modalities(modalities) or ()
    for modality in [adapter.modality_for_key(key, release) for key in keys] or adapter.config_modalities(spec.config):
        try:
            sizes.append(f"{modality} {adapter.profile_tokens(spec.config, modality)} tokens")
        except NoTokenRuleError:
            sizes.append(f"{modality} of unknown size (no token rule for this family)")
    warnings.warn(
        f"{spec.name}: profile items on the CPU ({', '.join(sizes)}): they run on the meta device in seconds "
        "where the family's code allows, and are encoded for real otherwise, which can take many minutes; "
        "--dummy minimal gives the same width in well under a second",
        ProfileOnCPUWarning,
        stacklevel=3,
    )


@contextmanager
def _own_cycles_collected() -> Iterator[None]:
    """Collect the block's own garbage cycles when it ends, without walking everything made before it.

    A full collection walks every object torch and transformers made (0.1-0.3 s);
    what exists is frozen for the block, so it scans the block's objects alone.
    A caller's own ``gc.freeze()`` stays in place.
    """
    caller_froze = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        yield
    finally:
        gc.collect()
        if not caller_froze:
            gc.unfreeze()


def measure_widths(
    model: nn.Module | None,
    modalities: Iterable[str] | None = None,
    *,
    dummy: DummySize = "minimal",
    adapter: FamilyAdapter | None = None,
    video_pruning_rate: float = 0.0,
    engine: str | Release | None = None,
    shape_faithful: bool = True,
    max_memory: int | None = None,
    progress: bool = True,
) -> dict[str, int]:
    """Encode one dummy item per modality and return ``{modality: last dim of the packed item}``.

    ``adapter`` defaults to the one the model was built with; ``video_pruning_rate``
    is the engine's option (0: off) and ``engine`` the release it is for, whose modality keys ``modalities``
    and the result use; ``shape_faithful``, ``max_memory`` and ``progress`` as in ``ecwidth.measuring.encode.dummy_shapes``.
    A model (or pipeline stage) without a multimodal encoder returns ``{}``.

    Raises:
        ValueError: A requested modality is not accepted, or ``dummy`` is unknown.
        UnsupportedOptionError: The family does not take an option that is set.
        EncodeError: The encoder raised or ran out of memory; names the modality.
    """
    adapter = adapter or adapter_of(model)
    if adapter is None:
        return {}
    release = releases.release(engine)
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate)
    return engine_widths(
        model, modalities, adapter=adapter, release=release, options=options, dummy=dummy,
        shape_faithful=shape_faithful, max_memory=max_memory, progress=progress,
    )  # fmt: skip


def engine_widths(
    model: nn.Module | None,
    keys: Iterable[str] | None,
    *,
    adapter: FamilyAdapter,
    release: Release,
    options: RuntimeOptions,
    dummy: DummySize = "minimal",
    shape_faithful: bool = True,
    max_memory: int | None = None,
    progress: bool = True,
) -> dict[str, int]:
    """``measure_widths`` for a caller that has parsed the release and the options: ``keys`` and the result
    in ``release``'s modality keys, the encoding in the family's own names (``encode_dummies``).

    Raises:
        As ``measure_widths``.
    """
    if keys is not None:
        keys = [adapter.modality_for_key(key, release) for key in requested_modalities(keys)]
    shapes = encode_dummies(
        model, keys, adapter=adapter, release=release, options=options, dummy=dummy,
        shape_faithful=shape_faithful, max_memory=max_memory, progress=progress,
    )  # fmt: skip
    return adapter.in_engine_keys({modality: width for modality, (_, width) in shapes.items()}, release)


@dataclass
class MeasureResult:
    """What ``ecwidth measure --json`` prints, plus provenance and timings."""

    model: str
    model_type: str
    lm_hidden_size: int | None
    widths: dict[str, int]
    predicted: dict[str, int]
    dummy: str
    device: str
    dtype: str
    deepstack_levels: dict[str, int] = field(default_factory=dict)
    #: runtime options set away from the engine's defaults (``RuntimeOptions.set_options``).
    options: dict[str, Any] = field(default_factory=dict)
    #: modalities the engine ships that this family can only predict, each with why.
    predicted_only: dict[str, str] = field(default_factory=dict)
    #: modalities the engine cannot serve with the options set, each with why; left out of ``widths``.
    unserved: dict[str, str] = field(default_factory=dict)
    config_sha256: str = ""
    #: the engine release the widths are for; keys are its modality keys.
    engine: Release = releases.DEFAULT
    #: for an engine that sizes from the config (SGLang): what it allocates per modality key.
    engine_sizes: dict[str, int] = field(default_factory=dict)
    #: with ``dummy="profile"``: the minimal item's widths, which must equal ``widths``.
    minimal_widths: dict[str, int] = field(default_factory=dict)
    #: whose code built the encoder: ``"transformers"``, or ``"checkpoint"`` for a checkpoint's own remote code
    #: (``--trust-remote-code``, ``ecwidth.families.snapshot``).
    built_from: str = "transformers"
    build_s: float = 0.0
    encode_s: float = 0.0

    @property
    def undersized(self) -> dict[str, tuple[int, int]]:
        """``{key: (allocated, shipped)}`` where a sizing engine's formula differs from the shipped width."""
        return {
            key: (size, self.widths[key])
            for key, size in self.engine_sizes.items()
            if key in self.widths and size != self.widths[key]
        }

    @property
    def mismatches(self) -> dict[str, tuple[int, int]]:
        """``{modality: (measured, predicted)}`` wherever the two differ."""
        return {
            m: (w, self.predicted[m]) for m, w in self.widths.items() if m in self.predicted and self.predicted[m] != w
        }

    def as_json(self) -> dict[str, Any]:
        """The keys ``ecwidth measure --json`` prints."""
        keys = ("model", "model_type", "lm_hidden_size", "widths", "predicted", "dummy", "device", "dtype")
        data = asdict(self)
        shown = {key: data[key] for key in keys}
        shown["engine"] = {"name": self.engine.engine, "version": self.engine.version}
        if self.engine_sizes:
            shown["engine_sizes"] = dict(self.engine_sizes)
        if self.options:
            shown["options"] = dict(self.options)
        if self.predicted_only:
            shown["predicted_only"] = dict(self.predicted_only)
        if self.unserved:
            shown["unserved"] = dict(self.unserved)
        if self.built_from != "transformers":
            shown["built_from"] = self.built_from
        return shown


def _build(
    adapter: FamilyAdapter, spec: ModelSpec, device: torch.device, dtype: torch.dtype, max_memory: int | None
) -> nn.Module:
    """``build_encoder``, with what a config can make a tower raise turned into a ``ConfigError``; first, a
    config whose encoder no machine could hold is refused from its fields (``check_config_fits``), in
    microseconds rather than after minutes of building.

    Raises:
        ConfigError: The family's classes cannot be built from this config (sizes that do not divide,
            shapes torch refuses, more layers than any real model); names the model and the exception.
        ResourceError: The encoder's weights would not fit, by the config's fields or once laid out.
    """
    try:
        subject = f"{spec.name} ({spec.model_type})"
        check_config_fits(spec.config, device=device, dtype=dtype, max_memory=max_memory, subject=subject)
        return build_encoder(adapter, spec.config, device=device, dtype=dtype, max_memory=max_memory)
    except EcwidthError:
        raise
    except (RuntimeError, ValueError, TypeError, ZeroDivisionError, AttributeError, IndexError, KeyError) as error:
        raise ConfigError(
            f"{spec.source}: building {spec.model_type} from this config failed ({type(error).__name__}: {error}); "
            "check its sizes against the model's published config.json"
        ) from error


def measure(
    model: str | Path | Mapping[str, Any] | ModelSpec,
    modalities: Iterable[str] | None = None,
    *,
    device: str | torch.device = "auto",
    dtype: str | torch.dtype = "auto",
    dummy: DummySize = "minimal",
    trust_remote_code: bool = False,
    video_pruning_rate: float = 0.0,
    engine: str | Release | None = None,
    timeout: float | None = None,
    shape_faithful: bool = True,
    max_memory: int | None = None,
    progress: bool = True,
) -> MeasureResult:
    """Build a model's encoder from its config (catalog name, path or dict) and measure it, for an engine release.

    ``engine`` names the release the widths are for (``"vllm==0.33.0"``, ``"sglang"``; default: the newest
    vLLM, see ``ecwidth.engines.releases``): it decides whether the model type is served at all, the
    modality keys, the options taken and the modalities left unserved; for an engine that sizes from the
    config, ``engine_sizes`` holds what it allocates, and a difference from the shipped width is a
    ``EngineSizeWarning``. ``modalities`` are the engine's keys.
    A text-only model gives empty ``widths``: it has no multimodal encoder.
    ``timeout`` bounds reading, building and encoding together, in seconds (``None``: unbounded);
    ``max_memory`` overrides the bytes the encoder's weights may take (see ``build_encoder``), and those
    one item's real encode may hold (see ``ecwidth.measuring.footprint``); ``progress`` off hides the profile items' progress.
    ``shape_faithful`` (on by default) skips the arithmetic that the zero
    weights make known (``ecwidth.measuring.shapes``); off, every product runs.

    Raises:
        ConfigError, RemoteCodeError, UnknownModelTypeError: The config cannot be used,
            or a model cannot be built from it.
        NotServedError: The engine release does not serve the model type; says why.
        UnknownEngineError: ``engine`` names no release ecwidth knows.
        EncodeError: Encoding failed; names the modality.
        DeadlineExceeded: Reading, building or encoding ran past ``timeout``; names the model and the stage.
        ResourceError: The encoder's weights, or an item's activations, would not fit the device; names the
            estimate and the limit.
        UnmeasurableError: Every modality of the family is ``predicted_only`` (an ``engine_only`` family's are).
        ValueError: Bad device, dtype, dummy size, modality or timeout.
    """
    if timeout is not None:
        timeout = check_timeout(timeout)
    max_memory = check_byte_limit(max_memory)
    release = releases.release(engine)
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate)
    with deadline(timeout, _subject(model), "reading the config") as stages:
        spec = resolve_spec(model, trust_remote_code=trust_remote_code)
        stages.subject = spec.name
        if trust_remote_code:
            check_trusted_code_measures(spec)
        torch_device = resolve_device(device)
        result = _measure_spec(
            spec, modalities, stages, device=torch_device, dtype=resolve_dtype(dtype, torch_device), dummy=dummy,
            options=options, release=release, shape_faithful=shape_faithful, max_memory=max_memory,
            progress=progress,
        )  # fmt: skip
    _warn_about(result)
    return result


def measure_resolved(
    spec: ModelSpec,
    *,
    device: torch.device,
    dtype: torch.dtype,
    dummy: DummySize,
    options: RuntimeOptions,
    release: Release,
    timeout: float | None,
    shape_faithful: bool,
    max_memory: int | None,
    progress: bool,
) -> MeasureResult:
    """``measure`` of every modality, for a caller that has read the config and checked, parsed and resolved
    the rest once for many models (``ecwidth.measuring.survey``); warns as ``measure`` does.

    Raises:
        As ``measure``, but for what the caller has checked already.
    """
    with deadline(timeout, spec.name, "reading the config") as stages:
        result = _measure_spec(
            spec, None, stages, device=device, dtype=dtype, dummy=dummy, options=options, release=release,
            shape_faithful=shape_faithful, max_memory=max_memory, progress=progress,
        )  # fmt: skip
    _warn_about(result)
    return result


def _subject(model: object) -> str:
    """A short name for a model source before its config is read, for a deadline's message."""
    text = model.name if isinstance(model, ModelSpec) else str(model) if isinstance(model, (str, Path)) else "config"
    return text if len(text) <= 80 else text[:77] + "..."


def _measure_spec(
    spec: ModelSpec,
    modalities: Iterable[str] | None,
    stages: Stages,
    *,
    device: torch.device,
    dtype: torch.dtype,
    dummy: DummySize,
    options: RuntimeOptions,
    release: Release,
    shape_faithful: bool,
    max_memory: int | None,
    progress: bool,
) -> MeasureResult:
    """``measure`` once the config is read and the device resolved, inside its deadline."""
    adapter = spec.adapter
    result = MeasureResult(
        model=spec.name,
        model_type=spec.model_type,
        lm_hidden_size=None,
        widths={},
        predicted={},
        dummy=dummy,
        device=str(device),
        dtype=dtype_name(dtype),
        options=options.set_options(),
        config_sha256=spec.config_sha256,
        engine=release,
        built_from="checkpoint" if spec.runs_snapshot_code else "transformers",
    )
    if adapter is None:
        text_config = spec.config.get_text_config()
        result.lm_hidden_size = getattr(text_config, "hidden_size", None)
        return result
    adapter.check_served(spec.config, release)
    adapter.check_measurable(spec.config, spec.name)
    result.lm_hidden_size = adapter.lm_hidden_size(spec.config)
    result.predicted_only = adapter.in_engine_keys(adapter.predicted_here(), release)
    unserved = adapter.unserved(spec.config, options, release)
    result.unserved = adapter.in_engine_keys(unserved, release)
    if dummy == "profile" and device.type == "cpu":
        _warn_profile_on_cpu(adapter, spec, modalities, release)
    measured = dict(release=release, options=options, max_memory=max_memory)
    with _own_cycles_collected():
        stages.current = "building the encoder"
        started = time.perf_counter()
        built = _build(adapter, spec, device, dtype, max_memory)
        result.build_s = time.perf_counter() - started
        try:
            stages.current = "encoding the dummy items"
            started = time.perf_counter()
            result.widths = engine_widths(
                built, modalities, dummy=dummy, adapter=adapter, shape_faithful=shape_faithful, progress=progress,
                **measured,
            )  # fmt: skip
            result.encode_s = time.perf_counter() - started
            if dummy == "profile":  # the engine's own item: its width must be the minimal item's
                result.minimal_widths = engine_widths(
                    built, list(result.widths), adapter=adapter, progress=progress, **measured
                )
        finally:
            del built  # freed by reference counting; the cycles a family leaves go at the block's end
    predicted = adapter.in_engine_keys(predict_for(spec, adapter, options, release), release)
    result.predicted = {key: predicted[key] for key in result.widths if key in predicted}
    result.deepstack_levels = {
        key: adapter.deepstack_levels(spec.config, adapter.modality_for_key(key, release)) for key in result.widths
    }
    result.engine_sizes = engine_sizes(release, spec.config, list(result.widths))
    return result


def _warn_about(result: MeasureResult) -> None:
    """Say where the profile and minimal items, the config's prediction, or a sizing engine disagree."""
    for key, width in result.minimal_widths.items():
        if width != result.widths[key]:
            warnings.warn(
                f"{result.model}: the profile {key} item is {result.widths[key]} wide but the minimal "
                f"one is {width}; the width depends on the item's size",
                WidthMismatchWarning,
                stacklevel=3,
            )
    for key, (measured, expected) in result.mismatches.items():
        warnings.warn(
            f"{result.model}: measured {key} width {measured} but the config predicts {expected}; "
            "the measurement is what the producer ships",
            WidthMismatchWarning,
            stacklevel=3,
        )
    for key, (allocated, shipped) in result.undersized.items():
        warnings.warn(undersized(result.model, result.engine, key, allocated, shipped), EngineSizeWarning, stacklevel=3)

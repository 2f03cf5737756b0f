"""Measure encoder output widths by encoding one dummy item per modality.

The width is read from what the encoder emits, packed as the EC producer
ships it, never from the config: the gap between the two is what measuring
exists to catch. ``measure`` builds a model from a config and compares the
measurement with ``predict_widths``; a mismatch is a warning, never hidden.
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
from ecwidth.errors import (
    ConfigError,
    EcwidthError,
    EncodeError,
    NoTokenRuleError,
    UnmeasurableError,
    UnsupportedOptionError,
)
from ecwidth.families.adapter import FamilyAdapter, find_adapter
from ecwidth.families.items import DUMMY_SIZES, DummySize
from ecwidth.measuring.build import build_encoder
from ecwidth.measuring.deadline import Stages, check_timeout, deadline
from ecwidth.measuring.devices import dtype_name, resolve_device, resolve_dtype
from ecwidth.measuring.footprint import check_config_fits, check_item_fits
from ecwidth.measuring.predict import predict_for
from ecwidth.measuring.progress import Steps
from ecwidth.measuring.shapes import known_products, meta_activations, zero_storage_ptrs
from ecwidth.reading.configs import ModelSpec, resolve_spec
from ecwidth.records.units import check_byte_limit


class WidthMismatchWarning(UserWarning):
    """The measured width differs from the width predicted from the config."""


class EngineSizeWarning(UserWarning):
    """An engine that sizes from the config allocates a width other than the one its tower ships."""


class MetaFallbackWarning(UserWarning):
    """A profile item could not run on the meta device and was encoded for real."""


class ProfileOnCPUWarning(UserWarning):
    """Profile-sized items are about to be encoded on a CPU: seconds on the meta device, minutes for real."""


def _warn_profile_on_cpu(
    adapter: FamilyAdapter, spec: ModelSpec, modalities: Iterable[str] | None, release: Release
) -> None:
    """Say up front how large the profile items are, before minutes of CPU time go into them."""
    sizes = []
    keys = _requested(modalities) or ()
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


def _adapter_of(model: nn.Module | None) -> FamilyAdapter | None:
    """The adapter ``build_encoder`` built the model with; for a model built elsewhere, its family's."""
    built_with = getattr(model, "ecwidth_adapter", None)
    if built_with is not None:
        return built_with
    config = getattr(model, "config", None)
    return find_adapter(getattr(config, "model_type", "")) if config is not None else None


def _requested(modalities: Iterable[str] | str | None) -> tuple[str, ...] | None:
    """The modalities asked for, lowercased; ``"image"`` is one modality, not five; None: every one."""
    if modalities is None:
        return None
    if isinstance(modalities, str) or not isinstance(modalities, Iterable):
        modalities = (modalities,)
    return tuple(str(m).lower() for m in modalities)


def _check_request(
    modalities: Iterable[str] | None, accepted: tuple[str, ...], dummy: str, adapter: FamilyAdapter
) -> tuple[str, ...]:
    """The modalities to encode: all accepted ones, or those asked for, matched case-insensitively.

    Raises:
        ValueError: ``dummy`` is unknown, or a modality is not accepted (the accepted ones are listed).
        UnmeasurableError: A modality the family can only predict was asked for; says why.
    """
    if dummy not in DUMMY_SIZES:
        raise ValueError(f"unknown dummy size {dummy!r}; use one of {', '.join(DUMMY_SIZES)}")
    if modalities is None:
        return accepted
    requested = _requested(modalities)
    for modality in requested:
        if modality in adapter.predicted_only:
            raise UnmeasurableError(
                f"{modality} can only be predicted for this family: {adapter.predicted_only[modality]}. "
                "`ecwidth predict` gives its width"
            )
    unknown = [m for m in requested if m not in accepted]
    if unknown:
        raise ValueError(f"the model does not accept {', '.join(map(repr, unknown))}; it accepts {list(accepted)}")
    return requested


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


@contextmanager
def _intra_op_threads(count: int | None) -> Iterator[None]:
    """Cap torch's intra-op threads at ``count`` for the block (``None``: leave them), then restore."""
    previous = torch.get_num_threads()
    if count is None or count >= previous:
        yield
        return
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def _threads_for(adapter: FamilyAdapter, model: nn.Module, dummy: str) -> int | None:
    """One thread for a minimal item on a CPU, else the caller's setting.

    A one-token item is a chain of tiny ops, too small to split across threads;
    each op still ends on a barrier that waits for every thread. When the cores
    are busy with anything else, every barrier waits a scheduler time slice:
    measured on 2 shared cores, a one-token Qwen3-VL-8B item took 2-6 s with 2
    threads and 0.1-0.35 s with 1. A profile item has ops big enough to gain
    from threads, so it keeps them.
    """
    if dummy != "minimal":
        return None
    try:
        _, device = adapter.encoder_dtype_device(model)
    except ValueError:
        return None
    return 1 if device.type == "cpu" else None


def _encode_item(
    adapter: FamilyAdapter,
    model: nn.Module,
    modality: str,
    dummy: str,
    max_tokens: int | None,
    *,
    shape_faithful: bool,
    on_meta: bool,
    zeros: frozenset[int],
    max_memory: int | None = None,
) -> tuple[dict[str, Any], torch.Tensor]:
    """One dummy item and its packed encoding; a shape-faithful profile item runs on the meta device.

    At profile size the skipped products leave attention and the elementwise
    ops, still minutes of a CPU's time for the engine's own item; on the meta
    device (``ecwidth.measuring.shapes.MetaActivationMode``) they cost their bookkeeping
    alone. A family whose code reads an activation's values cannot run there:
    it says so (``MetaFallbackWarning``) and is encoded for real, with the
    zero products still skipped. A real encode is first sized (``ecwidth.measuring.footprint``)
    and refused where it would not fit ``max_memory`` bytes (default: what the device has free).
    ``zeros`` is ``zero_storage_ptrs([model])``: empty for a model built elsewhere.

    Raises:
        ResourceError: The real encode's activations would not fit.
    """
    reason = None
    if on_meta and dummy == "profile" and zeros:
        try:
            with meta_activations(model, zeros):
                item = adapter.dummy_item(model, modality, dummy, max_tokens=max_tokens)
                return item, adapter.encode(model, modality, item)
        except EcwidthError:
            raise
        except Exception as error:  # whatever meta execution cannot do, the real encode below does or reports
            reason = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:200]}"
    if zeros:  # sized on the meta device, which needs the build's zero weights
        check_item_fits(adapter, model, modality, dummy, max_tokens, max_memory, zeros)
    item = adapter.dummy_item(model, modality, dummy, max_tokens=max_tokens)
    with known_products(model, enabled=shape_faithful, zeros=zeros):
        packed = adapter.encode(model, modality, item)
    if reason is not None:  # said once the real encode worked; where it fails too, its own error says it all
        warnings.warn(
            f"{type(model).__name__}: the profile {modality!r} item cannot run on the meta device ({reason}); "
            "it was encoded for real",
            MetaFallbackWarning,
            stacklevel=4,
        )
    return item, packed


@torch.inference_mode()
def dummy_shapes(
    model: nn.Module | None,
    modalities: Iterable[str] | None = None,
    *,
    dummy: DummySize = "minimal",
    max_tokens: int | None = None,
    adapter: FamilyAdapter | None = None,
    video_pruning_rate: float = 0.0,
    engine: str | Release | None = None,
    shape_faithful: bool = True,
    max_memory: int | None = None,
    progress: bool = True,
) -> dict[str, tuple[int, int]]:
    """Encode one dummy item per modality and return ``{modality: (tokens, width)}`` of the packed item.

    ``measure_widths`` keeps the widths; the token counts are for benchmarks.
    ``max_tokens`` caps a profile item (see ``FamilyAdapter.dummy_item``).
    ``adapter`` defaults to the one the model was built with.
    ``video_pruning_rate`` is the engine's option of that name (0: off), for the
    engine release ``engine`` names (default: the newest vLLM; see ``ecwidth.engines.releases``).
    Keys are ecwidth's modality names; ``measure`` gives them as the engine names them.
    ``shape_faithful`` skips the arithmetic of products with the build's zero
    weights (``ecwidth.measuring.shapes.ZeroWeightMode``); the packed item is the same, bit for bit.
    ``max_memory`` overrides the bytes an item encoded for real may hold (default:
    what the device has free; see ``ecwidth.measuring.footprint``). ``progress`` off hides the
    line each profile item prints as it ends (``ecwidth.measuring.progress``).
    A model (or pipeline stage) without a multimodal encoder returns ``{}``.

    Raises:
        ValueError: A requested modality is not accepted, or ``dummy`` is unknown.
        UnsupportedOptionError: The family does not take an option that is set.
        EncodeError: The encoder raised or ran out of memory; names the modality.
        ResourceError: An item's real encode would not fit in memory.
    """
    options = RuntimeOptions(video_pruning_rate=video_pruning_rate)
    release = releases.release(engine)
    adapter = adapter or _adapter_of(model)
    if adapter is None or not adapter.has_encoder(model):
        return {}
    adapter.check_options(model.config, options, release)
    shapes: dict[str, tuple[int, int]] = {}
    requested = _check_request(modalities, adapter.modalities(model), dummy, adapter)
    unserved = adapter.unserved(model.config, options, release)
    if modalities is not None and (refused := [m for m in requested if m in unserved]):
        others = [m for m in adapter.modalities(model) if m not in unserved]
        raise UnsupportedOptionError(
            f"{model.config.model_type} {refused[0]}: {unserved[refused[0]]}. "
            + (f"The other modalities still measure: --modality {' --modality '.join(others)}." if others else "")
        )
    requested = tuple(m for m in requested if m not in unserved)
    # A profile item can take minutes where it cannot run on meta: say how each one went as it ends.
    zeros = zero_storage_ptrs([model])
    steps = Steps(
        len(requested), f"{type(model).__name__} profile items", unit="item", enabled=progress and dummy == "profile"
    )
    with _intra_op_threads(_threads_for(adapter, model, dummy)), steps:
        for modality in requested:
            started = time.perf_counter()
            try:
                item, packed = _encode_item(
                    adapter, model, modality, dummy, max_tokens,
                    shape_faithful=shape_faithful, on_meta=shape_faithful and not options.set_options(),
                    zeros=zeros, max_memory=max_memory,
                )  # fmt: skip
                if options.set_options():
                    packed = adapter.apply_options(model, modality, item, packed, options)
            except (UnmeasurableError, UnsupportedOptionError) as error:
                others = [m for m in adapter.modalities(model) if m != modality]
                hint = (
                    f" The other modalities still measure: --modality {' --modality '.join(others)}." if others else ""
                )
                raise type(error)(f"{error}.{hint}" if hint else str(error)) from error
            except EcwidthError:
                raise
            except (RuntimeError, MemoryError, ValueError, TypeError, IndexError) as error:
                hint = " Retry with --dummy minimal (dummy='minimal')." if dummy != "minimal" else ""
                raise EncodeError(
                    f"encoding a {dummy} {modality!r} dummy item through {type(model).__name__} failed: "
                    f"{type(error).__name__}: {error}.{hint}"
                ) from error
            if packed.ndim == 0 or packed.shape[-1] < 1 or packed.shape[:-1].numel() < 1:
                raise EncodeError(
                    f"encoding a {dummy} {modality!r} dummy item through {type(model).__name__} gave an empty "
                    f"tensor of shape {tuple(packed.shape)}; no width can be read from it"
                )
            shapes[modality] = (packed.shape[:-1].numel(), int(packed.shape[-1]))
            del packed, item
            tokens, width = shapes[modality]
            steps.done(modality, f"{tokens} tokens, width {width}, {time.perf_counter() - started:.1f} s")
    return shapes


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
    and the result use; ``shape_faithful``, ``max_memory`` and ``progress`` as in ``dummy_shapes``.
    A model (or pipeline stage) without a multimodal encoder returns ``{}``.

    Raises:
        ValueError: A requested modality is not accepted, or ``dummy`` is unknown.
        UnsupportedOptionError: The family does not take an option that is set.
        EncodeError: The encoder raised or ran out of memory; names the modality.
    """
    adapter = adapter or _adapter_of(model)
    if adapter is None:
        return {}
    if modalities is not None:
        modalities = [adapter.modality_for_key(key, engine) for key in _requested(modalities)]
    shapes = dummy_shapes(
        model,
        modalities,
        dummy=dummy,
        adapter=adapter,
        video_pruning_rate=video_pruning_rate,
        engine=engine,
        shape_faithful=shape_faithful,
        max_memory=max_memory,
        progress=progress,
    )
    return adapter.in_engine_keys({modality: width for modality, (_, width) in shapes.items()}, engine)


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
        result = _measure_spec(
            spec, modalities, stages, device=device, dtype=dtype, dummy=dummy, options=options, release=release,
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
    device: str | torch.device,
    dtype: str | torch.dtype,
    dummy: DummySize,
    options: RuntimeOptions,
    release: Release,
    shape_faithful: bool,
    max_memory: int | None,
    progress: bool,
) -> MeasureResult:
    """``measure`` once the config is read, inside its deadline."""
    torch_device = resolve_device(device)
    torch_dtype = resolve_dtype(dtype, torch_device)
    adapter = find_adapter(spec.model_type)
    result = MeasureResult(
        model=spec.name,
        model_type=spec.model_type,
        lm_hidden_size=None,
        widths={},
        predicted={},
        dummy=dummy,
        device=str(torch_device),
        dtype=dtype_name(torch_dtype),
        options=options.set_options(),
        config_sha256=spec.config_sha256,
        engine=release,
    )
    if adapter is None:
        text_config = spec.config.get_text_config()
        result.lm_hidden_size = getattr(text_config, "hidden_size", None)
        return result
    adapter.check_served(spec.config, release)
    if adapter.predicted_only and not adapter.config_modalities(spec.config):
        whys = "; ".join(f"{modality}: {why}" for modality, why in adapter.predicted_only.items())
        raise UnmeasurableError(
            f"{spec.name} ({spec.model_type}) is predicted only ({whys}); `ecwidth predict` gives its width"
        )
    result.lm_hidden_size = adapter.lm_hidden_size(spec.config)
    result.predicted_only = adapter.in_engine_keys(adapter.predicted_only, release)
    unserved = adapter.unserved(spec.config, options, release)
    result.unserved = adapter.in_engine_keys(unserved, release)
    if dummy == "profile" and torch_device.type == "cpu":
        _warn_profile_on_cpu(adapter, spec, modalities, release)
    measured = dict(video_pruning_rate=options.video_pruning_rate, engine=release, max_memory=max_memory)
    with _own_cycles_collected():
        stages.current = "building the encoder"
        started = time.perf_counter()
        built = _build(adapter, spec, torch_device, torch_dtype, max_memory)
        result.build_s = time.perf_counter() - started
        try:
            stages.current = "encoding the dummy items"
            started = time.perf_counter()
            result.widths = measure_widths(
                built, modalities, dummy=dummy, adapter=adapter, shape_faithful=shape_faithful, progress=progress,
                **measured,
            )  # fmt: skip
            result.encode_s = time.perf_counter() - started
            if dummy == "profile":  # the engine's own item: its width must be the minimal item's
                result.minimal_widths = measure_widths(
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

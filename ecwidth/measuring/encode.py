"""Encode one dummy item per modality through a built tower, and read the shape of what it ships.

The width is read from what the encoder emits, packed as the EC producer
ships it, never from the config: the gap between the two is what measuring
exists to catch. This module is that step alone, on a model already built
(``ecwidth.measuring.build``): the item, the encode, the packed shape, and
the ways an encode is made cheap (the meta device, skipped zero products,
one thread for a tiny item). ``ecwidth.measuring.measure`` builds the model
and names the result.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn

from ecwidth.engines import releases
from ecwidth.engines.releases import Release
from ecwidth.engines.runtime import RuntimeOptions
from ecwidth.errors import EcwidthError, EncodeError, UnmeasurableError, UnsupportedOptionError
from ecwidth.families.adapter import FamilyAdapter, find_adapter
from ecwidth.families.items import DUMMY_SIZES, DummySize
from ecwidth.measuring.footprint import check_item_fits
from ecwidth.measuring.progress import Steps
from ecwidth.measuring.shapes import known_products, meta_activations, zero_storage_ptrs


class MetaFallbackWarning(UserWarning):
    """A profile item could not run on the meta device and was encoded for real."""


def adapter_of(model: nn.Module | None) -> FamilyAdapter | None:
    """The adapter ``build_encoder`` built the model with; for a model built elsewhere, its family's."""
    built_with = getattr(model, "ecwidth_adapter", None)
    if built_with is not None:
        return built_with
    config = getattr(model, "config", None)
    return find_adapter(getattr(config, "model_type", "")) if config is not None else None


def requested_modalities(modalities: Iterable[str] | str | None) -> tuple[str, ...] | None:
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
    requested = requested_modalities(modalities)
    unmeasurable = adapter.predicted_here()
    for modality in requested:
        if modality in unmeasurable:
            raise UnmeasurableError(
                f"{modality} can only be predicted for this family: {unmeasurable[modality]}. "
                "`ecwidth predict` gives its width"
            )
    unknown = [m for m in requested if m not in accepted]
    if unknown:
        raise ValueError(f"the model does not accept {', '.join(map(repr, unknown))}; it accepts {list(accepted)}")
    return requested


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
    return encode_dummies(
        model, modalities, adapter=adapter or adapter_of(model), release=release, options=options, dummy=dummy,
        max_tokens=max_tokens, shape_faithful=shape_faithful, max_memory=max_memory, progress=progress,
    )  # fmt: skip


@torch.inference_mode()
def encode_dummies(
    model: nn.Module | None,
    modalities: Iterable[str] | None,
    *,
    adapter: FamilyAdapter | None,
    release: Release,
    options: RuntimeOptions,
    dummy: DummySize = "minimal",
    max_tokens: int | None = None,
    shape_faithful: bool = True,
    max_memory: int | None = None,
    progress: bool = True,
) -> dict[str, tuple[int, int]]:
    """``dummy_shapes`` for a caller that has parsed the release and the options (``adapter`` None: no encoder).

    Raises:
        As ``dummy_shapes``.
    """
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
                hint = (
                    " Retry with --dummy minimal (dummy='minimal')."
                    if dummy != "minimal"
                    else " Check the config's sizes against the model's published config.json: one that disagrees "
                    "with another (a projector's input with its tower's output) fails here."
                )
                raise EncodeError(
                    f"encoding a {dummy} {modality!r} dummy item through {type(model).__name__} failed: "
                    f"{type(error).__name__}: {str(error).rstrip('.')}.{hint}"
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

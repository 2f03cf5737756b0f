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
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import DUMMY_SIZES, DummySize, FamilyAdapter, find_adapter
from ecwidth.build import build_encoder
from ecwidth.configs import ModelSpec, resolve_spec
from ecwidth.devices import dtype_name, resolve_device, resolve_dtype
from ecwidth.errors import EcwidthError, EncodeError


class WidthMismatchWarning(UserWarning):
    """The measured width differs from the width predicted from the config."""


def _adapter_of(model: nn.Module | None) -> FamilyAdapter | None:
    config = getattr(model, "config", None)
    return find_adapter(getattr(config, "model_type", "")) if config is not None else None


def _check_request(modalities: Iterable[str] | None, accepted: tuple[str, ...], dummy: str) -> tuple[str, ...]:
    if dummy not in DUMMY_SIZES:
        raise ValueError(f"unknown dummy size {dummy!r}; use one of {', '.join(DUMMY_SIZES)}")
    if modalities is None:
        return accepted
    requested = tuple(modalities)
    unknown = [m for m in requested if m not in accepted]
    if unknown:
        raise ValueError(f"the model does not accept {', '.join(map(repr, unknown))}; it accepts {list(accepted)}")
    return requested


@torch.inference_mode()
def measure_widths(
    model: nn.Module | None, modalities: Iterable[str] | None = None, *, dummy: DummySize = "minimal"
) -> dict[str, int]:
    """Encode one dummy item per modality and return ``{modality: last dim of the packed item}``.

    A model (or pipeline stage) without a multimodal encoder returns ``{}``.

    Raises:
        ValueError: A requested modality is not accepted, or ``dummy`` is unknown.
        EncodeError: The encoder raised or ran out of memory; names the modality.
    """
    adapter = _adapter_of(model)
    if adapter is None or not adapter.has_encoder(model):
        return {}
    widths: dict[str, int] = {}
    for modality in _check_request(modalities, adapter.modalities(model), dummy):
        try:
            item = adapter.dummy_item(model, modality, dummy)
            packed = adapter.encode(model, modality, item)
        except EcwidthError:
            raise
        except (RuntimeError, MemoryError, ValueError, TypeError, IndexError) as error:
            hint = " Retry with --dummy minimal (dummy='minimal')." if dummy != "minimal" else ""
            raise EncodeError(
                f"encoding a {dummy} {modality!r} dummy item through {type(model).__name__} failed: "
                f"{type(error).__name__}: {error}.{hint}"
            ) from error
        widths[modality] = int(packed.shape[-1])
        del packed, item
    return widths


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
    config_sha256: str = ""
    build_s: float = 0.0
    encode_s: float = 0.0

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
        return {key: data[key] for key in keys}


def measure(
    model: str | Path | Mapping[str, Any] | ModelSpec,
    modalities: Iterable[str] | None = None,
    *,
    device: str | torch.device = "auto",
    dtype: str | torch.dtype = "auto",
    dummy: DummySize = "minimal",
    trust_remote_code: bool = False,
) -> MeasureResult:
    """Build a model's encoder from its config (catalog name, path or dict) and measure it.

    A text-only model gives empty ``widths``: it has no multimodal encoder.

    Raises:
        ConfigError, RemoteCodeError, UnknownModelTypeError: The config cannot be used.
        EncodeError: Encoding failed; names the modality.
        ValueError: Bad device, dtype, dummy size or modality.
    """
    spec = resolve_spec(model, trust_remote_code=trust_remote_code)
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
        config_sha256=spec.config_sha256,
    )
    if adapter is None:
        text_config = spec.config.get_text_config()
        result.lm_hidden_size = getattr(text_config, "hidden_size", None)
        return result
    result.lm_hidden_size = adapter.lm_hidden_size(spec.config)
    started = time.perf_counter()
    built = build_encoder(adapter, spec.config, device=torch_device, dtype=torch_dtype)
    result.build_s = time.perf_counter() - started
    try:
        started = time.perf_counter()
        result.widths = measure_widths(built, modalities, dummy=dummy)
        result.encode_s = time.perf_counter() - started
    finally:
        del built
        gc.collect()
    predicted = adapter.predict(spec.config)
    result.predicted = {m: predicted[m] for m in result.widths if m in predicted}
    result.deepstack_levels = {m: adapter.deepstack_levels(spec.config, m) for m in result.widths}
    for modality, (measured, expected) in result.mismatches.items():
        warnings.warn(
            f"{spec.name}: measured {modality} width {measured} but the config predicts {expected}; "
            "the measurement is what the producer ships",
            WidthMismatchWarning,
            stacklevel=2,
        )
    return result

"""Build a family's encoder from a tiny config dict, on the CPU in float32, as the tests need it."""

from typing import Any

import torch

from ecwidth.families.adapter import FamilyAdapter, adapter_for
from ecwidth.measuring.build import build_encoder
from ecwidth.reading.configs import resolve_spec


def build_on_cpu(config: dict[str, Any]) -> torch.nn.Module:
    """The model ``ecwidth.measuring.measure`` would build for ``config``, on the CPU in float32."""
    spec = resolve_spec(config)
    return build_encoder(adapter_for(spec.model_type), spec.config, device=torch.device("cpu"), dtype=torch.float32)


def built(config: dict[str, Any]) -> tuple[FamilyAdapter, torch.nn.Module]:
    """The family's adapter and its built model."""
    return adapter_for(config["model_type"]), build_on_cpu(config)


def randomize(*modules: torch.nn.Module, std: float = 0.1) -> None:
    """Seeded random values in every parameter with storage, so two computations of a slice can be compared."""
    torch.manual_seed(0)
    with torch.no_grad():
        for module in modules:
            for param in module.parameters():
                if not param.is_meta:
                    param.normal_(0, std)


def encoded(adapter: FamilyAdapter, model: torch.nn.Module, modality: str, size: str, **kwargs: Any) -> torch.Tensor:
    """What ``model`` ships for the family's own dummy item of ``size`` (``max_tokens=`` for a capped profile)."""
    with torch.inference_mode():
        return adapter.encode(model, modality, adapter.dummy_item(model, modality, size, **kwargs))

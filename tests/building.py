"""Build a family's encoder from a tiny config dict, on the CPU in float32, as the tests need it."""

from typing import Any

import torch

from ecwidth.adapter import FamilyAdapter, adapter_for
from ecwidth.build import build_encoder
from ecwidth.configs import resolve_spec


def build_on_cpu(config: dict[str, Any]) -> torch.nn.Module:
    """The model ``ecwidth.measure`` would build for ``config``, on the CPU in float32."""
    spec = resolve_spec(config)
    return build_encoder(adapter_for(spec.model_type), spec.config, device=torch.device("cpu"), dtype=torch.float32)


def built(config: dict[str, Any]) -> tuple[FamilyAdapter, torch.nn.Module]:
    """The family's adapter and its built model."""
    return adapter_for(config["model_type"]), build_on_cpu(config)

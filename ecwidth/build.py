"""Build a family's encoder at published size without paying for weights.

The width is a function of the architecture, not of the weights, so the
model is constructed with every parameter on the meta device (no storage, no
init), then only the encoder's parameters get real, uninitialised storage.
Buffers (rotary frequencies, position ids) are computed for real during
construction, because the forward pass depends on them. The language model
stays on meta: it is never given storage and never run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn

from ecwidth.adapter import FamilyAdapter, resolve


@contextmanager
def parameters_on_meta() -> Iterator[None]:
    """Register every new parameter on the meta device; buffers stay real."""
    original = nn.Module.register_parameter

    def register_on_meta(module: nn.Module, name: str, param: nn.Parameter | None) -> None:
        if param is not None and param.device.type != "meta":
            param = nn.Parameter(param.to("meta"), requires_grad=param.requires_grad)
        original(module, name, param)

    nn.Module.register_parameter = register_on_meta
    try:
        yield
    finally:
        nn.Module.register_parameter = original


def materialize(module: nn.Module, device: torch.device, dtype: torch.dtype) -> None:
    """Give a module's parameters empty storage on ``device`` and move its buffers there.

    Floating parameters take ``dtype``; buffers keep theirs (rotary tables stay fp32).
    """
    for submodule in module.modules():
        for name, param in list(submodule._parameters.items()):
            if param is None:
                continue
            param_dtype = dtype if param.dtype.is_floating_point else param.dtype
            storage = torch.empty(param.shape, dtype=param_dtype, device=device)
            submodule._parameters[name] = nn.Parameter(storage, requires_grad=False)
        for name, buffer in list(submodule._buffers.items()):
            if buffer is not None and buffer.device != device:
                submodule._buffers[name] = buffer.to(device)


def build_encoder(adapter: FamilyAdapter, config: Any, *, device: torch.device, dtype: torch.dtype) -> nn.Module:
    """Construct the adapter's model class from ``config``; only the encoder gets storage.

    Raises:
        ValueError: The built model lacks one of the adapter's encoder submodules.
    """
    from transformers.initialization import no_init_weights

    with parameters_on_meta(), no_init_weights():
        model = adapter.construct(config, dtype)
    for path in adapter.encoder_attributes:
        module = resolve(model, path)
        if module is None:
            raise ValueError(f"{type(model).__name__} built from this config has no {path!r} submodule")
        materialize(module, device, dtype)
    return model.eval().requires_grad_(False)

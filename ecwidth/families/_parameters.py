"""Bare parameters a family's packing reads: learned separators and newlines that are no submodule of the encoder.

``encoder_attributes`` names submodules, which the build materialises; a
parameter that sits on the model itself (DeepSeek-OCR-2's ``view_separator``,
Unlimited-OCR's ``image_newline``) stays on meta, and the first packing that
concatenates it fails. ``give_storage`` gives such parameters zeros on the
encoder's device before the feature method runs: their values do not change
the width, and zeros keep stale allocator bytes out of the item.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch
    from torch import nn


def give_storage(model: nn.Module, names: tuple[str, ...], dtype: torch.dtype, device: torch.device) -> None:
    """Replace each named bare parameter of ``model`` that is still on meta with zeros of its shape."""
    import torch
    from torch import nn

    for name in names:
        param = getattr(model, name)
        if param.is_meta:
            setattr(
                model, name, nn.Parameter(torch.zeros(param.shape, dtype=dtype, device=device), requires_grad=False)
            )

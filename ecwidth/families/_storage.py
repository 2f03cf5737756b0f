"""Storage for a bare parameter of the model that the encoder reads but no encoder submodule holds.

The build gives storage to the encoder's submodules only (``ecwidth.measuring.build``),
so a parameter registered on the model itself (BLIP-2's ``query_tokens``,
DeepSeek-VL hybrid's ``high_res_vision_alpha``) stays on meta; the width does
not depend on its values, so zeros on the encoder's device do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch
    from torch import nn


def give_storage(model: nn.Module, name: str, dtype: torch.dtype, device: torch.device) -> None:
    """Replace the meta parameter ``model.<name>`` by zeros of its shape on ``device``; a real one stays."""
    import torch
    from torch import nn

    param = getattr(model, name)
    if param.device.type == "meta":
        setattr(model, name, nn.Parameter(torch.zeros(param.shape, dtype=dtype, device=device), requires_grad=False))

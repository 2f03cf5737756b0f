"""Fuyu (``fuyu``): one linear patch embedding to the text width, which no vLLM path can ship.

We measure what transformers' model feeds its LM: ``FuyuModel.get_image_features``
applies ``vision_embed_tokens``, a linear map from ``patch_size² × num_channels``
pixels to ``text_config.hidden_size``, one row per patch, and returns it as
``last_hidden_state`` only (its ``pooler_output`` is ``None``, which is why the
Transformers backend cannot ship it).

Items: flattened ``patch_size × patch_size`` patches, one minimal; the
profile image is the processor's default target size (1080 × 1920, 36 × 64
patches at patch 30). The processor also interleaves newline tokens, which are
text embeddings, and resizes by its own settings: no token rule.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register, rows
from ecwidth.families.items import ItemKind

if TYPE_CHECKING:
    import torch
    from torch import nn

#: ``FuyuImageProcessor.size``: the image every input is scaled and padded to, (height, width).
PROFILE_IMAGE = (1080, 1920)


class FlatPatches(ItemKind):
    """Patches of ``patch_size × patch_size`` pixels, flattened: ``image_patches`` ``[1, patches, patch dim]``."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        patch = config.patch_size
        rows, cols = (math.ceil(side / patch) for side in PROFILE_IMAGE)
        count = 1 if size == "minimal" else min(rows * cols, max_tokens or rows * cols)
        return {"pixel_values": torch.randn(1, count, patch * patch * config.num_channels, dtype=dtype, device=device)}


@register
class FuyuAdapter(FamilyAdapter):
    model_types = ("fuyu",)
    transformers_since = (
        "5.20.2"  # 5.19's FuyuConfig leaves text_config at its default: the tower would project to 4096
    )
    required_fields = ("patch_size", "num_channels", "text_config.hidden_size")
    items = {"image": FlatPatches()}

    def pack(self, model: nn.Module, modality: str, output: Any) -> torch.Tensor:
        return rows(output.last_hidden_state)  # pooler_output is None

"""LFM2-VL (``lfm2_vl``): SigLIP2 NaFlex patches, a pixel-unshuffle projector to the text width.

Each tile's patches go through ``Siglip2VisionModel`` unpadded, then the
projector: pixel unshuffle by ``downsample_factor`` (``vision_config.hidden_size
× factor²``), an optional LayerNorm, ``linear_1`` to ``projector_hidden_size``,
``linear_2`` to the text width; an image ships its tiles (and thumbnail)
concatenated. transformers' ``get_image_features`` runs the same projector, so
the defaults fit.

Items: NaFlex inputs (``pixel_values`` as flattened patches,
``pixel_attention_mask``, ``spatial_shapes`` in patches). vLLM profiles a
square image of ``max_image_tokens`` (the processor's 256) tokens, which the
processor keeps whole (it only tiles images past the token budget):
``sqrt(256) × factor`` patches a side. The minimal item is one unshuffle
window, ``factor × factor`` patches. The processor's smart resize and tiling
have no simple rule, so no token rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind

#: The default image processor's ``max_image_tokens``: vLLM's profile image is that many tokens, untiled.
MAX_IMAGE_TOKENS = 256


@dataclass(frozen=True)
class NaFlexPatches(ItemKind):
    """One image as SigLIP2 NaFlex patches: a square of ``factor``-aligned patch rows."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        factor = config.downsample_factor
        tokens = 1 if size == "minimal" else min(MAX_IMAGE_TOKENS, max_tokens or MAX_IMAGE_TOKENS)
        side = max(1, math.isqrt(tokens)) * factor  # patches a side
        vision = config.vision_config
        patch_dim = vision.num_channels * vision.patch_size**2
        return {
            "pixel_values": torch.randn(1, side * side, patch_dim, dtype=dtype, device=device),
            "pixel_attention_mask": torch.ones(1, side * side, dtype=torch.long, device=device),
            "spatial_shapes": torch.tensor([[side, side]], device=device),
        }


@register
class Lfm2VlAdapter(FamilyAdapter):
    model_types = ("lfm2_vl",)
    required_fields = (
        "downsample_factor",
        "vision_config.hidden_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": NaFlexPatches()}
    look_alikes = ("projector_hidden_size", "vision_config.hidden_size")

"""PaddleOCR-VL: a SigLIP NaViT tower, then a 2×2-merge projector to the LM's hidden size.

The projector (``mlp_AR``: ``pre_norm`` at ``vision_config.hidden_size``, 2×2
patches stacked to 4 × that, ``linear_1``, ``linear_2`` to the LM width) ends at
the top-level ``hidden_size``, which vLLM fills from the text config; the
stacked 4 × ``vision_config.hidden_size`` inside it is not the width.
transformers' ``get_image_features`` applies the same projector
(``PaddleOCRProjector``; it merges ``spatial_merge_size``² patches where vLLM
hard-codes 2×2, the same for the published merge size 2) and returns the
per-image split in ``pooler_output``, so the defaults fit; its pixels are
``[patches, channels, patch, patch]`` rather than flattened rows.

Items follow the transformers image processor (``size`` 147456 to 2359296
pixels, a Qwen-style ``smart_resize`` at patch × merge). The profile image is
vLLM's ``get_image_size_with_most_features``: the token budget
``max_pixels // 28²`` (3009) cut to a multiple of its square root's floor (54),
so 54 × 55 tokens, a 108 × 110 patch grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.patch_grid import PatchGrid

#: transformers' PaddleOCRVLImageProcessor ``size`` (shortest_edge, longest_edge), pixel areas.
PIXELS = (384 * 384, 1536 * 1536)


@dataclass(frozen=True)
class PaddlePatches(PatchGrid):
    """``image_grid_thw`` plus patches as ``[patches, channels, patch, patch]``; vLLM's near-square profile."""

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        merge = vision.spatial_merge_size
        tokens = self.pixels[1] // (vision.patch_size * merge) ** 2
        h = math.isqrt(tokens)
        return 1, h * merge, (tokens - tokens % h) // h * merge

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        item = super().make(config, modality, size, max_tokens=max_tokens, dtype=dtype, device=device)
        vision = self.vision(config)
        pixels = item["pixel_values"]
        item["pixel_values"] = pixels.reshape(
            pixels.shape[0], vision.num_channels, vision.patch_size, vision.patch_size
        )
        return item


@register
class PaddleOCRVLAdapter(FamilyAdapter):
    model_types = ("paddleocr_vl",)
    encoder_attributes = ("visual", "projector")
    required_fields = ("text_config.hidden_size", "vision_config.hidden_size", "vision_config.spatial_merge_size")
    items = {"image": PaddlePatches(PIXELS)}
    look_alikes = ("vision_config.hidden_size",)

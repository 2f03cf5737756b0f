"""Pixtral images with a learned patch merger (Mistral 3, LightOnOCR, Mistral-Large-4's port).

Pixtral takes any image size in whole patches. The minimal item is a 1 × 2
strip of merged patches: one would do, but transformers' ``get_image_features``
squeezes away the token axis of a one-token item. The profile item is the
one vLLM profiles: a square image of the processor's longest edge
(``vision_config.image_size``).
"""

from __future__ import annotations

import math
from typing import Any

from ecwidth.families.items import ItemKind, ItemSize

#: (rows, cols) of merged patches in the minimal item.
MINIMAL_GRID = (1, 2)
#: The fields the tower and its patch merger cannot do without.
PIXTRAL_FIELDS = (
    "spatial_merge_size",
    "vision_config.image_size",
    "vision_config.patch_size",
    "text_config.hidden_size",
)


class PixtralImage(ItemKind):
    """One image of whole merged patches, any size up to the longest edge, with its ``image_sizes``."""

    counts_tokens = True

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        side = 1 if size == "minimal" else _profile_side(config)
        if max_tokens is not None:
            side = min(side, math.isqrt(max_tokens))
        rows, cols = (side, side) if side > 1 else MINIMAL_GRID
        merged = config.spatial_merge_size * config.vision_config.patch_size
        height, width = rows * merged, cols * merged
        channels = config.vision_config.num_channels
        return {
            "pixel_values": torch.randn(1, channels, height, width, dtype=dtype, device=device),
            "image_sizes": torch.tensor([[height, width]], device=device),
        }

    def tokens(self, config: Any, item: ItemSize) -> int:
        rows, cols = _merged_grid(config, item.height, item.width)
        return rows * cols

    def profile_tokens(self, config: Any, modality: str) -> int:
        longest = config.vision_config.image_size
        rows, cols = _merged_grid(config, longest, longest)
        return rows * cols


def _merged_grid(config: Any, height: int, width: int) -> tuple[int, int]:
    """(rows, cols) of merged patches: the image shrunk to the longest edge, then covered by merged patches."""
    longest = config.vision_config.image_size
    ratio = max(height / longest, width / longest)
    if ratio > 1:
        height, width = math.floor(height / ratio), math.floor(width / ratio)
    merged = config.vision_config.patch_size * config.spatial_merge_size
    return math.ceil(height / merged), math.ceil(width / merged)


def _profile_side(config: Any) -> int:
    """Merged patches along each side of the profile image, within the tower's rotary table."""
    vision = config.vision_config
    return vision.image_size // vision.patch_size // config.spatial_merge_size

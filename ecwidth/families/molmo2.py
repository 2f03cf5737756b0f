"""Molmo2 (``molmo2``): SigLIP crops, multi-layer features, attention pooling, an MLP to ``text_hidden_size``.

Every crop runs through the ViT; the ``vit_layers`` feature maps are
concatenated, each window of patches is pooled with attention and projected
by the adapter's MLP, whose output is ``adapter_config.text_hidden_size``.
An image ships its low-res crop's and high-res crops' pooled tokens, a video
its frames'.

vLLM's class reads the original remote-code schema (``vit_config``,
``adapter_config.vit_layers``, ``pooling_attention_mask``), which
transformers' ``Molmo2Config`` renames (``vision_config``,
``vision_feature_layer``), so a transformers-format config is measured through
transformers' ``Molmo2Model``, which runs the same layers, pooling and
projector. The width equals ``text_config.hidden_size`` in published
checkpoints only because the LM must take it.

Items: every crop has exactly ``num_position_embeddings`` patches (the
position table is not interpolated). The minimal item is one crop pooled to
one token (one 2×2 window; 3×3 for a video frame). The profile image is
``max_crops`` (8) high-res crops plus the low-res one, each pooled 2×2, as
vLLM's largest tiling gives (approximate: the processor's overlap margins
trim the high-res windows); the profile video is as many frames, pooled 3×3,
as fit ``max_model_len``, at most the video processor's 64. No token rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import ItemKind

#: The image processor's ``max_crops``; vLLM's profile image fills them, plus the low-res crop.
MAX_CROPS = 8
#: The video processor's ``num_frames``, vLLM's cap on a profile video.
MAX_FRAMES = 64
#: Patches a side pooled into one token: images and videos (the processors' ``pooling_size``).
POOL = {"image": 2, "video": 3}


def crop_grid(config: Any) -> int:
    """Patches a side of one crop: the ViT's fixed position table."""
    return math.isqrt(config.vision_config.num_position_embeddings)


def crop_tokens(config: Any, modality: str) -> int:
    return math.ceil(crop_grid(config) / POOL[modality]) ** 2


def pooling_windows(grid: int, pool: int, crops: int, tokens: int) -> Any:
    """Indices of the first ``tokens`` pooling windows over ``crops`` crops of ``grid²`` patches; -1 pads a window."""
    import torch

    windows = []
    for crop in range(crops):
        for top in range(0, grid, pool):
            for left in range(0, grid, pool):
                window = [
                    crop * grid * grid + row * grid + col
                    for row in range(top, top + pool)
                    for col in range(left, left + pool)
                    if row < grid and col < grid
                ]
                windows.append(window + [-1] * (pool * pool - len(window)))
    return torch.tensor(windows[:tokens])


@dataclass(frozen=True)
class PooledCrops(ItemKind):
    """Fixed-size crops as flattened patches, with the pooling windows that make the tokens."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        per_crop = crop_tokens(config, modality)
        if size == "minimal":
            crops, tokens = 1, 1
        else:
            if modality == "image":
                crops = MAX_CROPS + 1
            else:
                crops = max(1, min(MAX_FRAMES, config.get_text_config().max_position_embeddings // per_crop))
            tokens = crops * per_crop
            if max_tokens is not None and tokens > max_tokens:
                tokens = max(1, max_tokens)
                crops = math.ceil(tokens / per_crop)
        vision, grid = config.vision_config, crop_grid(config)
        pixels = torch.randn(crops, grid * grid, vision.num_channels * vision.patch_size**2, dtype=dtype, device=device)
        pooling = pooling_windows(grid, POOL[modality], crops, tokens).to(device)
        if modality == "video":  # one "frame" row of all tokens: get_video_features only sums the grid for the split
            return {
                "pixel_values_videos": pixels,
                "video_token_pooling": pooling,
                "video_grids": torch.tensor([[1, tokens, 1]], device=device),
            }
        return {
            "pixel_values": pixels,
            "image_token_pooling": pooling,
            "image_grids": torch.tensor([[tokens, 1, 0, 0]], device=device),
        }


@register
class Molmo2Adapter(FamilyAdapter):
    model_types = ("molmo2",)
    transformers_since = "5.20.0"
    required_fields = (
        "adapter_config.text_hidden_size",
        "adapter_config.vision_feature_layer",
        "vision_config.num_position_embeddings",
        "vision_config.patch_size",
    )
    items = {"image": PooledCrops(), "video": PooledCrops()}
    width_fields = {"*": FieldWidth("adapter_config.text_hidden_size")}
    look_alikes = ("text_config.hidden_size", "adapter_config.hidden_size")

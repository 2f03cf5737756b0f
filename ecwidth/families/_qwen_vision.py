"""Inputs and token counts shared by the Qwen vision towers (Qwen2-VL onwards).

They all take flattened patches plus a ``grid_thw`` of (frames, height,
width) in patches, and merge ``spatial_merge_size``² patches into one token.
"""

from __future__ import annotations

import math
from typing import Any

import torch


def smart_resize(height: int, width: int, unit: int, min_pixels: int, max_pixels: int) -> tuple[int, int]:
    """Round an image to multiples of ``unit`` pixels within the pixel budget, as Qwen processors do."""
    h = max(unit, round(height / unit) * unit)
    w = max(unit, round(width / unit) * unit)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(unit, math.floor(height / beta / unit) * unit)
        w = max(unit, math.floor(width / beta / unit) * unit)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / unit) * unit
        w = math.ceil(width * beta / unit) * unit
    return h, w


def patch_item(
    vision_config: Any, grid: tuple[int, int, int], *, dtype: torch.dtype, device: torch.device
) -> dict[str, torch.Tensor]:
    """Random flattened patches and their ``grid_thw`` for one item of ``grid`` (t, h, w) patches."""
    t, h, w = grid
    in_channels = getattr(vision_config, "in_channels", None) or getattr(vision_config, "in_chans", 3)
    patch_dim = in_channels * vision_config.temporal_patch_size * vision_config.patch_size**2
    pixels = torch.randn(t * h * w, patch_dim, dtype=dtype, device=device)
    return {"pixel_values": pixels, "grid_thw": torch.tensor([[t, h, w]], device=device)}


def minimal_grid(vision_config: Any) -> tuple[int, int, int]:
    """One merged token: a single frame group and ``merge × merge`` patches."""
    merge = vision_config.spatial_merge_size
    return 1, merge, merge


def cap_grid(grid: tuple[int, int, int], merge: int, max_tokens: int) -> tuple[int, int, int]:
    """Shrink a (t, h, w) patch grid until it yields at most ``max_tokens`` merged tokens."""
    t, h, w = grid
    while t * h * w // merge**2 > max_tokens and (t > 1 or h > merge or w > merge):
        if t > 1:
            t = max(1, t // 2)
        elif h >= w:
            h = max(merge, (h // 2) // merge * merge)
        else:
            w = max(merge, (w // 2) // merge * merge)
    return t, h, w

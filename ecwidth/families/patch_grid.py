"""Qwen-style patch grids: the ``smart_resize`` rules that size an image or a video frame in patches, and the
``PatchGrid`` item kind the Qwen-VL tower and its many descendants take.

A Qwen-style processor rounds each side to a multiple of the patch unit
within a pixel budget (transformers' ``smart_resize``, which vLLM calls), and
the tower takes flattened patches with a ``grid_thw`` of (frames, height,
width) in patches, ``spatial_merge_size``² patches to a token. These rules
are the largest group of token arithmetic ecwidth carries, and they follow
the engine's own copies exactly (aspect ratios up to ``MAX_ASPECT_RATIO``
included), so they sit apart from the other item kinds in
``ecwidth.families.items``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from ecwidth.errors import EcwidthError
from ecwidth.families.items import MAX_ITEM_FRAMES, MAX_ITEM_SIDE, ItemKind, ItemSize, check_item_number

#: The widest aspect ratio (long side over short) Qwen-style processors take: transformers' ``smart_resize``, and
#: vLLM's own copies of it, raise ``ValueError`` past it. vLLM's profile image stays within it.
MAX_ASPECT_RATIO = 200


def check_aspect_ratio(height: int, width: int, shown: str) -> None:
    """Refuse an image or frame whose sides are further apart than the engine's processor takes.

    Raises:
        EcwidthError: Names the item (``shown``), its ratio and ``MAX_ASPECT_RATIO``.
    """
    long, short = max(height, width), min(height, width)
    if long > MAX_ASPECT_RATIO * short:  # exact on integers, as the engine's float test is on real sides
        raise EcwidthError(
            f"an image or video frame of {shown} pixels has an aspect ratio of {long / short:.6g}; the engine's "
            f"processor refuses one over {MAX_ASPECT_RATIO} (long side over short): crop or pad it to at most "
            f"{MAX_ASPECT_RATIO}:1"
        )


def smart_resize(
    height: int, width: int, unit: int, min_pixels: int, max_pixels: int, *, keeps_one_unit: bool = False
) -> tuple[int, int]:
    """Round an image to multiples of ``unit`` pixels within the pixel budget, as Qwen processors do.

    By default the rule of transformers' Qwen2-VL ``smart_resize``, which vLLM
    calls for every Qwen2-VL-style processor: a side under half a unit rounds
    to 0, so the image scales up to ``min_pixels``. ``keeps_one_unit`` is the
    rule of the copies that round each side to at least one unit first
    (vLLM's MiniMax-M3 processor, ``transformers_utils/processors/minimax_m3.py``).

    Raises:
        EcwidthError: A side is past ``MAX_ITEM_SIDE`` (or not above 0), or the sides are further apart than
            ``MAX_ASPECT_RATIO``.
    """
    check_item_number("height in pixels", height, MAX_ITEM_SIDE)
    check_item_number("width in pixels", width, MAX_ITEM_SIDE)
    check_aspect_ratio(height, width, f"{height}×{width}")
    least = unit if keeps_one_unit else 0
    h = max(least, round(height / unit) * unit)
    w = max(least, round(width / unit) * unit)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(unit, math.floor(height / beta / unit) * unit)
        w = max(unit, math.floor(width / beta / unit) * unit)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / unit) * unit
        w = math.ceil(width * beta / unit) * unit
    return h, w


def video_smart_resize(
    frames: int, height: int, width: int, *, temporal: int, unit: int, min_pixels: int, max_pixels: int
) -> tuple[int, int]:
    """Frame size after a video ``smart_resize`` whose pixel budget covers all frames together.

    Qwen3-VL's video processor and GLM-4V's processors (where a lone image counts
    as ``temporal`` frames) share this rule. A frame under one unit a side
    scales up first; the aspect limit applies to the scaled sides, as there.

    Raises:
        EcwidthError: A side or the frame count is past its limit (or not above 0), or the scaled sides are
            further apart than ``MAX_ASPECT_RATIO``.
    """
    check_item_number("frame count", frames, MAX_ITEM_FRAMES)
    check_item_number("height in pixels", height, MAX_ITEM_SIDE)
    check_item_number("width in pixels", width, MAX_ITEM_SIDE)
    shown = f"{height}×{width}"
    if height < unit or width < unit:
        scale = max(unit / height, unit / width)
        height, width = int(height * scale), int(width * scale)
        shown += f" (scaled to {height}×{width})"
    check_aspect_ratio(height, width, shown)
    h = round(height / unit) * unit
    w = round(width / unit) * unit
    volume = round(frames / temporal) * temporal * h * w
    if volume > max_pixels:
        beta = math.sqrt(frames * height * width / max_pixels)
        h = max(unit, math.floor(height / beta / unit) * unit)
        w = max(unit, math.floor(width / beta / unit) * unit)
    elif volume < min_pixels:
        beta = math.sqrt(min_pixels / (frames * height * width))
        h = math.ceil(height * beta / unit) * unit
        w = math.ceil(width * beta / unit) * unit
    return h, w


def most_tokens_grid(max_pixels: int, patch_size: int, merge_size: int) -> tuple[int, int]:
    """(h, w) patch grid of the image with the most tokens within ``max_pixels``, as vLLM profiles it.

    vLLM factors the token budget into its closest pair of sides (aspect ratio
    at most 200) instead of taking a square, so a budget that is not a
    perfect square still gets every token.
    """
    unit = patch_size * merge_size
    for tokens in range(max_pixels // unit**2, 0, -1):
        short = next(d for d in range(math.isqrt(tokens), 0, -1) if tokens % d == 0)
        if tokens // short <= MAX_ASPECT_RATIO * short:
            return short * merge_size, tokens // short * merge_size
    return merge_size, merge_size


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


@dataclass(frozen=True)
class PatchGrid(ItemKind):
    """Flattened patches plus ``<modality>_grid_thw``: the Qwen-VL tower's input, and its many descendants.

    ``pixels`` is the (min, max) pixel budget of one image, or of one video
    frame; ``keeps_one_unit`` picks the ``smart_resize`` copy that keeps each
    side at least one unit. The minimal item is one merged token; the profile item is the
    grid with the most tokens in the budget, one frame group for a video.
    Families with another profile rule override ``profile_grid``.
    """

    pixels: tuple[int, int]
    keeps_one_unit: bool = False
    counts_tokens: ClassVar[bool] = True

    def vision(self, config: Any) -> Any:
        """The vision config that sets patch, merge and temporal sizes."""
        return config.vision_config

    def keys(self, modality: str) -> tuple[str, str]:
        """Names of the pixel and grid arguments of ``get_<modality>_features``."""
        return ("pixel_values", "image_grid_thw") if modality == "image" else ("pixel_values_videos", "video_grid_thw")

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        """(t, h, w) patches of the profile item: the most tokens in the budget, one frame group."""
        vision = self.vision(config)
        return (1, *most_tokens_grid(self.pixels[1], vision.patch_size, vision.spatial_merge_size))

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = self.vision(config)
        merge = vision.spatial_merge_size
        grid = (1, merge, merge) if size == "minimal" else self.profile_grid(config, modality)
        if max_tokens is not None:
            grid = cap_grid(grid, merge, max_tokens)
        t, h, w = grid
        channels = getattr(vision, "in_channels", None) or getattr(vision, "in_chans", None) or 3
        patch_dim = channels * getattr(vision, "temporal_patch_size", 1) * vision.patch_size**2
        pixel_key, grid_key = self.keys(modality)
        return {
            pixel_key: torch.randn(t * h * w, patch_dim, dtype=dtype, device=device),
            grid_key: torch.tensor([[t, h, w]], device=device),
        }

    def tokens(self, config: Any, item: ItemSize) -> int:
        vision = self.vision(config)
        unit = vision.patch_size * vision.spatial_merge_size
        h, w = smart_resize(item.height, item.width, unit, *self.pixels, keeps_one_unit=self.keeps_one_unit)
        groups = 1 if item.modality == "image" else math.ceil(item.frames / getattr(vision, "temporal_patch_size", 1))
        return groups * (h // unit) * (w // unit)

    def profile_tokens(self, config: Any, modality: str) -> int:
        t, h, w = self.profile_grid(config, modality)
        return t * h * w // self.vision(config).spatial_merge_size ** 2

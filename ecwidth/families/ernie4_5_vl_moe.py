"""ERNIE-4.5-VL (MoE): a NaViT tower, then the variable-resolution resampler to the LM's hidden size.

The resampler (2×2 spatial and, for videos, 2-frame temporal merges, then
``mlp`` to ``out_dim`` and ``after_norm``) ends at the LM's hidden size; the
stacked ``4 × vision hidden`` (``spatial_dim``) inside it is not the width.
vLLM's class reads the original checkpoint's flat schema
(``config.pixel_hidden_size``, ``spatial_conv_size``, ``temporal_conv_size``),
which transformers' ``Ernie4_5_VLMoeConfig`` (nested ``text_config`` and
``vision_config``) does not have, so it cannot load the configs this adapter
reads. ecwidth measures what transformers' model feeds the LM:
``get_image_features`` / ``get_video_features`` run the same resampler
(``in_dim = vision_config.hidden_size``, ``out_dim = text_config.hidden_size``)
and return the per-item split in ``pooler_output``; for the same checkpoint
in its original form, vLLM ships that width (``hidden_size`` there).

Items: patches ``[t·h·w, 3·14²]`` plus ``grid_thw``. A video needs a frame
pair (the temporal merge is hard-coded to 2; one frame would yield no
token), so its minimal item is ``[2, 2, 2]``. Profiles follow vLLM's
``get_image_size_with_most_features`` at transformers' processor budgets:
the image is the largest square within 28²·6177 pixels (78² tokens), the
video two frames of the largest square within the video budget 28²·1196
(34² tokens). vLLM grows the video's frame count to fill the model length;
that is left out, and so is a token rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.patch_grid import PatchGrid, cap_grid

#: transformers' Ernie4_5_VLMoe image and video processor ``size`` (shortest_edge, longest_edge), pixel areas.
IMAGE_PIXELS = (56 * 56, 28 * 28 * 6177)
VIDEO_PIXELS = (299 * 28 * 28, 1196 * 28 * 28)


@dataclass(frozen=True)
class ErniePatches(PatchGrid):
    """Patches plus ``grid_thw``; a video is always a whole number of frame pairs."""

    counts_tokens = False

    def frames(self, config: Any, modality: str) -> int:
        return 1 if modality == "image" else config.vision_config.temporal_merge_size

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        merge = self.vision(config).spatial_merge_size
        side = math.isqrt(self.pixels[1] // (self.vision(config).patch_size * merge) ** 2) * merge
        return self.frames(config, modality), side, side

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = self.vision(config)
        merge = vision.spatial_merge_size
        t = self.frames(config, modality)
        _, h, w = (1, merge, merge) if size == "minimal" else self.profile_grid(config, modality)
        if max_tokens is not None:  # t frames merge into one token row, so cap the spatial grid alone
            _, h, w = cap_grid((1, h, w), merge, max_tokens)
        pixel_key, grid_key = self.keys(modality)
        return {
            pixel_key: torch.randn(t * h * w, vision.in_channels * vision.patch_size**2, dtype=dtype, device=device),
            grid_key: torch.tensor([[t, h, w]], device=device),
        }


@register
class Ernie4_5_VLMoeAdapter(FamilyAdapter):
    model_types = ("ernie4_5_vl_moe",)
    encoder_attributes = ("vision_tower", "resampler_model")
    required_fields = (
        "text_config.hidden_size",
        "vision_config.hidden_size",
        "vision_config.spatial_merge_size",
        "vision_config.temporal_merge_size",
    )
    items = {"image": ErniePatches(IMAGE_PIXELS), "video": ErniePatches(VIDEO_PIXELS)}
    look_alikes = ("vision_config.hidden_size",)

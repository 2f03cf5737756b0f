"""Muse Glimmer: a windowed ViT with a 2×2 pixel shuffle, an MLP adapter, then a projection to the text hidden size.

The engine runs the vision encoder (pixel shuffle to ``out_hidden_size``),
the adapter (to ``projector_hidden_size``), ``vision_projection`` to the text
width and ``perception_emb_norm``, one tensor per image or video.
transformers' ``MuseGlimmerModel.get_image_features`` applies the same
adapter, projection and norm, so the defaults fit. vLLM first parsed the
config with a schema of its own, which names the two inner sizes
``vision_config.output_dim`` / ``adapter_dim``; either way they are the
projection's inputs, not the width.

Profile items are vLLM's dummies at the default processor settings: a square
image of ``max_image_tokens`` (4096) merged tokens, and a video of
``max_video_frame_tokens`` (144) per frame pair, ``video_num_frames`` (96)
frames, i.e. 48 pairs (vLLM cuts that to the model length, which the config
does not fix). The processor's aspect-preserving resize has no simple rule, so
no token rule here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind
from ecwidth.families.patch_grid import cap_grid

if TYPE_CHECKING:
    pass

#: Default ``max_image_tokens`` and ``max_video_frame_tokens`` of the Muse Glimmer processors; frames of a video.
MAX_IMAGE_TOKENS, MAX_VIDEO_FRAME_TOKENS, VIDEO_NUM_FRAMES = 4096, 144, 96


@dataclass(frozen=True)
class GlimmerPatches(ItemKind):
    """Flattened ``patch_temporal × 3 × patch²`` patches with ``<modality>_grid_thw``; minimal: one merged token."""

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = config.vision_config
        if modality == "image":
            side = math.isqrt(MAX_IMAGE_TOKENS) * vision.merge_size
            return 1, side, side
        side = math.isqrt(MAX_VIDEO_FRAME_TOKENS) * vision.merge_size
        return max(1, VIDEO_NUM_FRAMES // vision.patch_temporal), side, side

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        merge = vision.merge_size
        grid = (1, merge, merge) if size == "minimal" else self.profile_grid(config, modality)
        if max_tokens is not None:
            grid = cap_grid(grid, merge, max_tokens)
        t, h, w = grid
        pixels, grid_key = ("pixel_values", "image_grid_thw") if modality == "image" else (
            "pixel_values_videos", "video_grid_thw")  # fmt: skip
        patch_dim = vision.patch_temporal * 3 * vision.patch_size**2
        return {
            pixels: torch.randn(t * h * w, patch_dim, dtype=dtype, device=device),
            grid_key: torch.tensor([[t, h, w]], device=device),
        }


@register
class MuseGlimmerAdapter(FamilyAdapter):
    model_types = ("muse_glimmer",)
    required_fields = (
        "text_config.hidden_size",
        "out_hidden_size",
        "projector_hidden_size",
        "vision_config.hidden_size",
        "vision_config.merge_size",
    )
    items = {"image": GlimmerPatches(), "video": GlimmerPatches()}
    look_alikes = ("out_hidden_size", "projector_hidden_size")

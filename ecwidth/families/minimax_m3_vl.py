"""MiniMax-M3-VL: a Qwen-style ViT, a per-patch MLP to the text hidden size, then a 2×2 patch-merge MLP back to it.

The projector maps vision ``hidden_size → projector_hidden_size → text
hidden``, then ``patch_merge_mlp`` maps ``text hidden × merge² →
projector_hidden_size → text hidden``: ``projector_hidden_size`` and
transformers' ``merged_hidden_size`` (``text hidden × merge²``) are
intermediates, not the width. transformers' ``MiniMaxM3VLModel.get_image_features``
applies the same ``multi_modal_projector`` (both MLPs) and splits per item;
videos go the same way. So the defaults fit. Published configs keep the
remote-code schema (``img_token_compression_config`` for the merge size, a
``clip_vision_model`` label); ``translate`` maps it onto transformers' names.

Images: the image processor's default budget with vLLM's own Qwen-style
``smart_resize`` (``transformers_utils/processors/minimax_m3.py``, which keeps
each side at least one unit: ``image:1x100`` is 4 tokens, not transformers' 20);
the profile image is vLLM's largest square in it. Videos: the per-frame
budget (768 tokens a frame); the profile item is one frame group at the most
tokens in it (vLLM then fits frames to the model length, which the config
does not fix).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.patch_grid import PatchGrid

#: ``MiniMaxM3VLImageProcessor`` size (shortest_edge, longest_edge) and the video processor's per-frame bounds.
IMAGE_PIXELS = (4 * 28 * 28, 451584)
VIDEO_PIXELS = (4 * 28 * 28, 768 * 28 * 28)


@dataclass(frozen=True)
class SquareProfilePatches(PatchGrid):
    """vLLM's profile image: the largest square, a multiple of patch × merge, within ``max_pixels``."""

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        unit = vision.patch_size * vision.spatial_merge_size
        side = max(unit, math.isqrt(self.pixels[1]) // unit * unit) // vision.patch_size
        return 1, side, side


@register
class MiniMaxM3VLAdapter(FamilyAdapter):
    model_types = ("minimax_m3_vl",)
    encoder_attributes = ("vision_tower", "multi_modal_projector")
    required_fields = ("text_config.hidden_size", "vision_config.hidden_size", "vision_config.spatial_merge_size")
    items = {
        "image": SquareProfilePatches(IMAGE_PIXELS, keeps_one_unit=True),
        "video": PatchGrid(VIDEO_PIXELS, keeps_one_unit=True),
    }
    look_alikes = ("projector_hidden_size", "merged_hidden_size", "vision_config.hidden_size")

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Published MiniMax-M3 configs keep the remote-code schema: the merge and temporal patch sizes sit in
        ``img_token_compression_config`` and the vision tower is labelled ``clip_vision_model``; transformers'
        port reads ``vision_config.spatial_merge_size`` and ``temporal_patch_size``."""
        vision = raw.get("vision_config")
        if not isinstance(vision, dict):
            return raw
        compression = vision.get("img_token_compression_config") or raw.get("img_token_compression_config") or {}
        for field in ("spatial_merge_size", "temporal_patch_size"):
            if field in compression:
                vision.setdefault(field, compression[field])
        if vision.get("model_type") == "clip_vision_model":
            vision["model_type"] = "minimax_m3_vl_vision"
        return raw

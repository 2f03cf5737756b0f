"""Qwen2-VL's processor arithmetic, shared by the families that reuse its processors (Qwen2-VL, Qwen2.5-VL,
EXAONE 4.5): pixel bounds and the profile video vLLM builds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.patch_grid import PatchGrid, most_tokens_grid

# Published preprocessor_config.json of Qwen2-VL-7B-Instruct and Qwen2.5-VL-7B-Instruct; videos use the same
# per-frame bounds (neither repo ships a separate video config, and vLLM sizes videos by the image processor).
PIXELS = (3136, 12845056)
# vLLM profiles a video of at most this many frames, at the largest image size, within max_model_len.
PROFILE_MAX_FRAMES = 14


@dataclass(frozen=True)
class Qwen2VLPatches(PatchGrid):
    """vLLM's profile video: frames of the largest image, as many as fit ``max_position_embeddings``."""

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        h, w = most_tokens_grid(self.pixels[1], vision.patch_size, vision.spatial_merge_size)
        if modality == "image":
            return 1, h, w
        fitting = config.get_text_config().max_position_embeddings // (h * w // vision.spatial_merge_size**2)
        return max(1, min(PROFILE_MAX_FRAMES // vision.temporal_patch_size, fitting)), h, w

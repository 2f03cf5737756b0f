"""GLM-4.1V / 4.5V / 4.6V, GLM-OCR and GLM-5-Next: the patch merger's output, ``vision_config.out_hidden_size`` wide.

All four towers end the same way: blocks at ``vision_config.hidden_size``, a
``spatial_merge_size`` conv ``downsample`` to ``out_hidden_size``, then the
patch merger (``d_model = out_hidden_size``), split per item by ``grid_thw``;
no DeepStack. Published GLM-4.1V/4.5V configs set ``out_hidden_size`` to the
text hidden size (4096) by convention only: the field a naive reader takes,
``text_config.hidden_size``, is not what the merger emits, and neither is the
tower's own ``hidden_size``. The merger's ``intermediate_size``
(``projection_intermediate_size`` in GLM-5-Next) is only its inner SwiGLU
width.

transformers' ``get_image_features`` / ``get_video_features`` return the same
per-item split in ``pooler_output`` (videos are fed as one ``[1, h, w]`` grid
per frame group there, vLLM feeds ``grid_thw`` as it is: same rows, same
width), so the default packing reads it. vLLM's classes take
``video_pruning_rate`` (``is_multimodal_pruning_enabled``), but it only turns
encoder CUDA graphs off: ``embed_multimodal`` appends no channels (a comment
in ``get_encoder_cudagraph_config`` says it does, copied from Qwen; the code
does not), so the option is accepted and the width unchanged.

Dummy items follow the GLM processors, whose ``smart_resize`` budgets the
temporal patch pair too (a single image counts as ``temporal_patch_size``
frames). Budgets are the transformers processor defaults (images 12544 to
11760000 pixels, videos up to 47040000), which vLLM reads from the
checkpoint's preprocessor config. The profile image is vLLM's
``get_image_size_with_most_features``: the largest square within the budget
(2408² at patch 14, 7396 tokens). vLLM grows the profile video's frame count
until the model length is filled; the profile video here is its smallest
one, two frames (GLM's minimum) at the profile image size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import ItemSize
from ecwidth.families.patch_grid import PatchGrid, video_smart_resize

#: transformers' Glm4vImageProcessor ``size`` (shortest_edge, longest_edge), both pixel areas.
IMAGE_PIXELS = (112 * 112, 28 * 28 * 15000)
#: transformers' Glm4vVideoProcessor ``size``.
VIDEO_PIXELS = (112 * 112, 28 * 28 * 2 * 30000)


@dataclass(frozen=True)
class GlmPatches(PatchGrid):
    """Patches plus ``grid_thw``, sized by GLM's ``smart_resize`` (a lone image counts as a frame pair)."""

    #: the image budget, which sets vLLM's profile frame size for videos too.
    image_pixels: tuple[int, int] = IMAGE_PIXELS

    def _resize(self, config: Any, frames: int, height: int, width: int, max_pixels: int) -> tuple[int, int]:
        vision = self.vision(config)
        temporal = vision.temporal_patch_size
        return video_smart_resize(
            max(frames, temporal), height, width, temporal=temporal,
            unit=vision.patch_size * vision.spatial_merge_size, min_pixels=self.pixels[0], max_pixels=max_pixels,
        )  # fmt: skip

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        side_h, side_w = self._resize(config, 1, 9999999, 9999999, self.image_pixels[1])  # vLLM's probe image
        if modality == "video":  # two frames, GLM's minimum: one temporal group
            side_h, side_w = self._resize(config, 2, side_h, side_w, self.pixels[1])
        return 1, side_h // vision.patch_size, side_w // vision.patch_size

    def tokens(self, config: Any, item: ItemSize) -> int:
        vision = self.vision(config)
        frames = 1 if item.modality == "image" else item.frames
        h, w = self._resize(config, frames, item.height, item.width, self.pixels[1])
        groups = max(1, math.ceil(frames / vision.temporal_patch_size))
        return groups * (h // vision.patch_size) * (w // vision.patch_size) // vision.spatial_merge_size**2


@register
class Glm4vAdapter(FamilyAdapter):
    model_types = ("glm4v", "glm4v_moe", "glm_ocr")
    encoder_attributes = ("visual",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.hidden_size",
        "vision_config.depth",
        "text_config.hidden_size",
    )
    items = {"image": GlmPatches(IMAGE_PIXELS), "video": GlmPatches(VIDEO_PIXELS)}
    width_fields = {"*": FieldWidth("vision_config.out_hidden_size")}
    look_alikes = ("vision_config.hidden_size", "text_config.hidden_size", "vision_config.intermediate_size")


@register
class Glm5NextAdapter(Glm4vAdapter):
    """GLM-5-Next: GLM-4V's tower and merger in its own class, which SGLang also serves."""

    model_types = ("glm5_next",)
    look_alikes = (*Glm4vAdapter.look_alikes, "vision_config.projection_intermediate_size")

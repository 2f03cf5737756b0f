"""HyperCLOVAX-SEED Vision V2: a Qwen2.5-VL tower, then a linear projector to the text hidden size.

Images and videos go through the same path: the Qwen2.5-VL tower (whose
merger emits ``vision_config.out_hidden_size``), then ``mm_projector`` to the
text width, split per item by ``grid_thw``. transformers'
``get_image_features`` / ``get_video_features`` apply the same projector and
split, so the defaults fit. The trap: ``vision_config.out_hidden_size`` looks
like the width (it is what Qwen2.5-VL ships) but is only the projector's input.

Profile items follow vLLM's dummy builder: a 448×448 image (``vision_config``
has no ``image_size``) and 16 frames of it; tokens are
``t/temporal · (448/patch)² / merge²``. Real items are counted with Qwen2-VL's
``smart_resize`` within the Qwen2-VL image processor's default budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.patch_grid import PatchGrid

#: Qwen2-VL image processor defaults (min_pixels, max_pixels), which the HCX processor uses.
PIXELS = (56 * 56, 28 * 28 * 1280)
#: vLLM's dummy image side where ``vision_config`` has no ``image_size``, and its dummy video length.
PROFILE_SIDE, PROFILE_FRAMES = 448, 16


@dataclass(frozen=True)
class HCXPatches(PatchGrid):
    """vLLM's HCX profile: a square ``image_size`` (448) image; a video of 16 such frames."""

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        side = getattr(vision, "image_size", None) or PROFILE_SIDE
        frames = 1 if modality == "image" else max(1, PROFILE_FRAMES // vision.temporal_patch_size)
        return frames, side // vision.patch_size, side // vision.patch_size


@register
class HyperCLOVAXVisionV2Adapter(FamilyAdapter):
    model_types = ("hyperclovax_vision_v2",)
    transformers_since = "5.18.0"
    required_fields = ("text_config.hidden_size", "vision_config.out_hidden_size", "vision_config.depth")
    items = {"image": HCXPatches(PIXELS), "video": HCXPatches(PIXELS)}
    look_alikes = ("vision_config.out_hidden_size", "vision_config.hidden_size")

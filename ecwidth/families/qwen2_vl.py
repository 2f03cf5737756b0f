"""Qwen2-VL and Qwen2.5-VL: the patch merger's output, one tensor per item, no DeepStack.

vLLM's ``embed_multimodal`` runs the vision tower (blocks, then the patch
merger) and splits the result per item by ``grid_thw``, so each image or video
ships as ``[t·h·w / merge², merger output dim]``; transformers'
``get_image_features`` / ``get_video_features`` return the same split in
``pooler_output``, which the default packing reads. The merger projects into
the LM's space, so the width is the merger's output dim, which the two
generations name differently:

- Qwen2-VL: ``vision_config.hidden_size`` (the tower itself runs at ``embed_dim``);
- Qwen2.5-VL: ``vision_config.out_hidden_size`` (its ``hidden_size`` is the tower's).

Reading the wrong one of these is the trap.

With video pruning on (``video_pruning_rate > 0``), vLLM's Qwen2.5-VL
(``_postprocess_image_embeds_evs`` / ``_postprocess_video_embeds_evs`` in
``qwen2_5_vl.py``) appends 4 mrope position channels (frame, row, column,
merged width) to every image and video item; ecwidth builds them from the
item's grid and reads the width from the result. The engine also drops
pruned video rows, which changes the row count, not the width; ecwidth keeps
every row. Qwen2-VL's engine class takes no pruning option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ecwidth.families._pruning import PrunedPositions
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import PatchGrid, most_tokens_grid

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


@register
class Qwen2VLAdapter(FamilyAdapter):
    model_types = ("qwen2_vl",)
    engine = (
        "vllm Qwen2VLForConditionalGeneration (qwen2_vl.py): the patch merger's output, "
        "vision_config.hidden_size (not embed_dim)"
    )
    required_fields = ("vision_config.hidden_size", "vision_config.embed_dim", "vision_config.depth")
    items = {"image": Qwen2VLPatches(PIXELS), "video": Qwen2VLPatches(PIXELS)}
    #: ``vision_config`` field that holds the merger's output dim, i.e. the shipped width.
    merger_width_field: ClassVar[str] = "hidden_size"

    def predict(self, config: Any) -> dict[str, int]:
        width = int(getattr(config.vision_config, self.merger_width_field))
        return {"image": width, "video": width}


@register
class Qwen2_5_VLAdapter(PrunedPositions, Qwen2VLAdapter):
    model_types = ("qwen2_5_vl",)
    engine = (
        "vllm Qwen2_5_VLForConditionalGeneration (qwen2_5_vl.py): vision_config.out_hidden_size; +4 with video pruning"
    )
    required_fields = ("vision_config.out_hidden_size", "vision_config.hidden_size", "vision_config.depth")
    merger_width_field = "out_hidden_size"
    pruning_layout = "qwen2_5_vl"

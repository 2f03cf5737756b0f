"""Qwen2-VL and Qwen2.5-VL: the patch merger's output, one tensor per item, no DeepStack.

vLLM's ``embed_multimodal`` runs the vision tower (blocks, then the patch
merger) and splits the result per item by ``grid_thw``, so each image or video
ships as ``[t·h·w / merge², merger output dim]``; transformers'
``get_image_features`` / ``get_video_features`` return the same split in
``pooler_output``. The merger projects into the LM's space, so the width is the
merger's output dim, which the two generations name differently:

- Qwen2-VL: ``vision_config.hidden_size`` (the tower itself runs at ``embed_dim``);
- Qwen2.5-VL: ``vision_config.out_hidden_size`` (its ``hidden_size`` is the tower's).

Reading the wrong one of these is the trap. vLLM's optional video pruning (EVS,
``video_pruning_rate > 0``) appends mrope position channels to Qwen2.5-VL items;
that is a serving flag, off by default and absent from the config, so it is not
modelled here.
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch
from torch import nn

from ecwidth.adapter import DummySize, FamilyAdapter, ItemSize, register
from ecwidth.families._qwen_mm import most_tokens_grid
from ecwidth.families._qwen_vision import cap_grid, minimal_grid, patch_item, smart_resize

# Published preprocessor_config.json of Qwen2-VL-7B-Instruct and Qwen2.5-VL-7B-Instruct; videos use the same
# per-frame bounds (neither repo ships a separate video config, and vLLM sizes videos by the image processor).
MIN_PIXELS = 3136
MAX_PIXELS = 12845056
# vLLM profiles a video of at most this many frames, at the largest image size, within max_model_len.
PROFILE_MAX_FRAMES = 14


@register
class Qwen2VLAdapter(FamilyAdapter):
    model_types = ("qwen2_vl",)
    model_class = "Qwen2VLModel"
    encoder_attributes = ("visual",)
    required_fields = ("vision_config.hidden_size", "vision_config.embed_dim", "vision_config.depth")
    #: ``vision_config`` field that holds the merger's output dim, i.e. the shipped width.
    merger_width_field: ClassVar[str] = "hidden_size"

    def config_modalities(self, config: Any) -> tuple[str, ...]:
        return ("image", "video")

    def predict(self, config: Any) -> dict[str, int]:
        width = int(getattr(config.vision_config, self.merger_width_field))
        return {"image": width, "video": width}

    def embed_tokens(self, config: Any, item: ItemSize) -> int:
        vision = config.vision_config
        unit = vision.patch_size * vision.spatial_merge_size
        h, w = smart_resize(item.height, item.width, unit, MIN_PIXELS, MAX_PIXELS)
        frame_groups = 1 if item.modality == "image" else -(-item.frames // vision.temporal_patch_size)
        return frame_groups * (h // unit) * (w // unit)

    def profile_tokens(self, config: Any, modality: str) -> int:
        t, h, w = self._profile_grid(config, modality)
        return t * h * w // config.vision_config.spatial_merge_size**2

    def _profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        """vLLM's profile item: the largest image; a video of such frames that fits ``max_position_embeddings``."""
        vision = config.vision_config
        h, w = most_tokens_grid(MAX_PIXELS, vision.patch_size, vision.spatial_merge_size)
        if modality == "image":
            return 1, h, w
        tokens_per_group = h * w // vision.spatial_merge_size**2
        fitting = config.get_text_config().max_position_embeddings // tokens_per_group
        return max(1, min(PROFILE_MAX_FRAMES // vision.temporal_patch_size, fitting)), h, w

    def dummy_item(
        self, model: nn.Module, modality: str, size: DummySize, *, max_tokens: int | None = None
    ) -> dict[str, Any]:
        vision = model.config.vision_config
        grid = minimal_grid(vision) if size == "minimal" else self._profile_grid(model.config, modality)
        if max_tokens is not None:
            grid = cap_grid(grid, vision.spatial_merge_size, max_tokens)
        dtype, device = self.encoder_dtype_device(model)
        return patch_item(vision, grid, dtype=dtype, device=device)

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        if modality == "image":
            out = model.get_image_features(item["pixel_values"], image_grid_thw=item["grid_thw"])
        else:
            out = model.get_video_features(item["pixel_values"], video_grid_thw=item["grid_thw"])
        return out.pooler_output[0]


@register
class Qwen2_5_VLAdapter(Qwen2VLAdapter):
    model_types = ("qwen2_5_vl",)
    model_class = "Qwen2_5_VLModel"
    required_fields = ("vision_config.out_hidden_size", "vision_config.hidden_size", "vision_config.depth")
    merger_width_field = "out_hidden_size"

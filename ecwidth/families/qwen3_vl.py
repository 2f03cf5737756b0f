"""Qwen3-VL, Qwen3-VL-MoE, Qwen3.5 and Qwen3.5-MoE: DeepStack vision, packed as the producer ships it.

The engine's tower concatenates, on the last dim, the merger output and then
one merger output per DeepStack layer in the order the tower reaches those
layers, and ships that tensor per image or video, split along tokens only.
transformers returns the DeepStack maps separately (``deepstack_features``);
we concatenate them the same way, so each level's order and count follow the
config.

Qwen3.5 publishes ``deepstack_visual_indexes: []``, and transformers' Qwen3.5
tower has no DeepStack mergers at all. vLLM's tower would still pack levels
for a Qwen3.5 config that listed some, so for such a config we swap in
transformers' Qwen3-VL tower (the same architecture plus the mergers) and
measure what the producer would ship; vLLM's Qwen3.5 language model does not
split the levels off, so such a config could not be served end to end.

With video pruning on, every item gets 5 more channels: on images the 4 mrope
positions and a zero channel; on videos frame, row and column positions, an
``is_vision_start`` flag and an ``is_video`` flag. ecwidth builds them from the
item's grid. The engine's pruned video item also holds text-token rows (frame
separators and timestamps, embedded by the LM from the tokenizer's ids, the
same width once padded); those need the tokenizer and real LM weights, so
ecwidth ships the video-embedding rows alone: the same width, fewer rows.

The image item is a plain patch grid; the video item differs in its
processor's budget, which covers all frames together (``Qwen3VideoPatches``).
Token counts follow the published preprocessor configs: images 65536 to
16777216 pixels; videos 4096 to 25165824 pixels counted over all frames
together. The profile items are vLLM's dummy inputs: the image with the most
tokens in the image budget (16384 tokens at patch 16), and a two-frame video
with the most tokens in half the video budget (12288 tokens).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ecwidth.families._pruning import PrunedPositions
from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
from ecwidth.families.items import ItemSize
from ecwidth.families.packing import pack_deepstack
from ecwidth.families.patch_grid import PatchGrid, most_tokens_grid, video_smart_resize

if TYPE_CHECKING:
    import torch
    from torch import nn

# Published preprocessor_config.json / video_preprocessor_config.json of Qwen3-VL and Qwen3.5.
IMAGE_PIXELS = (65536, 16777216)
VIDEO_PIXELS = (4096, 25165824)


@dataclass(frozen=True)
class Qwen3VideoPatches(PatchGrid):
    """A video budget over all frames; vLLM profiles two frames (one group) in half of it."""

    def profile_grid(self, config: Any, modality: str) -> tuple[int, int, int]:
        vision = self.vision(config)
        budget = self.pixels[1] // vision.temporal_patch_size
        return (1, *most_tokens_grid(budget, vision.patch_size, vision.spatial_merge_size))

    def tokens(self, config: Any, item: ItemSize) -> int:
        vision = self.vision(config)
        unit = vision.patch_size * vision.spatial_merge_size
        temporal = vision.temporal_patch_size
        frames = max(temporal, item.frames)
        h, w = video_smart_resize(
            frames, item.height, item.width, temporal=temporal, unit=unit,
            min_pixels=self.pixels[0], max_pixels=self.pixels[1],
        )  # fmt: skip
        return math.ceil(frames / temporal) * (h // unit) * (w // unit)


@register
class Qwen3VLAdapter(PrunedPositions, FamilyAdapter):
    model_types = ("qwen3_vl", "qwen3_vl_moe")
    encoder_attributes = ("visual",)
    # Without deepstack_visual_indexes transformers would silently fill in (8, 16, 24).
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.deepstack_visual_indexes",
        "vision_config.depth",
        "text_config.hidden_size",
    )
    items = {"image": PatchGrid(IMAGE_PIXELS), "video": Qwen3VideoPatches(VIDEO_PIXELS)}
    width_fields = {
        "*": FieldWidth("vision_config.out_hidden_size", deepstack="vision_config.deepstack_visual_indexes")
    }
    look_alikes = ("vision_config.out_hidden_size", "vision_config.hidden_size", "text_config.hidden_size")
    pruning_layout = "qwen3_vl"

    def deepstack_levels(self, config: Any, modality: str) -> int:
        return len(getattr(config.vision_config, "deepstack_visual_indexes", None) or ())

    def encode(self, model: nn.Module, modality: str, item: dict[str, Any]) -> torch.Tensor:
        # vLLM runs images and videos through the same tower call.
        pixels, grid = item.values()
        return pack_deepstack(model.visual(pixels, grid_thw=grid))


@register
class Qwen3_5Adapter(Qwen3VLAdapter):
    model_types = ("qwen3_5", "qwen3_5_moe")
    # Published lists are empty; a missing list means no DeepStack to vLLM and transformers alike.
    required_fields = ("vision_config.out_hidden_size", "text_config.hidden_size")

    def construct(self, config: Any, dtype: torch.dtype) -> nn.Module:
        model = super().construct(config, dtype)
        if self.deepstack_levels(config, "image"):
            model.visual = _qwen3_vl_tower(config.vision_config, dtype)
        return model


def _qwen3_vl_tower(vision: Any, dtype: torch.dtype) -> nn.Module:
    """transformers' Qwen3-VL tower for a Qwen3.5 vision config: vLLM's tower, DeepStack mergers included."""
    from transformers import Qwen3VLVisionConfig, Qwen3VLVisionModel

    fields = {key: value for key, value in vision.to_dict().items() if key != "model_type"}
    return Qwen3VLVisionModel._from_config(Qwen3VLVisionConfig(**fields), dtype=dtype)

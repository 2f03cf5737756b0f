"""Inkling2 (``inkling2``) and Inkling2-Loop (``inkling2_loop``): served by vLLM's Transformers backend; the merger's text width.

vLLM 0.32 has no class for either (its ``inkling`` package serves the
first generation's ``inkling_mm_model``, see ``inkling.py``); the Transformers
backend (``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``Inkling2Model`` / ``Inkling2LoopModel.get_image_features``:
both build the same ``Inkling2VisionModel`` (``inkling2_vision``): a class
token and the patches through the encoder, each ``spatial_merge_size``² block of
patch states concatenated, then ``Inkling2VisionMerger`` (``linear_1`` to
``projection_hidden_dim``, ``linear_2`` to ``vision_config.text_hidden_size``),
split per image: ``[t·h·w, text_hidden_size]``, ``image_grid_thw`` counted in
merged tokens. Both configs require ``text_hidden_size`` to equal
``text_config.hidden_size``. The merger is the last step before the LM, so a
native class ships the same width. Not the width: ``projection_hidden_dim``,
``vision_config.hidden_size`` and its ``merge²`` multiple.

Items: ``pixel_values`` ``[tokens, patch × merge, patch × merge, channels]``,
one merged token minimal; the profile image is the tower's native position
grid (``posemb_grid_size`` patches a side). The processor resizes by its own
settings: no token rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import ItemKind


@dataclass(frozen=True)
class MergedBlockPatches(ItemKind):
    """One image as merged-token pixel blocks in raster order, with ``image_grid_thw`` in merged tokens."""

    def make(self, config, modality, size, *, max_tokens, dtype, device):
        import torch

        vision = config.vision_config
        merge = vision.spatial_merge_size
        side = 1 if size == "minimal" else max(1, vision.posemb_grid_size // merge)
        while max_tokens is not None and side > 1 and side * side > max_tokens:
            side -= 1
        block = vision.patch_size * merge
        return {
            "pixel_values": torch.randn(side * side, block, block, vision.num_channels, dtype=dtype, device=device),
            "image_grid_thw": torch.tensor([[1, side, side]]),
        }


@register
class Inkling2Adapter(FamilyAdapter):
    model_types = ("inkling2", "inkling2_loop")
    required_fields = ("vision_config.text_hidden_size", "vision_config.patch_size", "vision_config.spatial_merge_size")
    items = {"image": MergedBlockPatches()}
    engine = f"{BACKEND}: vision_config.text_hidden_size (= text_config.hidden_size) via Inkling2VisionMerger"

    def predict(self, config: Any) -> dict[str, int]:
        return {"image": int(config.vision_config.text_hidden_size)}

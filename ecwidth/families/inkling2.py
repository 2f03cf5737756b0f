"""Inkling2 (``inkling2``) and Inkling2-Loop (``inkling2_loop``): the vision merger's text width, through the backend.

vLLM has no class for either (its ``inkling`` package serves the first
generation's ``inkling_mm_model``); the Transformers backend ships the
``pooler_output`` of ``get_image_features``. Both build the same
``Inkling2VisionModel``: a class token and the patches through the encoder,
each ``spatial_merge_size``² block of patch states concatenated, then
``Inkling2VisionMerger`` (``linear_1`` to ``projection_hidden_dim``,
``linear_2`` to ``vision_config.text_hidden_size``), split per image, with
``image_grid_thw`` counted in merged tokens. Both configs require
``text_hidden_size`` to equal ``text_config.hidden_size``. The merger is the
last step before the LM, so a native class would ship the same width. The
model types first appear in transformers releases newer than either vLLM
release's pin, so neither can load them (the records' ``transformers``).

Items: ``pixel_values`` ``[tokens, patch × merge, patch × merge, channels]``,
one merged token minimal; the profile image is the tower's native position
grid (``posemb_grid_size`` patches a side). The processor resizes by its own
settings: no token rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register
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
    model_types = ("inkling2",)
    transformers_since = "5.23.0"
    required_fields = ("vision_config.text_hidden_size", "vision_config.patch_size", "vision_config.spatial_merge_size")
    items = {"image": MergedBlockPatches()}
    width_fields = {"image": FieldWidth("vision_config.text_hidden_size")}
    look_alikes = ("vision_config.projection_hidden_dim", "vision_config.hidden_size")


@register
class Inkling2LoopAdapter(Inkling2Adapter):
    """Inkling2-Loop: Inkling2's vision tower and merger on a looped LM, in a later transformers release."""

    model_types = ("inkling2_loop",)
    transformers_since = "5.24.0"

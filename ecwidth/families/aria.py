"""Aria: an Idefics3-style ViT, then ``AriaProjector`` (learned queries, cross-attention, FFN) to the text width.

transformers' ``get_image_features`` applies the same projector as the engine
(its ``feed_forward`` ends at ``output_dim = text_config.hidden_size``): the
default adapter path, no packing of its own.

Tokens: the projector takes as many queries as ``projector_patch_to_query_dict``
maps the crop's patch count to, and refuses other counts. The processor pads
every image to a ``max_image_size`` square (980 px: 4900 patches, 256
queries), and vLLM counts ``max(projector_patch_to_query_dict.values())``
tokens per image: that is the profile item, one full ``image_size`` crop.
The minimal item is the crop of the smallest patch count the dictionary
lists (1225 patches in the published model, 128 queries).
"""

from __future__ import annotations

import math
from typing import Any

from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.items import FixedTiles


class AriaCrops(FixedTiles):
    """One padded square crop; its patch count must be a key of ``projector_patch_to_query_dict``."""

    def minimal_patches(self, config: Any) -> int:
        return math.isqrt(min(config.projector_patch_to_query_dict))

    def tokens_per_tile(self, config: Any) -> int:
        return max(config.projector_patch_to_query_dict.values())  # vLLM's count: every image is padded full size


@register
class AriaAdapter(FamilyAdapter):
    model_types = ("aria",)
    required_fields = (
        "projector_patch_to_query_dict",
        "vision_config.image_size",
        "vision_config.patch_size",
        "text_config.hidden_size",
    )
    items = {"image": AriaCrops()}
    look_alikes = ("vision_config.hidden_size",)

"""VipLLaVA (``vipllava``): multi-layer CLIP features, the projector's output at the text width.

``VipLlavaModel.get_image_features`` concatenates the CLIP tower's
``vision_feature_layer`` hidden states (a list, CLS rows dropped), then runs
the projector (LayerNorm, two linears) to the text width,
``[(image_size / patch_size)², text hidden]`` per image. The projector is the
last step before the LM, so a native class would ship the same width.

Items: one ``image_size`` tile, the minimal item too (the tower's position
table is fixed to it); ``(image_size / patch_size)²`` tokens.
"""

from __future__ import annotations

from ecwidth.families._backend import WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class VipLlavaAdapter(FamilyAdapter):
    model_types = ("vipllava",)
    transformers_since = "5.23.0"  # vision_feature_layer (singular) from 5.23 on
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": WholeTiles()}
    look_alikes = ("vision_config.hidden_size",)

"""Mistral 3 (Mistral-Small-3.1): Pixtral vision, a learned patch merger, then a projector to the LM width.

The projector (RMSNorm, the merging of ``spatial_merge_size``² patches, two
linears to the text width) is what crosses the wire, one row per merged
patch; the ``[IMG_BREAK]`` and ``[IMG_END]`` tokens of the prompt are text
embeddings, not part of the shipped tensor.

Items are Pixtral's (``ecwidth.families._pixtral``): whole merged patches of
any image up to the longest edge, with its ``image_sizes``.
"""

from __future__ import annotations

from ecwidth.families._pixtral import PIXTRAL_FIELDS, PixtralImage
from ecwidth.families.adapter import FamilyAdapter, register


@register
class Mistral3Adapter(FamilyAdapter):
    model_types = ("mistral3",)
    required_fields = PIXTRAL_FIELDS
    items = {"image": PixtralImage()}
    look_alikes = ("vision_config.hidden_size",)

"""Mistral-Large-4's transformers port (``mistral_large4``): Mistral 3's Pixtral tower and projector.

``MistralLarge4Model.get_image_features`` runs the Pixtral tower's
``vision_feature_layer`` hidden states through the projector (RMSNorm, the
``spatial_merge_size``² patch merger, ``linear_1`` to the text width,
``linear_2`` at it), one row per merged patch. The projector is the last
step before the LM, so a native class would ship the same width. A list of
feature layers does not run in transformers 5.24: the projector's RMSNorm is
``vision_config.hidden_size`` wide, not the concatenation's width.

Items are Pixtral's (``ecwidth.families._pixtral``), as for Mistral 3.
"""

from __future__ import annotations

from ecwidth.families._pixtral import PIXTRAL_FIELDS, PixtralImage
from ecwidth.families.adapter import FamilyAdapter, register


@register
class MistralLarge4Adapter(FamilyAdapter):
    model_types = ("mistral_large4",)
    transformers_since = "5.22.0"
    required_fields = PIXTRAL_FIELDS
    items = {"image": PixtralImage()}
    look_alikes = ("vision_config.hidden_size",)

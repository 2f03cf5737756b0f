"""Mistral-Large-4's transformers port (``mistral_large4``): served by vLLM's Transformers backend; Mistral 3's projector.

vLLM 0.32 has no ``MistralLarge4ForConditionalGeneration`` (its
``MistralLarge3ForCausalLM`` is text-only); the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``MistralLarge4Model.get_image_features``: the Pixtral
tower's ``vision_feature_layer`` hidden states, then
``MistralLarge4MultiModalProjector`` (RMSNorm, the ``spatial_merge_size``²
patch merger, ``linear_1`` to ``text_config.hidden_size``, ``linear_2`` at
it), split per image: ``[merged patches, text_config.hidden_size]``, as
Mistral 3's native class ships. The projector is the last step before the
LM, so a native class would ship the same width. Not the width:
``vision_config.hidden_size``, the projector's input. A list of feature
layers does not run in transformers 5.24: the projector's RMSNorm is
``vision_config.hidden_size`` wide, not the concatenation's width.

Items are Mistral 3's (``mistral3.py``): whole merged patches of any image up
to the longest edge ``vision_config.image_size``, with its ``image_sizes``.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND
from ecwidth.families.adapter import FamilyAdapter, register
from ecwidth.families.mistral3 import Mistral3Adapter, PixtralImage


@register
class MistralLarge4Adapter(FamilyAdapter):
    model_types = ("mistral_large4",)
    required_fields = Mistral3Adapter.required_fields  # the same Pixtral tower and patch merger
    items = {"image": PixtralImage()}
    engine = f"{BACKEND}: text_config.hidden_size via MistralLarge4MultiModalProjector"

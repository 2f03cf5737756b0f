"""VipLLaVA (``vipllava``): served by vLLM's Transformers backend; the projector's output, the text width.

vLLM 0.32 has no VipLLaVA class of its own (``_PREVIOUSLY_SUPPORTED_MODELS``
no longer lists one either); the Transformers backend
(``vllm/model_executor/models/transformers/multimodal.py``) ships the
``pooler_output`` of ``VipLlavaModel.get_image_features``: the CLIP tower's
``vision_feature_layer`` hidden states (a list, CLS rows dropped),
concatenated, then ``VipLlavaMultiModalProjector`` (LayerNorm, two linears) to
``text_config.hidden_size``, ``[(image_size / patch_size)², text hidden]``
per image. That is what a native class would ship too: the projector is
the last step before the LM. Not the width: ``vision_config.hidden_size``
and its multiple by the number of layers (the projector's input).

Items: one ``image_size`` tile, the minimal item too (the tower's position
table is fixed to it); ``(image_size / patch_size)²`` tokens.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class VipLlavaAdapter(FamilyAdapter):
    model_types = ("vipllava",)
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": WholeTiles()}
    engine = f"{BACKEND}: text_config.hidden_size via VipLlavaMultiModalProjector"

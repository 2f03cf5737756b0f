"""DeepSeek-VL (``deepseek_vl``): the aligner's output, the text width.

vLLM's native DeepSeek classes read the original ``deepseek_vl_v2`` schema,
not transformers' port, so the port goes through the backend, which ships the
``pooler_output`` of ``DeepseekVLModel.get_image_features``: the SigLIP tower,
then ``DeepseekVLAligner`` (two linears to the text width). The aligner is the
last step before the LM, so a native class would ship the same width.

Items: one ``image_size`` image, the minimal item too (the tower's position
table is fixed to it); ``(image_size / patch_size)²`` tokens.
"""

from __future__ import annotations

from ecwidth.families._backend import WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class DeepseekVLAdapter(FamilyAdapter):
    model_types = ("deepseek_vl",)
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": WholeTiles()}
    look_alikes = ("vision_config.hidden_size",)

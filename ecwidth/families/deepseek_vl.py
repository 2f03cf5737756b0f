"""DeepSeek-VL (``deepseek_vl``): served by vLLM's Transformers backend; the aligner's output, the text width.

vLLM 0.32 has no class for transformers' DeepSeek-VL port (its native
DeepSeek classes read the original ``deepseek_vl_v2`` schema); the
Transformers backend (``vllm/model_executor/models/transformers/multimodal.py``)
ships the ``pooler_output`` of ``DeepseekVLModel.get_image_features``: the
SigLIP tower, then ``DeepseekVLAligner`` (two linears to
``text_config.hidden_size``), ``[(image_size / patch_size)², text hidden]``
per image. The aligner is the last step before the LM, so a native class
ships the same width. Not the width: ``vision_config.hidden_size``.

Items: one ``image_size`` image, the minimal item too (the tower's position
table is fixed to it); ``(image_size / patch_size)²`` tokens.
"""

from __future__ import annotations

from ecwidth.families._backend import BACKEND, WholeTiles
from ecwidth.families.adapter import FamilyAdapter, register


@register
class DeepseekVLAdapter(FamilyAdapter):
    model_types = ("deepseek_vl",)
    required_fields = ("vision_config.image_size", "vision_config.patch_size", "text_config.hidden_size")
    items = {"image": WholeTiles()}
    engine = f"{BACKEND}: text_config.hidden_size via DeepseekVLAligner"

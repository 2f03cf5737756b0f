"""Kimi-VL (``kimi_vl``): MoonViT, then ``KimiVLMultiModalProjector`` to ``text_config.hidden_size``.

vLLM's ``KimiVLForConditionalGeneration`` (``kimi_vl.py``) runs MoonViT on an
image's patches, merges ``vision_config.merge_kernel_size`` windows
(``vision_config.hidden_size × kh × kw`` wide, the projector's input, not the
width), and ``KimiVLMultiModalProjector`` (pre-norm, two linears) maps them to
``config.text_config.hidden_size``; ``_process_image_input`` splits the rows
per image. Images only.

The config class is vLLM's own (``transformers_utils/configs/kimi_vl.py``:
``KimiVLConfig`` with ``MoonViTConfig`` and ``DeepseekV2Config``);
transformers knows no ``kimi_vl`` type, so the spec is the raw config read as
data (``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class KimiVLAdapter(EngineRuleAdapter):
    model_types = ("kimi_vl",)
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

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

from typing import Any

from ecwidth.families.adapter import FamilyAdapter, FieldWidth, register


@register
class KimiVLAdapter(FamilyAdapter):
    model_types = ("kimi_vl",)
    engine_only = True
    required_fields = ("text_config.hidden_size",)
    predicted_only = {"image": "no transformers class can build this family (its config class is vLLM's own)"}
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

    def lm_hidden_size(self, config: Any) -> int:
        return int(config.text_config.hidden_size)

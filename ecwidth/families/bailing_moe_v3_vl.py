"""Bailing MoE V3 VL (``bailing_moe_v3_vl``): a Qwen3-VL-style tower without DeepStack, an MLP to the text width.

Engine only: vLLM's own config class (``BailingMoeV3VLConfig``,
``transformers_utils/configs/bailing_moe_v3_vl.py``) parses it; transformers
has none, so ecwidth reads the config as data and predicts.

``BailingMoeV3VLForConditionalGeneration`` (``bailing_moe_v3_vl.py``) builds
``BailingMoeV3VisionTransformer``, whose merger only folds 2×2 patches
(``vision_config.hidden_size × spatial_merge_size²``; the class overwrites
``out_hidden_size`` with that and empties ``deepstack_visual_indexes``), then
``linear_proj``, a ``BailingMoeV3VLProjector`` (two linears) to
``text_config.hidden_size``. So each image ships ``text_config.hidden_size``,
which ``BailingMoeV3TextConfig`` defaults to 2048; the published
``vision_config.out_hidden_size`` and ``vision_config.hidden_size`` only look
like it. Images only (``BailingMoeV3VLProcessingInfo``).
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class BailingMoeV3VLAdapter(EngineRuleAdapter):
    model_types = ("bailing_moe_v3_vl",)
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.out_hidden_size", "vision_config.hidden_size")

"""Qwen4Exp: a Qwen3.5-style vision tower, DeepStack levels packed wherever the config lists them.

vLLM builds Qwen3-VL's tower from transformers' ``Qwen4ExpConfig``, and that
tower packs one merger output per listed level after the main one. transformers'
``Qwen4ExpVisionConfig`` has no DeepStack field and its tower (a Qwen3.5-MoE
one) no DeepStack mergers, so ``get_image_features`` gives ``out_hidden_size``
alone; for a config that lists levels we swap in transformers' Qwen3-VL tower,
as the Qwen3.5 adapter does. vLLM's constructor reads
``vision_config.deepstack_visual_indexes`` without a default (an
``AttributeError`` on a config that lacks it), so the field is required here
too; ``[]`` means no DeepStack.

Unlike Qwen3.5's, vLLM's Qwen4Exp class sets up video pruning through
``_init_video_pruning``, so its pruned videos get Qwen3-VL's 5 channels and are
measured, not refused (read in the code, not run). Items and token counts are
Qwen3-VL's (patch 16, its published budgets).
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.qwen3_vl import Qwen3_5Adapter


@register
class Qwen4ExpAdapter(Qwen3_5Adapter):
    model_types = ("qwen4_exp",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.deepstack_visual_indexes",
        "text_config.hidden_size",
    )

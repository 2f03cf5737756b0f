"""Qwen4Exp: a Qwen3.5-style vision tower, DeepStack levels packed wherever the config lists them.

vLLM 0.32 serves ``qwen4_exp`` with ``Qwen4ExpForConditionalGeneration``
(``models/qwen4_exp/nvidia/model.py``, the same in ``amd/model.py``), a
``Qwen3_5ForConditionalGeneration`` subclass that builds vLLM's
``Qwen3_VisionTransformer`` from transformers' ``Qwen4ExpConfig``. That tower
concatenates the merger output and one merger output per
``vision_config.deepstack_visual_indexes`` entry on the last dim, and the
inherited ``embed_multimodal`` ships it per image or video:
``vision_config.out_hidden_size × (1 + len(deepstack_visual_indexes))``.

Where transformers differs: its ``Qwen4ExpVisionConfig`` has no DeepStack
field and its tower (a Qwen3.5-MoE one) no DeepStack mergers, so
``get_image_features`` gives ``out_hidden_size`` alone. For a config that
lists levels we swap in transformers' Qwen3-VL tower, as the Qwen3.5 adapter
does, and measure what vLLM's producer would ship. vLLM's constructor reads
``config.vision_config.deepstack_visual_indexes`` without a default (an
``AttributeError`` on a config that lacks it), so the field is required here
too; ``[]`` means no DeepStack and ``out_hidden_size``.

With video pruning on, the inherited Qwen3-VL path appends 5 channels to
image and video items, built here as for Qwen3-VL. Unlike Qwen3.5, whose
pruned video path the census reports crashing (``use_deepstack`` set by
``hasattr``, so an empty list enters the DeepStack merge), Qwen4Exp sets
``use_deepstack = bool(deepstack_visual_indexes)``, so its pruned videos are
measured, not refused (read in the code, not run). Items and token counts
are Qwen3-VL's (patch 16, its published budgets).
"""

from __future__ import annotations

from typing import Any

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
    engine = (
        "vllm Qwen4ExpForConditionalGeneration (models/qwen4_exp, a Qwen3_5 subclass with Qwen3_VisionTransformer): "
        "vision_config.out_hidden_size * (1 + len(deepstack_visual_indexes)); transformers has no DeepStack "
        "here, so a config listing levels gets transformers' Qwen3-VL tower"
    )

    def unserved(self, config: Any, options: Any, release: Any = None) -> dict[str, str]:
        # Qwen3.5's refusal of pruned videos does not apply: vLLM's Qwen4Exp reads the list by truth value.
        return {}

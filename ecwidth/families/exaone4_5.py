"""EXAONE 4.5: a Qwen2.5-VL tower with grouped-query attention, shipping ``vision_config.out_hidden_size``.

vLLM 0.32 serves it with ``Exaone4_5_ForConditionalGeneration``
(``model_executor/models/exaone4_5.py``), a ``Qwen2_5_VLForConditionalGeneration``
subclass whose ``EXAONE4_5_VisionTransformer`` only swaps the blocks for GQA
ones (``num_key_value_heads``); the patch merger is Qwen2.5-VL's, so
``embed_multimodal`` ships each image or video as ``[t·h·w / merge²,
vision_config.out_hidden_size]``. The tower's ``hidden_size`` is not the
width, and neither is the LM's (published configs set ``out_hidden_size`` to
the LM's by convention). transformers' feature methods return the same split
in ``pooler_output``. With video pruning on (``video_pruning_rate > 0``) vLLM
appends 4 mrope channels to image and video items, inherited from
Qwen2.5-VL; so does this adapter, inherited from the Qwen2.5-VL one.

Its processors are Qwen2-VL's (transformers maps ``exaone4_5`` to
``Qwen2VLImageProcessor`` / ``Qwen2VLVideoProcessor``; vLLM's processing
info is ``Qwen2VLProcessingInfo``), so items and token counts are Qwen2-VL's.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.qwen2_vl import PIXELS, Qwen2_5_VLAdapter, Qwen2VLPatches


@register
class Exaone4_5Adapter(Qwen2_5_VLAdapter):
    model_types = ("exaone4_5",)
    required_fields = (
        "vision_config.out_hidden_size",
        "vision_config.hidden_size",
        "vision_config.depth",
        "vision_config.num_key_value_heads",
    )
    items = {"image": Qwen2VLPatches(PIXELS), "video": Qwen2VLPatches(PIXELS)}
    engine = (
        "vllm Exaone4_5_ForConditionalGeneration (exaone4_5.py, a Qwen2_5_VL subclass): "
        "vision_config.out_hidden_size, agrees with transformers"
    )

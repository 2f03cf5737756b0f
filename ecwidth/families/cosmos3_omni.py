"""Cosmos3 (omni reasoner): a Qwen3-VL model, DeepStack levels packed on the last dim.

vLLM 0.32 serves ``cosmos3_omni`` with ``Cosmos3ForConditionalGeneration``
(``model_executor/models/cosmos3.py``), a ``Qwen3VLForConditionalGeneration``
subclass that only remaps checkpoint keys; its processor and dummy builder
are Qwen3-VL's (``Qwen3VLProcessingInfo``, ``Qwen3VLDummyInputsBuilder``).
So ``embed_multimodal`` ships what ``Qwen3_VisionTransformer`` emits per
image or video: the merger output, then one merger output per DeepStack
layer, concatenated on the last dim:
``vision_config.out_hidden_size × (1 + len(vision_config.deepstack_visual_indexes))``.

transformers' ``Cosmos3OmniModel`` builds the same ``qwen3_vl_vision`` tower
(``visual``) and returns the levels separately (``deepstack_features``); the
Qwen3-VL adapter packs them as vLLM does. ``deepstack_visual_indexes`` is
required: transformers would fill in (8, 16, 24) and report 4 × out_hidden_size
for a config that never said so. With video pruning on, vLLM appends 5
channels to image and video items (inherited from Qwen3-VL); so does this
adapter, inherited from the Qwen3-VL one. Items and token counts are
Qwen3-VL's (its published processor budgets).
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.qwen3_vl import Qwen3VLAdapter


@register
class Cosmos3OmniAdapter(Qwen3VLAdapter):
    model_types = ("cosmos3_omni",)
    engine = (
        "vllm Cosmos3ForConditionalGeneration (cosmos3.py, a Qwen3VL subclass): "
        "vision_config.out_hidden_size * (1 + len(deepstack_visual_indexes)); transformers returns the levels "
        "separately, packed here as vLLM does"
    )

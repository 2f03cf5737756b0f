"""Cosmos3 (omni reasoner): a Qwen3-VL model, DeepStack levels packed on the last dim.

vLLM's class is a Qwen3-VL subclass that only remaps checkpoint keys, with
Qwen3-VL's processor and dummy builder; transformers' ``Cosmos3OmniModel``
builds the same ``qwen3_vl_vision`` tower (``visual``) and returns the levels
separately, which the Qwen3-VL adapter packs as the engine does, pruning
channels included. ``deepstack_visual_indexes`` is required: transformers
would fill in (8, 16, 24) and report 4 × out_hidden_size for a config that
never said so. Items and token counts are Qwen3-VL's (its published processor
budgets).
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.qwen3_vl import Qwen3VLAdapter


@register
class Cosmos3OmniAdapter(Qwen3VLAdapter):
    model_types = ("cosmos3_omni",)

"""Phi-4-reasoning-vision (``phi4-siglip``): a SigLIP-2 NaFlex tower and a LLaVA projector to the LM's width.

Engine only: the config is the checkpoint's remote code (a flat Phi-3 config
with ``mm_hidden_size`` and a ``vision_config`` dict), which ecwidth reads as
data; the width is predicted.

``Phi4ForCausalLMV.__init__`` (``phi4siglip.py``) reads the tower at its
second-to-last layer (``Siglip2Model``, ``vision_config.hidden_size`` wide),
then ``LlavaMultiModalProjector`` from ``mm_hidden_size`` to
``config.hidden_size`` (two linears with a GELU); ``_process_image_input``
splits the projected rows per image. So each image ships the top-level
``hidden_size``; ``mm_hidden_size`` and ``vision_config.hidden_size`` (both the
tower's width) only look like it. Images only.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class Phi4SiglipAdapter(EngineRuleAdapter):
    model_types = ("phi4-siglip",)
    #: the published model_type is not confirmed from the engine's sources: file configs by architecture too.
    architectures = ("Phi4ForCausalLMV",)
    required_fields = ("hidden_size", "mm_hidden_size")
    why = CHECKPOINT_CODE
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("mm_hidden_size", "vision_config.hidden_size")

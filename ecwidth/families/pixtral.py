"""Pixtral in Mistral's own format (``pixtral``): a ``params.json`` checkpoint, engine only, so predicted.

vLLM reads a Mistral-format checkpoint into a ``pixtral`` config
(``ecwidth.reading.mistral``) and builds ``PixtralForConditionalGeneration``
(``pixtral.py``): the vision encoder, an optional patch merger at the
encoder's width, then ``VisionLanguageAdapter``, two linears to the text
model's ``dim``, which is what the producer ships, images only. transformers
has a Pixtral vision tower, but no class takes this config (its own Pixtral
checkpoints are ``llava`` and ``mistral3`` configs, which other families
answer), so the width is predicted from the engine's rule.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class PixtralAdapter(EngineRuleAdapter):
    model_types = ("pixtral",)
    required_fields = ("text_config.hidden_size", "vision_config.hidden_size")
    why = "no transformers class takes a Mistral-format config (vLLM's own reading of params.json)"
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

"""LightOnOCR (``lighton_ocr``): Pixtral vision, a patch merger and a projector to the text width, as Mistral 3.

transformers' port feeds the LM ``vision_projection`` (norm, ``patch_merger``,
``linear_1`` to the text width, ``linear_2``), one row per merged patch.
vLLM's registry has no class for the port's architecture, so it reaches the
Transformers backend; vLLM's own ``LightOnOCRForConditionalGeneration``
(``lightonocr.py``) reads a ``Mistral3Config`` (the original checkpoint, a
``mistral3`` config) and ships the same width through Mistral 3's projector.

Items are Mistral 3's (``ecwidth.families._pixtral``), with the same token rule.
"""

from __future__ import annotations

from ecwidth.families.adapter import register
from ecwidth.families.mistral3 import Mistral3Adapter


@register
class LightOnOcrAdapter(Mistral3Adapter):
    model_types = ("lighton_ocr",)

"""R-4B (``rvl``): LLaVA-OneVision with its own projector, images only; the LM's width.

Engine only: the config is the checkpoint's remote code (``vision_config``,
``text_config``), read as data; the width is predicted.

``RForConditionalGeneration`` (``rvl.py``) is ``LlavaOnevisionForConditionalGeneration``
with ``RVLMultiModalProjector`` in place of its projector: a LayerNorm at
``vision_config.hidden_size``, then two linears to
``text_config.hidden_size``; the inherited path lays out the anyres patches
with ``image_newline`` rows, which are ``text_config.hidden_size`` too
(``llava_onevision.py``). So each image ships ``text_config.hidden_size``;
``vision_config.hidden_size`` only looks like it. Images only: the class
registers ``LlavaNextProcessingInfo``'s limits (``RVLProcessingInfo``), which
take no video, though the parent class could embed it.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class RVLAdapter(EngineRuleAdapter):
    model_types = ("rvl",)
    #: the published model_type is not confirmed from the engine's sources: file configs by architecture too.
    architectures = ("RForConditionalGeneration",)
    why = CHECKPOINT_CODE
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

"""Step3-VL (``step3_vl``): a ViT, two conv downsamplers and ``vit_large_projector`` to the text width.

vLLM's ``Step3VLForConditionalGeneration`` (``step3_vl.py``) drops the ViT's
first 4 rows, then ``vit_downsampler`` (``vision_config.hidden_size`` →
``vision_config.output_hidden_size``), ``vit_downsampler2`` (→
``output_hidden_size × 2``) and ``vit_large_projector`` to ``config.hidden_size``,
which ``Step3VLConfig`` (``transformers_utils/configs/step3_vl.py``) sets to
``text_config.hidden_size`` whatever the file says; ``_process_image_input``
ships each image's local crops' rows, then its global view's. Images only.
Step3-VL-10B (``StepVLForConditionalGeneration``, a subclass) has a config of
its own type and a family of its own (``ecwidth.families.step_vl``).

The config class is vLLM's own; transformers knows no ``step3_vl`` type, so
the spec is the raw config read as data (``engine_only``) and the width is
predicted, never measured.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class Step3VLAdapter(EngineRuleAdapter):
    model_types = ("step3_vl",)
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.hidden_size", "vision_config.output_hidden_size")

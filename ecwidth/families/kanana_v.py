"""Kanana-1.5-V (``kanana-1.5-v``): a Qwen2-VL tower and the C-Abstractor, whose readout sets the width.

Engine only: the config is the checkpoint's remote code (``vision_config``,
``projector_config``, ``text_config``), read as data; the width is predicted.

``KananaVForConditionalGeneration`` (``kanana_v.py``) runs
``CustomQwen2VLVE`` (no merger: ``vision_config.embed_dim``-wide patches, read
at ``projector_config.feature_layer_index``), then ``DynamicCAbstractor``:
RegNet stages at ``projector_config.hidden_size``, a patch merge, and
``readout``, an MLP ending at ``projector_config.output_hidden_size``
(``build_net``; with ``depth`` 0 the readout starts from
``encoder_hidden_size``, and ends at the same width). So each image ships
``projector_config.output_hidden_size``; ``projector_config.hidden_size`` and
``encoder_hidden_size`` only look like it. Images only
(``KananaVProcessingInfo.get_supported_mm_limits``).
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class KananaVAdapter(EngineRuleAdapter):
    model_types = ("kanana-1.5-v",)
    required_fields = ("projector_config.output_hidden_size", "text_config.hidden_size")
    why = CHECKPOINT_CODE
    width_fields = {"image": FieldWidth("projector_config.output_hidden_size")}
    look_alikes = ("projector_config.hidden_size", "projector_config.encoder_hidden_size")

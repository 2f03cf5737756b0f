"""DeepSeek-V4.1 (``deepseek_v41``): DeepSeek-V4's ViT and aligner, at the text model's ``hidden_size``.

vLLM parses this model type with its own ``DeepseekV41Config``
(``transformers_utils/configs/deepseek_v41.py``), which flattens
``text_config`` onto the top level and maps ``vision_config`` to the
``vision_*`` names DeepSeek-V4's tower reads (``hidden_size`` → ``vision_dim``,
default 1024; ``downsample_ratio`` → ``vision_downsample_ratio``, default 3).
transformers has no such class, so ecwidth reads the raw config and predicts.

``DeepseekV41ForCausalLM`` (``vllm/models/deepseek_v41/nvidia/vl_model.py``;
``amd/vl_model.py`` on ROCm) always builds ``DeepseekV4ViT`` and
``DeepseekV4Aligner`` (``vllm/models/deepseek_v4/common/vision.py``): an r×r
unfold to ``vision_dim × r²``, then ``w1``/``w2`` to ``config.hidden_size``,
the flattened ``text_config.hidden_size``; ``_build_image_span``
(``vllm/models/deepseek_v41/common/vl_cudagraph.py``, and
``postprocess_encoder_output`` there on the encoder CUDA-graph path) ships
each image's rows with its ``image_start``/``image_newline``/``image_end``
rows, all that wide. So each image ships ``text_config.hidden_size``;
``vision_config.hidden_size`` only looks like it. Images only.

Read in the 0.32.0 and 0.33.0 wheels: the rule is the same in both.
"""

from __future__ import annotations

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class DeepseekV41Adapter(EngineRuleAdapter):
    model_types = ("deepseek_v41",)
    width_fields = {"image": FieldWidth("text_config.hidden_size")}
    look_alikes = ("vision_config.hidden_size",)

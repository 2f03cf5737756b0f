"""DeepSeek-V4 vision (``deepseek_v4`` configs with a ViT): the aligner's MLP, at the LM's ``hidden_size``.

DeepSeek-V4-Flash-Vision-Exp publishes the text model's ``model_type``
(``deepseek_v4``) and architecture (``DeepseekV4ForCausalLM``) with flat
``vision_*`` fields; vLLM's ``DeepseekV4ModelArchConfigConvertor``
(``transformers_utils/model_arch_config_convertor.py``) rewrites the
architecture to ``DeepseekV4ForConditionalGeneration`` when
``vision_n_layers`` > 0. This family files such configs under a key of its own
(``deepseek_v4_vision``, which no published config uses) and claims both
architectures, the text one only with ``vision_n_layers`` > 0 (``claims``), as
the engine picks; the engine-only config is read as data, the width
predicted.

``DeepseekV4ForConditionalGeneration`` (``vllm/models/deepseek_v4/common/
vl_model.py``) runs ``DeepseekV4ViT`` (``vision_dim`` wide) and
``DeepseekV4Aligner`` (``common/vision.py``): an r×r unfold
(``vision_downsample_ratio``) to ``vision_dim × r²``, then ``w1``/``w2`` to
``config.hidden_size``; ``embed_multimodal`` ships those rows per image (the
sentinel rows, ``image_start`` and friends, are written in
``embed_input_ids``, also ``hidden_size`` wide). So each image ships the
top-level ``hidden_size``; ``vision_dim`` only looks like it. With
``vision_n_layers`` 0 the engine builds no tower and ships nothing. Images
only.

Read in the 0.32.0 and 0.33.0 wheels (the rule is the same in both; 0.33
drops vLLM's ``configs/deepseek_v4.py`` for transformers' ``DeepseekV4Config``,
which keeps the ``vision_*`` fields). ``vllm/models/deepseek_v4/__init__.py``
binds the architecture to ``common/vl_model.py``'s class on CUDA and ROCm
only: on CPU and XPU it binds ``vl_stub.py``'s, whose ``__init__`` raises
NotImplementedError, so those platforms serve no image at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.families.adapter import FieldWidth, register
from ecwidth.families.engine_rule import EngineRuleAdapter

WHY = "no transformers class can build this family's vision tower (vLLM's own DeepSeek-V4 ViT)"


@register
class DeepseekV4VisionAdapter(EngineRuleAdapter):
    model_types = ("deepseek_v4_vision",)
    architectures = ("DeepseekV4ForConditionalGeneration", "DeepseekV4ForCausalLM")
    required_fields = ("hidden_size", "vision_n_layers")
    why = WHY
    width_fields = {"image": FieldWidth("hidden_size")}
    look_alikes = ("vision_dim",)

    def claims(self, raw: Mapping[str, Any]) -> bool:
        # DeepseekV4ModelArchConfigConvertor: the text architecture is the vision wrapper's once it has layers.
        if raw.get("architectures", [None])[0] != "DeepseekV4ForCausalLM":
            return True
        layers = raw.get("vision_n_layers")
        return isinstance(layers, int) and not isinstance(layers, bool) and layers > 0

    def predict(self, config: Any) -> dict[str, int]:
        # image_enabled (DeepseekV4ForConditionalGeneration.__init__): no layers, no tower, nothing shipped.
        return super().predict(config) if int(config.vision_n_layers) > 0 else {}

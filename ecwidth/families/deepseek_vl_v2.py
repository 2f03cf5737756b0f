"""DeepSeek-VL2, DeepSeek-OCR and DeepSeek-OCR-2 (``deepseek_vl_v2``): the ``MlpProjector``'s ``n_embed``.

The three original checkpoints publish the same remote-code schema, with
``model_type`` ``deepseek_vl_v2`` (``vision_config``, ``projector_config``,
``language_config``); vLLM parses all three with its own
``DeepseekVLV2Config`` (``transformers_utils/configs/deepseek_vl2.py``) and
picks the class by the first ``architectures`` entry:
``DeepseekVLV2ForCausalLM``, ``DeepseekOCRForCausalLM`` or
``DeepseekOCR2ForCausalLM``. transformers has no class for this schema (its
DeepSeek-OCR-2 port is ``deepseek_ocr2``, another schema and family), so
ecwidth reads it as data and predicts.

All three project with ``MlpProjector`` (``deepseek_vl2.py``: a linear, or the
``downsample_mlp_gelu`` MLP, from ``projector_config.input_dim`` to
``projector_config.n_embed``) and splice in bare ``image_newline`` and
``view_seperator`` rows of ``n_embed`` (``DeepseekVLV2ForCausalLM.
_pixel_values_to_embedding``; ``DeepseekOCRForCausalLM`` and
``DeepseekOCR2ForCausalLM._process_image_input`` in ``deepseek_ocr.py`` and
``deepseek_ocr2.py``). So each image ships ``projector_config.n_embed``, which
``MlpProjectorConfig`` defaults to 2048 where the file leaves it out;
``projector_config.input_dim`` and the tower's widths only look like it.
Images only.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter

WHY = "no transformers class can build this family (its config class is vLLM's own, for the original schema)"
#: ``MlpProjectorConfig.n_embed``'s default.
DEFAULT_N_EMBED = 2048


@register
class DeepseekVLV2Adapter(EngineRuleAdapter):
    model_types = ("deepseek_vl_v2",)
    required_fields = ("language_config.hidden_size",)
    why = WHY
    look_alikes = ("projector_config.input_dim",)

    def predict(self, config: Any) -> dict[str, int]:
        projector = getattr(config, "projector_config", None)
        return {"image": int(getattr(projector, "n_embed", DEFAULT_N_EMBED))}

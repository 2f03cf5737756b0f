"""MiDashengLM (``midashenglm``): the Dasheng audio encoder, subsampled and projected to the text width.

vLLM's ``MiDashengLMModel`` (``midashenglm.py``) runs ``DashengAudioTransformer``
(``audio_encoder_config.embed_dim`` wide), then ``AudioProjectorSubsample``:
``subsample_factor`` frames concatenated, two linears to
``text_config.hidden_size``; ``_process_audio_input`` ships each clip's rows
at that width. ``MiDashengLMConfig`` builds ``text_config`` as a
``Qwen2_5OmniTextConfig``, whose default ``hidden_size`` (3584) stands in
where the config's ``text_config`` omits it. Audio is the only modality.

The config class is vLLM's own (``transformers_utils/configs/midashenglm.py``);
transformers knows no ``midashenglm``, so the spec is the raw config
(``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter

#: ``Qwen2_5OmniTextConfig``'s default ``hidden_size``, where ``text_config`` names none.
DEFAULT_TEXT_HIDDEN_SIZE = 3584


@register
class MiDashengLMAdapter(EngineRuleAdapter):
    model_types = ("midashenglm",)
    required_fields = ("audio_encoder_config",)
    shipped = ("audio",)
    look_alikes = ("audio_encoder_config.embed_dim", "audio_encoder_config.outputdim")

    def lm_hidden_size(self, config: Any) -> int:
        text = getattr(config, "text_config", None)
        return int(
            getattr(text, "hidden_size", DEFAULT_TEXT_HIDDEN_SIZE) if text is not None else DEFAULT_TEXT_HIDDEN_SIZE
        )

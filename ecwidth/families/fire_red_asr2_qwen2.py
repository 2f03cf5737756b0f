"""FireRedASR2 (``FireRedASR2ForConditionalGeneration``): a plain ``qwen2`` config, routed by architecture.

The published config is the Qwen2 language model's (``model_type`` ``qwen2``)
with the Conformer encoder's settings in ``audio_encoder_conf`` and
``encoder_downsample_rate``; the engine picks its class by
``architectures``, so this family answers under a key no published config
carries, ``fire_red_asr2_qwen2``, matched through ``architectures``.

vLLM's ``FireRedASR2Model`` (``fireredasr2.py``) runs ``ConformerEncoder``
(``conformer_encoder.py``; ``odim`` is ``audio_encoder_conf.d_model``), then
``FireRedASR2Adapter``: ``encoder_downsample_rate`` frames concatenated,
``linear1`` to ``llm_dim``, ReLU, ``linear2`` at ``llm_dim``, where
``llm_dim`` is the config's top-level ``hidden_size`` (read as a
``Qwen2Config``, whose default, 4096, stands in where the file omits it).
``embed_multimodal`` returns the adapter's output. Audio is the only modality.

transformers has no class for this encoder, so the config is read as data
(``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import ClassVar

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import ENCODER_IN_VLLM, EngineRuleAdapter


@register
class FireRedASR2Qwen2Adapter(EngineRuleAdapter):
    model_types = ("fire_red_asr2_qwen2",)
    #: ``Qwen2Config``'s default ``hidden_size``, where the config omits it.
    default_hidden_size = 4096
    #: the engine architectures this family answers; the published config's model_type is the text model's.
    architectures: ClassVar[tuple[str, ...]] = ("FireRedASR2ForConditionalGeneration",)
    required_fields = ("audio_encoder_conf", "encoder_downsample_rate")
    shipped = ("audio",)
    why = ENCODER_IN_VLLM
    look_alikes = ("audio_encoder_conf.d_model",)

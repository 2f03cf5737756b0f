"""Kimi-Audio (``MoonshotKimiaForCausalLM``): a Qwen2-schema config, routed by architecture.

The published config's remote class (``configuration_moonshot_kimia.KimiAudioConfig``)
subclasses ``Qwen2Config`` without a ``model_type`` of its own, so the loaded
config says ``qwen2``; the engine picks its class by ``architectures``, so
this family answers under a key no published config carries,
``kimi_audio_qwen2``, matched through ``architectures``.

vLLM's ``KimiAudioForConditionalGeneration`` (``kimi_audio.py``) runs the
Whisper encoder (its config read from the checkpoint's ``whisper-large-v3``
subfolder), folds four frames into one row (``D * 4``, which
``kimia_adaptor_input_dim``, 5120 by default, must match), then
``KimiAudioMultiModalProjector``: ``vq_adaptor_layers_0`` to ``llm_dim``,
``vq_adaptor_layers_3`` and a LayerNorm at ``llm_dim``, where ``llm_dim`` is
the config's top-level ``hidden_size``. ``embed_multimodal`` ships one
tensor per clip at that width. Audio is the only modality.

transformers has no class for this model, and ecwidth runs no hub code, so
the config is read as data (``engine_only``) and the width is predicted,
never measured.
"""

from __future__ import annotations

from typing import ClassVar

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import REMOTE_CODE, EngineRuleAdapter


@register
class KimiAudioQwen2Adapter(EngineRuleAdapter):
    model_types = ("kimi_audio_qwen2",)
    #: the engine architectures this family answers; the published config's model_type is the text model's.
    architectures: ClassVar[tuple[str, ...]] = ("MoonshotKimiaForCausalLM",)
    required_fields = ("hidden_size",)
    shipped = ("audio",)
    why = REMOTE_CODE
    look_alikes = ("kimia_adaptor_input_dim",)

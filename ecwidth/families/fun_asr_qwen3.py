"""Fun-ASR's original checkpoint (``FunASRForConditionalGeneration``): a plain ``qwen3`` config, routed by architecture.

The published config is the Qwen3 language model's (``model_type`` ``qwen3``)
with the SenseVoice encoder's settings in ``audio_encoder_conf``; the engine
picks its class by ``architectures``, so this family answers under a key no
published config carries, ``fun_asr_qwen3``, matched through
``architectures``.

vLLM's ``FunASRForConditionalGeneration`` (``funasr.py``) runs
``SenseVoiceEncoderSmall`` (``input_size=560``, ``**audio_encoder_conf``),
then the adaptor, ``FunASREncoder.audio_adaptor``: a ``Transformer`` built
with ``llm_dim=1024`` and ``encoder_dim=512`` hard-coded, whatever the config
says; ``embed_multimodal`` returns ``get_encoder_outputs``, the adaptor's
output, so every clip ships 1024-wide rows. The published Fun-ASR-Nano's
Qwen3 is 1024 wide, so they agree there; a config whose ``hidden_size``
differs is not one the engine can merge, but what its encoder ships is still
1024 wide. Audio is the only modality.

transformers has no class for this checkpoint (its ``fun_asr_nano`` port has
another schema: ``ecwidth.families.fun_asr_nano``), so the config is read as
data (``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import ENCODER_IN_VLLM, EngineRuleAdapter

#: ``FunASREncoder.audio_adaptor``'s ``llm_dim``, hard-coded in the engine.
ADAPTOR_WIDTH = 1024


@register
class FunASRQwen3Adapter(EngineRuleAdapter):
    model_types = ("fun_asr_qwen3",)
    #: the engine architectures this family answers; the published config's model_type is the text model's.
    architectures: ClassVar[tuple[str, ...]] = ("FunASRForConditionalGeneration",)
    required_fields = ("audio_encoder_conf",)
    shipped = ("audio",)
    why = ENCODER_IN_VLLM
    look_alikes = ("hidden_size", "audio_encoder_conf.output_size")

    def predict(self, config: Any) -> dict[str, int]:
        # Not a config field: the engine hard-codes the adaptor's output width.
        return {"audio": ADAPTOR_WIDTH}

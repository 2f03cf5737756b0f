"""Fun-Audio-Chat (``funaudiochat``): speech tokens and Whisper-style features, grouped, at ``audio_config.output_dim``.

vLLM's ``FunAudioChatForConditionalGeneration`` (``funaudiochat.py``) embeds
the speech tokenizer's ids with ``FunAudioChatDiscreteEncoder`` (an
``nn.Embedding`` ``audio_config.output_dim`` wide, ``group_size`` rows
averaged, ``output_matching``), adds (or substitutes) the continuous tower's
features (``FunAudioChatAudioEncoder``: ``d_model`` wide, ``proj`` to
``output_dim``) through ``continual_output_matching``, and
``embed_multimodal`` ships each clip's rows: ``audio_config.output_dim``
wide, which the checkpoint sets to the text model's width.
``FunAudioChatAudioEncoderConfig``'s default ``output_dim`` (3584) stands in
where the config omits it. ``codebook_size`` has no default the engine can
build from (``int(None)``), so the family requires it. Audio is the only
modality.

The config class is vLLM's own (``transformers_utils/configs/funaudiochat.py``);
transformers knows no ``funaudiochat``, so the spec is the raw config
(``engine_only``) and the width is predicted, never measured.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter

#: ``FunAudioChatAudioEncoderConfig``'s default ``output_dim``.
DEFAULT_OUTPUT_DIM = 3584


@register
class FunAudioChatAdapter(EngineRuleAdapter):
    model_types = ("funaudiochat",)
    required_fields = ("audio_config.codebook_size",)
    shipped = ("audio",)
    look_alikes = ("audio_config.d_model",)

    def lm_hidden_size(self, config: Any) -> int:
        text = getattr(config, "text_config", None)
        return int(getattr(config, "hidden_size", None) or getattr(text, "hidden_size", 0))

    def predict(self, config: Any) -> dict[str, int]:
        # Not the text hidden size: the discrete encoder's own width, output_dim, with the engine's default.
        return {"audio": int(getattr(config.audio_config, "output_dim", DEFAULT_OUTPUT_DIM))}

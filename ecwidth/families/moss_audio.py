"""MOSS-Audio (``moss_audio``): an engine-only family, its width predicted from vLLM's formula, never measured.

The config class is vLLM's own (in its model file); transformers knows no
``moss_audio`` config or model, so no transformers class can build the tower
and ecwidth reads the config only (``engine_only``).

Per clip, the Whisper-like encoder's output goes through the ``audio_adapter``
(a ``GatedMLP`` to the LM width), then, when DeepStack is on, one more
``GatedMLP`` map of the same width per captured encoder layer, concatenated on
the last dim as ``[main, level 0, level 1, ...]`` (the LM splits them back).
The number of levels is ``len(audio_config.deepstack_encoder_layer_indexes)``,
capped by ``deepstack_num_inject_layers`` where that is set. Where the config
omits them, the engine's defaults apply, as here:
``deepstack_encoder_layer_indexes`` ``[8, 16, 24]`` (``MossAudioEncoderConfig``),
``null`` meaning none, and no cap. Audio is the only modality.
"""

from __future__ import annotations

from typing import Any

from ecwidth.families.adapter import register
from ecwidth.families.engine_rule import EngineRuleAdapter

#: ``MossAudioEncoderConfig``'s default DeepStack capture layers, where ``audio_config`` names none.
DEFAULT_DEEPSTACK_LAYERS = (8, 16, 24)


@register
class MossAudioAdapter(EngineRuleAdapter):
    model_types = ("moss_audio",)
    required_fields = ("language_config.hidden_size",)
    shipped = ("audio",)
    look_alikes = ("audio_config.d_model", "audio_config.output_dim")

    def deepstack_levels(self, config: Any, modality: str) -> int:
        layers = getattr(
            getattr(config, "audio_config", None), "deepstack_encoder_layer_indexes", DEFAULT_DEEPSTACK_LAYERS
        )
        levels = len(layers or ())  # an explicit null captures no layer
        cap = getattr(config, "deepstack_num_inject_layers", None)
        return levels if cap is None else max(0, min(levels, int(cap)))

    def predict(self, config: Any) -> dict[str, int]:
        # Not a field lookup: the engine's default layers stand in for an absent list, and a cap applies.
        return {"audio": self.lm_hidden_size(config) * (1 + self.deepstack_levels(config, "audio"))}

"""Phi-4-multimodal (``phi4mm``): images and audio, each through its own projector to the LM's width.

Engine only: the config is the checkpoint's remote code (a flat Phi-3-style
config with ``embd_layer`` and ``audio_processor``), read as data; the width
is predicted. (transformers' port is another model type, ``phi4_multimodal``,
with another schema; vLLM's class reads only this one.)

Images (``Phi4MMImageEncoder``, ``phi4mm.py``): a SigLIP NaViT tower whose
shape the engine fixes (``get_navit_vision_model``: 1152 wide), 2×2 average
pooling, the ``glb_GN``/``sub_GN`` separator rows, then ``img_projection``
(two linears) to ``n_embd`` where the config has it, else ``hidden_size``.
Audio (``AudioEmbedding``, ``phi4mm_audio.py``): the Conformer
(``audio_processor.config.attention_dim`` wide), then ``audio_projection``
(or ``audio_projection_for_vision`` when the prompt has images too: both are
built the same) to the same ``n_embd`` / ``hidden_size``. So both modalities
ship that width; ``audio_processor.config.attention_dim`` only looks like it.
The engine builds the audio encoder only for ``audio_processor.name``
``"cascades"`` (any other raises ``NotImplementedError``); so does this family.
"""

from __future__ import annotations

from typing import Any

from ecwidth.errors import ConfigError
from ecwidth.families.adapter import lookup, register
from ecwidth.families.engine_rule import CHECKPOINT_CODE, EngineRuleAdapter


@register
class Phi4MMAdapter(EngineRuleAdapter):
    model_types = ("phi4mm",)
    required_fields = ("hidden_size", "audio_processor.name", "embd_layer.audio_embd_layer")
    shipped = ("image", "audio")
    why = CHECKPOINT_CODE
    look_alikes = ("audio_processor.config.attention_dim",)

    def translate(self, raw: dict[str, Any]) -> dict[str, Any]:
        name = lookup(raw, "audio_processor.name")
        if name is not None and name != "cascades":
            raise ConfigError(
                f"this phi4mm config's audio_processor.name is {name!r}; vLLM's AudioEmbedding (phi4mm_audio.py) "
                "builds only the 'cascades' Conformer and raises on any other"
            )
        return raw

    def lm_hidden_size(self, config: Any) -> int:
        # Phi4MMImageEncoder and AudioEmbedding: "n_embed or hidden_size".
        return int(getattr(config, "n_embd", None) or config.hidden_size)

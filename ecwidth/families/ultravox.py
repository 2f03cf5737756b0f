"""Ultravox (``ultravox``): a Whisper encoder whose stacked frames are projected to the text model's width.

vLLM's ``UltravoxModel`` (``ultravox.py``) runs the Whisper encoder, stacks
``stack_factor`` frames (``StackAudioFrames``) and projects them with
``UltravoxFeedForwardProjector`` (``num_projector_layers`` 0: ``linear_1`` to
the top-level ``hidden_size``, then ``linear_2`` to the text width) or
``UltravoxTransformerProjector`` (``linear_in`` to ``audio_config.d_model``,
Whisper layers, ``linear_out`` to the text width); ``embed_multimodal``
ships the rows each clip's ``audio_token_len`` covers. Both end at
``text_config.hidden_size``: ``UltravoxConfig.text_config`` is the wrapped
model's text config (``wrapped_model_config.get_text_config()``), so a
wrapped multimodal model (Gemma 3) is read through its own ``text_config``.
The top-level ``hidden_size`` is only the feed-forward projector's middle
width. Audio is the only modality.

The config class is vLLM's own (``transformers_utils/configs/ultravox.py``);
transformers knows no ``ultravox``, so the spec is the raw config
(``engine_only``). Where ``text_model_id`` is set the engine loads the text
model's config from that repository instead; the published files carry that
model's ``text_config`` beside it, which is what this family reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ecwidth.families.adapter import lookup, register
from ecwidth.families.engine_rule import EngineRuleAdapter


@register
class UltravoxAdapter(EngineRuleAdapter):
    model_types = ("ultravox",)
    shipped = ("audio",)
    look_alikes = ("hidden_size", "audio_config.d_model")

    def required_paths(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        # A wrapped multimodal model (Gemma 3) keeps its width in its own text_config.
        nested = isinstance(lookup(raw, "text_config.text_config"), Mapping)
        return ("text_config.text_config.hidden_size",) if nested else self.required_fields

    def lm_hidden_size(self, config: Any) -> int:
        text = config.text_config
        inner = getattr(text, "text_config", None)  # a wrapped multimodal model: its own text config
        return int((inner if inner is not None else text).hidden_size)
